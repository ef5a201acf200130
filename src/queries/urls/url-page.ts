// Shared by /urls and /urls-detailed: the ranked page of cited URLs over R and what only
// the page's URLs need (title, providers, and for the detailed list their days), read for
// those URLs only. On the rollups that is one statement.
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { calendarRollupRows, calendarTables, dayConditions, rangeOfDays, type ReadStrategy } from '../rollup-conditions.js'
import { rollupServes } from '../../rollups/index.js'
import { citationConditions, type CitationScope } from '../sources/citation-scope.js'
import { chartsFromSeries, zeroFilledCharts, type DailyCount, type KeyedDayCount } from '../sources/daily-chart.js'

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

export interface CitedUrlPage {
  rows: (UrlRow & Omit<UrlAttributes, 'url'>)[]
  totalItems: number
  /** each page URL's citing responses on every day of the range, when asked for (else empty) */
  charts: Map<string, DailyCount[]>
}

export async function citedUrlPage(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  scope: CitationScope,
  page: PageRequest,
  options: { days: boolean; strategy?: ReadStrategy },
): Promise<CitedUrlPage> {
  const strategy = options.strategy ?? 'auto'
  if (urlRollupsApply(filters, scope, strategy)) return rolledUpUrlPage(db, workspaceId, filters, scope, page, options.days)
  const { rows, totalItems } = await factsUrlPage(db, workspaceId, filters, scope, page)
  const [attributes, daily] = await Promise.all([
    urlAttributes(db, workspaceId, filters, scope, rows),
    options.days ? urlDailyCounts(db, workspaceId, filters, scope, rows) : undefined,
  ])
  const withAttributes = rows.map((row) => ({ ...row, title: attributes.get(row.url)?.title ?? '', providers: attributes.get(row.url)?.providers ?? [] }))
  const charts = daily
    ? zeroFilledCharts(
        filters.range,
        rows.map((row) => row.url),
        daily,
      )
    : new Map<string, DailyCount[]>()
  return { rows: withAttributes, totalItems, charts }
}

/** The URL rollups answer when they serve every active filter (a date range, a source's domains). */
export function urlRollupsApply(filters: AnalyticsFilters, scope: CitationScope, strategy: ReadStrategy): boolean {
  return strategy === 'auto' && rollupServes(['url-stats', 'url-provider-days'], { ...filters, ...scope })
}

/** citation_count = responses in R citing the URL: the citation table has one row per (response, url). */
async function factsUrlPage(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, page: PageRequest): Promise<{ rows: UrlRow[]; totalItems: number }> {
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
// are grouped by URL number; the text is joined on for ordering and output. The page's
// URLs then read their days once: first and last citation, and (detailed) the chart as
// two arrays, day offsets from the range start and counts, rather than a formatted date
// per day; then the latest title and the citing providers.
async function rolledUpUrlPage(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, page: PageRequest, days: boolean): Promise<CitedUrlPage> {
  const urlCondition =
    scope.domains === undefined
      ? sql<SqlBool>`true`
      : sql<SqlBool>`s.url_id in (select id from workspace_url where workspace_id = ${workspaceId} and domain = any(${scope.domains}::text[]))`
  const urlRows = calendarRollupRows(
    calendarTables('url-stats'),
    ['url_id', 'citations'],
    filters.range,
    workspaceId,
    (dateColumn, days) => sql<SqlBool>`${dayConditions('s', workspaceId, { range: days }, dateColumn)} and ${urlCondition}`,
  )
  // Parallel workers cost more than they save on this many short rows (a year on 2 cores:
  // 100 ms with them, 60 without); local to the request's transaction.
  if (db.isTransaction) await sql`select set_config('max_parallel_workers_per_gather', '0', true)`.execute(db)
  const chart = days
    ? sql`array_agg(d.day - ${filters.range.start}::date) as day_offsets, array_agg(d.citations) as day_counts`
    : sql`null::int[] as day_offsets, null::int[] as day_counts`
  const { rows } = await sql<UrlRow & Omit<UrlAttributes, 'url'> & { day_offsets: number[] | null; day_counts: number[] | null }>`
    with totals as (
      select url_id, sum(citations) as citation_count
      from ${urlRows} u
      group by url_id
    ),
    -- Only the URLs that can reach the page (its count ties included) are joined to their
    -- text for the tie order: a year has about 13,000 URLs and the page 20.
    top as (
      select url_id, citation_count from totals
      order by citation_count desc
      fetch first (${pageOffset(page) + page.perPage}) rows with ties
    ),
    page as (
      select w.id, w.url, w.domain, t.citation_count, (select count(*) from totals) as total_items
      from top t
      join workspace_url w on w.workspace_id = ${workspaceId} and w.id = t.url_id
      order by t.citation_count desc, w.url
      limit ${page.perPage} offset ${pageOffset(page)}
    )
    select p.url, p.domain, p.citation_count, p.total_items, s.first_cited, s.last_cited, s.day_offsets, s.day_counts,
      coalesce((select c.title from citation c
                where c.workspace_id = ${workspaceId} and c.url = p.url and c.created_at >= ${filters.from} and c.created_at < ${filters.to} and c.title <> ''
                order by c.created_at desc, c.response_id desc limit 1), '') as title,
      coalesce((select array_agg(pd.provider order by pd.provider) from url_provider_days pd
                where pd.workspace_id = ${workspaceId} and pd.url_id = p.id and pd.days && ${rangeOfDays(filters)}), '{}') as providers
    from page p
    cross join lateral (
      select min(d.first_cited) as first_cited, max(d.last_cited) as last_cited, ${chart} from daily_url_stats d
      where d.workspace_id = ${workspaceId} and d.url_id = p.id and d.day >= ${filters.range.start}::date and d.day <= ${filters.range.end}::date
    ) s
    order by p.citation_count desc, p.url
  `.execute(db)
  const charts = days
    ? chartsFromSeries(
        filters.range,
        rows.map((row) => row.url),
        new Map(rows.map((row) => [row.url, { offsets: row.day_offsets, counts: row.day_counts }])),
      )
    : new Map<string, DailyCount[]>()
  const pageRows = rows.map(({ day_offsets: _offsets, day_counts: _counts, ...row }) => row)
  if (rows.length > 0) return { rows: pageRows, totalItems: rows[0].total_items, charts }
  if (pageOffset(page) === 0) return { rows: pageRows, totalItems: 0, charts }
  const total = await sql<{ total: number }>`select count(distinct url_id) as total from ${urlRows} u`.execute(db)
  return { rows: pageRows, totalItems: total.rows[0]?.total ?? 0, charts }
}

/** Title = the last non-empty title seen in R (latest response first), else "". */
async function urlAttributes(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, rows: readonly UrlRow[]): Promise<Map<string, UrlAttributes>> {
  if (rows.length === 0) return new Map()
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

/** Daily citing responses per URL of the page. */
async function urlDailyCounts(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, rows: readonly UrlRow[]): Promise<KeyedDayCount[]> {
  if (rows.length === 0) return []
  const pageScope = { ...scope, domains: [...new Set(rows.map((row) => row.domain))], urls: rows.map((row) => row.url) }
  const { rows: daily } = await sql<{ key: string; day: string; count: number }>`
    select url as key, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as count
    from citation
    where ${citationConditions('citation', workspaceId, filters, pageScope)}
    group by 1, 2
  `.execute(db)
  return daily
}
