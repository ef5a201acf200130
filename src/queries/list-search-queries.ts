// GET /api/v1/search-queries (docs/collection.md, query fan-out): the web searches engines ran
// for the workspace's prompts, ranked by how many answers ran each, over the answers in the
// period that match the analytics filters (docs/api-conventions.md). Queries are grouped by
// their key (case, spacing and NFKC form folded; src/ingest/search-queries.ts) and shown in
// the spelling engines used most.
//
// One statement: the ranked page (with the number of groups, for the pagination), then for
// the page's keys only, the providers that ran each and the usual spelling. The covering
// index search_query_period_idx serves the ranking (migration 0020).
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../db/database.js'
import { pageOffset, type PageRequest } from '../core/pagination.js'
import { responseFilterConditions, type AnalyticsFilters } from './analytics-filters.js'
import { ensurePromptTemplate } from './sources/ensure-prompt-template.js'

export interface SearchQueryProvider {
  provider: string
  /** answers of this provider that ran the query */
  count: number
}

export interface SearchQueryRecord {
  query: string
  /** answers in the period that ran the query (an answer running it twice counts once) */
  count: number
  /** distinct prompts whose answers ran it */
  prompts: number
  /** by count, then name */
  providers: SearchQueryProvider[]
  first_seen: Date
  last_seen: Date
}

export interface SearchQueriesPage {
  searchQueries: SearchQueryRecord[]
  totalItems: number
}

interface Row {
  query_key: string
  query: string
  answers: number
  prompts: number
  first_seen: Date | string
  last_seen: Date | string
  total_items: number
  providers: { provider: string; count: number }[] | string
}

export async function listSearchQueries(db: DB, workspaceId: string, filters: AnalyticsFilters, options: PageRequest & { promptId?: string }): Promise<SearchQueriesPage> {
  await ensurePromptTemplate(db, workspaceId, options.promptId)
  const matching = (alias: string) => {
    const conditions = responseFilterConditions(alias, workspaceId, filters)
    return options.promptId === undefined ? conditions : sql<SqlBool>`${conditions} and ${sql.ref(`${alias}.prompt_id`)} = ${options.promptId}`
  }
  const { rows } = await sql<Row>`
    with ranked as (
      select q.query_key, count(*)::int as answers, count(distinct q.prompt_id)::int as prompts,
        min(q.created_at) as first_seen, max(q.created_at) as last_seen, (count(*) over ())::int as total_items
      from search_query q
      where ${matching('q')}
      group by q.query_key
      order by answers desc, q.query_key
      limit ${options.perPage} offset ${pageOffset(options)}
    ),
    page_rows as (
      select q.query_key, q.query, q.provider
      from search_query q
      join ranked r on r.query_key = q.query_key
      where ${matching('q')}
    ),
    by_provider as (
      select query_key, provider, count(*)::int as answers from page_rows group by query_key, provider
    ),
    spelling as (
      select query_key, mode() within group (order by query) as query from page_rows group by query_key
    )
    select r.query_key, s.query, r.answers, r.prompts, r.first_seen, r.last_seen, r.total_items,
      (select json_agg(json_build_object('provider', p.provider, 'count', p.answers) order by p.answers desc, p.provider)
         from by_provider p where p.query_key = r.query_key) as providers
    from ranked r
    join spelling s on s.query_key = r.query_key
    order by r.answers desc, r.query_key`.execute(db)
  if (rows.length === 0) return { searchQueries: [], totalItems: options.page > 1 ? await countGroups(db, matching('q')) : 0 }
  return {
    searchQueries: rows.map((row) => ({
      query: row.query,
      count: row.answers,
      prompts: row.prompts,
      providers: typeof row.providers === 'string' ? (JSON.parse(row.providers) as SearchQueryProvider[]) : row.providers,
      first_seen: new Date(row.first_seen),
      last_seen: new Date(row.last_seen),
    })),
    totalItems: rows[0].total_items,
  }
}

/** A page past the end still reports how many queries there are. */
async function countGroups(db: DB, conditions: ReturnType<typeof responseFilterConditions>): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(distinct q.query_key)::int as n from search_query q where ${conditions}`.execute(db)
  return rows[0]?.n ?? 0
}
