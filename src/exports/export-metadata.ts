// The metadata of spec 4.2 for each export type: statistics, manifest and the Markdown
// column documentation. None of them counts against the export quota.
import type { DB } from '../db/database.js'
import type { DateRange } from '../core/date-range.js'
import type { ExportDefinition, ExportFilters } from './export-types.js'
import { createExportWriter } from './csv-writer.js'

export interface ExportStatistics {
  total_rows: number
  estimated_size_mb: number
  date_range: DateRange
  last_updated: Date | null
}

/** 1 MB = 10^6 bytes; 6 decimals keep byte resolution for small files. */
const bytesToMb = (bytes: number) => Math.round(bytes) / 1_000_000

export async function getExportStatistics(db: DB, workspaceId: string, definition: ExportDefinition, filters: ExportFilters): Promise<ExportStatistics> {
  const measured = await definition.measure(db, workspaceId, filters)
  // The estimate is for the default format: CSV with the header row and no type hints.
  const header = createExportWriter(definition.columns, { format: 'csv', typeHints: false }).preamble()
  return {
    total_rows: measured.rows,
    estimated_size_mb: bytesToMb(Buffer.byteLength(header) + measured.bytes),
    date_range: filters.range,
    last_updated: measured.lastUpdated,
  }
}

export async function getExportManifest(db: DB, workspaceId: string, definition: ExportDefinition, filters: ExportFilters) {
  const statistics = await getExportStatistics(db, workspaceId, definition, filters)
  return {
    manifest_version: '1.0',
    export_type: definition.type,
    statistics: { total_rows: statistics.total_rows, estimated_size_mb: statistics.estimated_size_mb },
    refresh_hints: {
      recommended_interval_hours: 24,
      supports_incremental: definition.incremental.supported,
      incremental_key: definition.incremental.key,
    },
    columns: definition.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
  }
}

// Markdown table cells: a pipe would end the cell, a newline the row.
const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')

export function renderExportSchema(definition: ExportDefinition, range: DateRange): string {
  const options = definition.formatOptions
    ? 'CSV by default (`text/csv`); `excel_compatible=true` gives TSV (`text/tab-separated-values`, UTF-8 BOM). `include_type_hints=true` adds a second row with the column types.'
    : 'CSV only (`text/csv`); no format options.'
  const lines = [
    `# ${definition.title} export (\`${definition.type}\`)`,
    '',
    cell(definition.summary),
    '',
    `Period: ${range.start} to ${range.end} (UTC, both days included). ${options}`,
    "The first row is the header. Text cells starting with `=`, `+`, `-`, `@`, a tab or a carriage return get a leading `'` so spreadsheets do not run them as formulas. Empty cells are nulls.",
    '',
    '| Column | Type | Nullable | Description |',
    '|---|---|---|---|',
    ...definition.columns.map((c) => `| ${cell(c.name)} | ${c.type} | ${c.nullable ? 'yes' : 'no'} | ${cell(c.description)} |`),
    '',
  ]
  return lines.join('\n')
}
