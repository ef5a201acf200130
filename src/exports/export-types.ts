// What every export type declares (docs/exports.md): its columns with their types, whether it
// takes the format options and has_content, how it refreshes, and how to read its rows.
import type { CompiledQuery } from 'kysely'
import type { DB } from '../db/database.js'
import type { AnalyticsFilters } from '../queries/analytics-filters.js'

export const EXPORT_TYPES = ['chat-responses', 'sources-citations', 'dashboard-graph', 'prompts-mentions'] as const
export type ExportType = (typeof EXPORT_TYPES)[number]

/** The type names of the type-hint row and of the manifest (spec 4.2, docs/exports.md). */
export type ColumnType = 'uuid' | 'string' | 'json' | 'float' | 'integer' | 'date' | 'datetime'

export interface ExportColumn {
  name: string
  type: ColumnType
  nullable: boolean
  description: string
  /** floats: which docs/metrics.md rounding applies (scores 2 decimals, sentiment 3, positions 2) */
  rounding?: 'score' | 'sentiment' | 'position'
  /** the cell value when it is not simply row[name] */
  value?: (row: ExportRow) => unknown
}

/** The common filters of spec 4.2 resolved: period, providers, tags; has_content on chat-responses. */
export interface ExportFilters extends AnalyticsFilters {
  hasContent?: boolean
}

export type ExportRow = Record<string, unknown>

/**
 * The rows of an export in file order, in the two forms the backends need: one query for a
 * server-side cursor, and keyset pages (rows after a given row, at most `limit`) for PGlite.
 * Rows may carry extra fields (keyset helpers); only the declared columns are written.
 */
export interface RowSource {
  all(): CompiledQuery<ExportRow>
  page(after: ExportRow | null, limit: number): CompiledQuery<ExportRow>
}

export interface ExportMeasure {
  /** exact number of data rows */
  rows: number
  /** estimated bytes of the data rows as CSV (header excluded) */
  bytes: number
  /** latest ingested_at of the responses the export is computed from; null when none */
  lastUpdated: Date | null
}

export interface ExportDefinition {
  type: ExportType
  title: string
  /** one paragraph for the Markdown schema document */
  summary: string
  columns: readonly ExportColumn[]
  /** excel_compatible / include_type_hints accepted (all but sources-citations) */
  formatOptions: boolean
  /** has_content accepted (chat-responses) */
  hasContentFilter: boolean
  /**
   * Rows per keyset page (PGlite; a server writes the file itself). Rows in flight are the export's memory, and rows
   * that wait long enough for the next batch get promoted to V8's old space as garbage.
   */
  batchRows: number
  /** manifest refresh hints */
  incremental: { supported: boolean; key: string }
  source(db: DB, workspaceId: string, filters: ExportFilters): RowSource
  measure(db: DB, workspaceId: string, filters: ExportFilters): Promise<ExportMeasure>
}
