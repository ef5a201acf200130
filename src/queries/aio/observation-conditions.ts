// The WHERE shared by aio_observation and aio_appearance, which both carry
// (workspace_id, prompt_id, observed_at): the period (docs/architecture.md, inclusive days) and
// prompt tags, OR-ed.
import { sql, type SqlBool } from 'kysely'

export interface ObservationFilters {
  from: Date
  /** exclusive: the day after the last day, 00:00Z */
  to: Date
  tags?: string[]
  promptId?: string
}

export function observationConditions(table: 'aio_observation' | 'aio_appearance', workspaceId: string, filters: ObservationFilters) {
  const col = (name: string) => sql.ref(`${table}.${name}`)
  const conditions = [
    sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`,
    sql<SqlBool>`${col('observed_at')} >= ${filters.from}`,
    sql<SqlBool>`${col('observed_at')} < ${filters.to}`,
  ]
  if (filters.promptId) conditions.push(sql<SqlBool>`${col('prompt_id')} = ${filters.promptId}`)
  if (filters.tags?.length) {
    conditions.push(sql<SqlBool>`${col('prompt_id')} in (select p.id from prompt p where p.workspace_id = ${workspaceId} and p.tags && ${filters.tags}::text[])`)
  }
  return conditions
}
