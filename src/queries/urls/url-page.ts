// Shared by /urls and /urls-detailed: the ranked page of cited URLs over R and the
// attributes that only the page's URLs need (title, providers), read for those URLs only.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import { pageOffset, type PageRequest } from '../../http/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
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

/** citation_count = responses in R citing the URL: the citation table has one row per (response, url). */
export async function urlPage(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, page: PageRequest): Promise<{ rows: UrlRow[]; totalItems: number }> {
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

/** Title = the last non-empty title seen in R (latest response first), else "". */
export async function urlAttributes(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, rows: readonly UrlRow[]): Promise<Map<string, UrlAttributes>> {
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
export async function urlDailyCounts(db: DB, workspaceId: string, filters: AnalyticsFilters, scope: CitationScope, rows: readonly UrlRow[]) {
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
