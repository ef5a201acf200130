// Statistics of the exports whose rows are cheap to build in SQL: count them and add up
// the CSV bytes of each, without sending a single row to Node.
import { sql, type Expression } from 'kysely'
import type { DB } from '../../db/database.js'
import type { ExportColumn, ExportFilters, ExportMeasure } from '../export-types.js'
import { csvRecordBytes } from '../sql-fragments.js'
import { responseFilterConditions } from '../../queries/analytics-filters.js'

export async function measureRows(db: DB, rows: Expression<unknown>, columns: readonly ExportColumn[]): Promise<{ rows: number; bytes: number }> {
  const { rows: result } = await sql<{ rows: number; bytes: number }>`
    select count(*) as rows, coalesce(sum(${csvRecordBytes(columns, 't')}), 0) as bytes
    from (${rows}) as t`.execute(db)
  return { rows: Number(result[0]?.rows ?? 0), bytes: Number(result[0]?.bytes ?? 0) }
}

/**
 * last_updated of statistics: when the newest of the responses the export is computed
 * from (the period and filters) was ingested; null when there are none.
 */
export async function latestIngestedAt(db: DB, workspaceId: string, filters: ExportFilters): Promise<Date | null> {
  const row = await db
    .selectFrom('response')
    .select((eb) => eb.fn.max('ingested_at').as('latest'))
    .where(responseFilterConditions('response', workspaceId, filters))
    .executeTakeFirst()
  return row?.latest ? new Date(row.latest) : null
}

export async function measureWith(db: DB, workspaceId: string, filters: ExportFilters, rows: Expression<unknown>, columns: readonly ExportColumn[]): Promise<ExportMeasure> {
  const [measured, lastUpdated] = await Promise.all([measureRows(db, rows, columns), latestIngestedAt(db, workspaceId, filters)])
  return { ...measured, lastUpdated }
}
