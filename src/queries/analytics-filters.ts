// The filters every analytics read shares (docs/api-conventions.md, docs/metrics.md): a period, providers
// (`models`), model ids and prompt tags. Values inside one filter are OR-ed, different
// filters AND-ed. Tables that carry the response's filter columns (response, mention,
// citation) are filtered the same way through applyResponseFilters.
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { DB } from '../db/database.js'
import { invalidParameter } from '../core/errors.js'
import { rangeBounds, resolveDateRange, type DateRange } from '../core/date-range.js'

export interface AnalyticsQuery {
  start_date?: string
  end_date?: string
  models?: string[]
  model_ids?: string[]
  tags?: string[]
}

export interface AnalyticsFilters {
  range: DateRange
  from: Date
  /** exclusive upper bound: the day after range.end, 00:00Z */
  to: Date
  providers: string[]
  modelIds: string[]
  tags: string[]
}

/**
 * Resolves defaults and checks what needs the database: every model id must be a model
 * of this workspace (a typo would otherwise read as "no data").
 */
export async function resolveAnalyticsFilters(db: DB, workspaceId: string, query: AnalyticsQuery, now: Date = new Date()): Promise<AnalyticsFilters> {
  const range = resolveDateRange({ start: query.start_date, end: query.end_date }, undefined, now)
  const modelIds = query.model_ids ?? []
  if (modelIds.length) {
    const known = new Set((await db.selectFrom('model').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', modelIds).execute()).map((r) => r.id))
    const unknown = modelIds.filter((id) => !known.has(id))
    if (unknown.length) throw invalidParameter('model_ids', `Unknown model id ${unknown.map((id) => `"${id}"`).join(', ')}; see /api/v1/filters for this workspace's models`)
  }
  const { from, to } = rangeBounds(range)
  return { range, from, to, providers: query.models ?? [], modelIds, tags: query.tags ?? [] }
}

/**
 * WHERE conditions for any table that carries the response's filter columns
 * (workspace_id, created_at, provider, model, prompt_id): response, mention, citation.
 * `table` is the table name or alias used in the query. A plain SQL expression, so it fits
 * any query builder state (joins, laterals, raw SQL) alike.
 */
export function responseFilterConditions(
  table: string,
  workspaceId: string,
  filters: Pick<AnalyticsFilters, 'from' | 'to' | 'providers' | 'modelIds' | 'tags'>,
): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${table}.${name}`)
  const conditions: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`,
    sql<SqlBool>`${col('created_at')} >= ${filters.from}`,
    sql<SqlBool>`${col('created_at')} < ${filters.to}`,
  ]
  if (filters.providers.length) conditions.push(sql<SqlBool>`${col('provider')} = any(${filters.providers}::text[])`)
  if (filters.modelIds.length) conditions.push(sql<SqlBool>`${col('model')} = any(${filters.modelIds}::text[])`)
  if (filters.tags.length) {
    conditions.push(sql<SqlBool>`${col('prompt_id')} in (select p.id from prompt p where p.workspace_id = ${workspaceId} and p.tags && ${filters.tags}::text[])`)
  }
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`
}
