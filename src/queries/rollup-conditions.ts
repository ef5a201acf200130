// WHERE conditions for the daily rollups (migration 0003) and the distinct-domain count.
// The rollups carry every analytics filter column (day, provider, model, the prompt's
// tag set), so these conditions give exactly what the raw facts would.
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { DB } from '../db/database.js'
import type { AnalyticsFilters } from './analytics-filters.js'

/** Conditions on a rollup table (daily_response_stats or daily_mention_stats) by alias. */
export function rollupConditions(alias: string, workspaceId: string, filters: Pick<AnalyticsFilters, 'range' | 'providers' | 'modelIds' | 'tags'>): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`)
  const parts: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`,
    sql<SqlBool>`${col('day')} >= ${filters.range.start}::date`,
    sql<SqlBool>`${col('day')} <= ${filters.range.end}::date`,
  ]
  if (filters.providers.length) parts.push(sql<SqlBool>`${col('provider')} = any(${filters.providers}::text[])`)
  if (filters.modelIds.length) parts.push(sql<SqlBool>`${col('model')} = any(${filters.modelIds}::text[])`)
  // A tag set matches when it shares any tag with the filter (OR within the filter).
  if (filters.tags.length) parts.push(sql<SqlBool>`${col('tags')} && ${filters.tags}::text[]`)
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}

/**
 * The rollup pair for these filters: tag-free totals unless a tags filter needs the
 * tag-set grain. Both are exact; the totals are far smaller.
 */
export function rollupTables(filters: Pick<AnalyticsFilters, 'tags'>): { responses: 'daily_response_totals' | 'daily_response_stats'; brands: 'daily_brand_totals' | 'daily_mention_stats' } {
  return filters.tags.length
    ? { responses: 'daily_response_stats', brands: 'daily_mention_stats' }
    : { responses: 'daily_response_totals', brands: 'daily_brand_totals' }
}

/**
 * Distinct cited domains among responses matching the filters. Each domain the workspace
 * was ever cited for is probed once through citation (workspace_id, domain, created_at):
 * cost follows the number of domains, not the number of citations in range.
 */
export async function countDistinctDomains(db: DB, workspaceId: string, filters: AnalyticsFilters): Promise<number> {
  const parts: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`c.workspace_id = d.workspace_id`,
    sql<SqlBool>`c.domain = d.domain`,
    sql<SqlBool>`c.created_at >= ${filters.from}`,
    sql<SqlBool>`c.created_at < ${filters.to}`,
  ]
  if (filters.providers.length) parts.push(sql<SqlBool>`c.provider = any(${filters.providers}::text[])`)
  if (filters.modelIds.length) parts.push(sql<SqlBool>`c.model = any(${filters.modelIds}::text[])`)
  if (filters.tags.length) {
    const prompts = await db.selectFrom('prompt').select('id').where('workspace_id', '=', workspaceId).where(sql<SqlBool>`tags && ${filters.tags}::text[]`).execute()
    if (prompts.length === 0) return 0
    parts.push(sql<SqlBool>`c.prompt_id = any(${prompts.map((p) => p.id)}::uuid[])`)
  }
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from workspace_domain d
    where d.workspace_id = ${workspaceId}
      and exists (select 1 from citation c where ${sql.join(parts, sql` and `)})`.execute(db)
  return Number(rows[0]?.n ?? 0)
}
