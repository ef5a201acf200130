// Shared by /urls and /urls-detailed: the ranked page of cited URLs over R and the
// attributes that only the page's URLs need (title, providers), read for those URLs only.
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { pageOffset, type PageRequest } from '../../http/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { calendarRollupRows, dayConditions, rangeOfDays, type ReadStrategy } from '../rollup-conditions.js'
import { rollupServes } from '../../rollups/index.js'
import { citationConditions, type CitationScope } from '../sources/citation-scope.js'

export interface UrlRow {
  url: string
  domain: string
  citation_count: number
  first_cited: Date
  last_cited: Date
  total_items: number
}

export interface UrlAttributes {
  url: string
  title: string
  providers: string[]
}

/** The URL rollups answer when they serve every active filter (a date range, a source's domains). */
export function urlRollupsApply(filters: AnalyticsFilters, scope: CitationScope, strategy: ReadStrategy): boolean {
  return strategy === 'auto' && rollupServes(['url-stats', 'url-provider-days'], { ...filters, ...scope })
}

/** citation_count = responses in R citing the URL: the citation table has one row per (response, url). */
export async function urlPage(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  scope: CitationScope,
  page: PageRequest,
  strategy: ReadStrategy = 'auto',
): Promise<{ rows: UrlRow[]; totalItems: number }> {
  if (urlRollupsApply(filters, scope, strategy)) return rolledUpUrlPage(db, workspaceId, filters, scope, page)
  const where = citationConditions('citation', workspaceId, filters, scope)
  const { rows } = await sql<UrlRow>`
    select url, domain, count(*) as citation_count, min(created_at) as first_cited, max(created_at) as last_cited,
      count(*) over () as total_items
    from citation
    where ${where}
    group by url, domain
    order by citation_count desc, url
    limit ${page.perPage} offset ${pageOffset(page)}
  `.execute(db)
  if (rows.length > 0) return { rows, totalItems: rows[0].total_items }
  if (pageOffset(page) === 0) return { rows, totalItems: 0 }
  // Past the last page no row carries the window count.
  const total = await sql<{ total: number }>`select count(distinct url) as total from citation where ${where}`.execute(db)
  return { rows, totalItems: total.rows[0]?.total ?? 0 }
}

// Whole months come from monthly_url_stats, the loose days at either end from
// daily_url_stats: a year reads twelve months of URLs instead of 365 days of them. Rows
// are grouped by URL number; the text is joined on for ordering and output.
async function rolledUpUrlPage(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, page: PageRequest): Promise<{ rows: UrlRow[]; totalItems: number }> {
  const urlCondition =
    scope.domains === undefined
      ? sql<SqlBool>`true`
      : sql<SqlBool>`s.url_id in (select id from workspace_url where workspace_id = ${workspaceId} and domain = any(${scope.domains}::text[]))`
  const urlRows = calendarRollupRows(
    'daily_url_stats',
    ['url_id', 'citations'],
    filters.range,
    workspaceId,
    (dateColumn, days) => sql<SqlBool>`${dayConditions('s', workspaceId, { range: days }, dateColumn)} and ${urlCondition}`,
  )
  // Parallel workers cost more than they save on this many short rows (a year on 2 cores:
  // 100 ms with them, 60 without); local to the request's transaction.
  if (db.isTransaction) await sql`select set_config('max_parallel_workers_per_gather', '0', true)`.execute(db)
  // Ranking needs the counts only; first and last citation are read for the page's URLs.
  const { rows } = await sql<UrlRow>`
    with totals as (
      select url_id, sum(citations) as citation_count
      from ${urlRows} u
      group by url_id
    ),
    page as (
      select w.id, w.url, w.domain, t.citation_count, count(*) over () as total_items
      from totals t
      join workspace_url w on w.workspace_id = ${workspaceId} and w.id = t.url_id
      order by t.citation_count desc, w.url
      limit ${page.perPage} offset ${pageOffset(page)}
    )
    select p.url, p.domain, p.citation_count, p.total_items, s.first_cited, s.last_cited
    from page p
    cross join lateral (
      select min(d.first_cited) as first_cited, max(d.last_cited) as last_cited from daily_url_stats d
      where d.workspace_id = ${workspaceId} and d.url_id = p.id and d.day >= ${filters.range.start}::date and d.day <= ${filters.range.end}::date
    ) s
    order by p.citation_count desc, p.url
  `.execute(db)
  if (rows.length > 0) return { rows, totalItems: rows[0].total_items }
  if (pageOffset(page) === 0) return { rows, totalItems: 0 }
  const total = await sql<{ total: number }>`select count(distinct url_id) as total from ${urlRows} u`.execute(db)
  return { rows, totalItems: total.rows[0]?.total ?? 0 }
}

