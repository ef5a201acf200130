// The citations of R (docs/metrics.md): citation rows carry their response's filter columns, so
// "citations of responses in R" is a filter on the citation table alone, no join.
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely'
import type { Database } from '../../db/schema.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'

export interface CitationScope {
  /** only responses to this prompt template */
  promptId?: string
  /** only citations of these registrable domains */
  domains?: string[]
  /** only these normalized URLs */
  urls?: string[]
}

/** WHERE for the unaliased `citation` table; the same conditions fit `response` when no domain/url is given. */
export function citationConditions(table: 'citation' | 'response', workspaceId: string, filters: AnalyticsFilters, scope: CitationScope = {}): Expression<SqlBool> {
  const eb = expressionBuilder<Database, typeof table>()
  const col = (name: string) => sql.ref(`${table}.${name}`)
  const conditions: Expression<SqlBool>[] = [responseFilterConditions(table, workspaceId, filters)]
  if (scope.promptId !== undefined) conditions.push(sql<SqlBool>`${col('prompt_id')} = ${scope.promptId}`)
  if (scope.domains !== undefined) conditions.push(sql<SqlBool>`${col('domain')} = any(${scope.domains}::text[])`)
  if (scope.urls !== undefined) conditions.push(sql<SqlBool>`${col('url')} = any(${scope.urls}::text[])`)
  return eb.and(conditions)
}