/** Title = the last non-empty title seen in R (latest response first), else "". */
export async function urlAttributes(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  scope: CitationScope,
  rows: readonly UrlRow[],
  strategy: ReadStrategy = 'auto',
): Promise<Map<string, UrlAttributes>> {
  if (rows.length === 0) return new Map()
  if (urlRollupsApply(filters, scope, strategy)) return rolledUpUrlAttributes(db, workspaceId, filters, rows)
  // The page's domains let the planner use the (workspace_id, domain, created_at) index.
  const pageScope = { ...scope, domains: [...new Set(rows.map((row) => row.domain))], urls: rows.map((row) => row.url) }
  const { rows: attributes } = await sql<UrlAttributes>`
    select url,
      coalesce((array_agg(title order by created_at desc, response_id desc) filter (where title <> ''))[1], '') as title,
      array_agg(distinct provider order by provider) as providers
    from citation
    where ${citationConditions('citation', workspaceId, filters, pageScope)}
    group by url
  `.execute(db)
  return new Map(attributes.map((row) => [row.url, row]))
}

// Each page URL: its latest titled citation in the range is one backward probe of
// (workspace_id, url, created_at); its providers are the rows whose days overlap the range.
async function rolledUpUrlAttributes(db: DB, workspaceId: string, filters: AnalyticsFilters, rows: readonly UrlRow[]): Promise<Map<string, UrlAttributes>> {
  const { rows: attributes } = await sql<UrlAttributes>`
    select u.url,
      coalesce((select c.title from citation c
                where c.workspace_id = ${workspaceId} and c.url = u.url and c.created_at >= ${filters.from} and c.created_at < ${filters.to} and c.title <> ''
                order by c.created_at desc, c.response_id desc limit 1), '') as title,
      coalesce((select array_agg(p.provider order by p.provider) from url_provider_days p
                where p.workspace_id = ${workspaceId} and p.url_id = w.id and p.days && ${rangeOfDays(filters)}), '{}') as providers
    from unnest(${rows.map((row) => row.url)}::text[]) as u(url)
    join workspace_url w on w.workspace_id = ${workspaceId} and w.url = u.url
  `.execute(db)
  return new Map(attributes.map((row) => [row.url, row]))
}

/** Daily citing responses per URL of the page. */
export async function urlDailyCounts(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, rows: readonly UrlRow[], strategy: ReadStrategy = 'auto') {
  if (rows.length === 0) return []
  if (urlRollupsApply(filters, scope, strategy)) {
    const { rows: daily } = await sql<{ key: string; day: string; count: number }>`
      select w.url as key, to_char(s.day, 'YYYY-MM-DD') as day, s.citations as count
      from workspace_url w
      join daily_url_stats s on s.workspace_id = w.workspace_id and s.url_id = w.id
      where w.workspace_id = ${workspaceId} and w.url = any(${rows.map((row) => row.url)}::text[])
        and s.day >= ${filters.range.start}::date and s.day <= ${filters.range.end}::date
    `.execute(db)
    return daily
  }
  const pageScope = { ...scope, domains: [...new Set(rows.map((row) => row.domain))], urls: rows.map((row) => row.url) }
  const { rows: daily } = await sql<{ key: string; day: string; count: number }>`
    select url as key, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as count
    from citation
    where ${citationConditions('citation', workspaceId, filters, pageScope)}
    group by 1, 2
  `.execute(db)
  return daily
}
