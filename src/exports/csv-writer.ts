// The file format of every export (docs/exports.md): RFC 4180 CSV with CRLF, or TSV with a UTF-8
// BOM for spreadsheets; a header row, optionally a type-hint row. This file decides what
// each cell says and quotes it, with the rules csv-stringify applies to string cells
// (test/exports/csv-writer.test.ts holds the two to the same bytes). On the chat-responses
// export csv-stringify took more CPU than reading the rows from the database (per cell it
// builds option objects and tuples and scans the text once per separator); this takes
// under half of that.
import { roundPosition, roundScore, roundSentiment } from '../queries/rounding.js'
import type { ExportColumn, ExportRow } from './export-types.js'

export type ExportFormat = 'csv' | 'tsv'

const ROUND = { score: roundScore, sentiment: roundSentiment, position: roundPosition } as const

// A spreadsheet would run a cell starting with one of these as a formula (OWASP CSV
// injection). Only text cells: typed numbers, dates and ids are data and stay as they are.
const FORMULA_START = /^[=+\-@\t\r]/

export const neutralizeFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text)

/** The text of one cell; null and undefined are empty cells. */
export function formatCell(column: ExportColumn, value: unknown): string {
  if (value === null || value === undefined) return ''
  switch (column.type) {
    case 'string':
      return neutralizeFormula(String(value))
    case 'json':
      return JSON.stringify(value)
    case 'float':
      return String(ROUND[column.rounding ?? 'score'](Number(value)))
    case 'datetime':
      return value instanceof Date ? value.toISOString() : String(value)
    default:
      return String(value)
  }
}

export interface ExportWriter {
  format: ExportFormat
  contentType: string
  extension: ExportFormat
  /** BOM (TSV), header row and, when asked, the type-hint row */
  preamble(): string
  /** the CSV/TSV text of some data rows, each ending in CRLF */
  records(rows: readonly ExportRow[]): string
}

export function createExportWriter(columns: readonly ExportColumn[], options: { format: ExportFormat; typeHints: boolean }): ExportWriter {
  const { format, typeHints } = options
  const delimiter = format === 'tsv' ? '\t' : ','
  // A cell holding the delimiter, a quote, CR or LF is quoted and its quotes doubled: RFC
  // 4180 for CSV, and tabs/newlines inside TSV cells stay in their cell. Empty cells are
  // never quoted.
  const needsQuotes = format === 'tsv' ? /[\t"\r\n]/ : /[,"\r\n]/
  const quote = (text: string) => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text)
  const record = (cells: readonly string[]) => {
    let line = ''
    for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : delimiter) + quote(cells[i])
    return `${line}\r\n`
  }
  const last = columns.length - 1
  return {
    format,
    contentType: format === 'tsv' ? 'text/tab-separated-values; charset=utf-8' : 'text/csv; charset=utf-8',
    extension: format,
    preamble() {
      let head = record(columns.map((c) => c.name))
      if (typeHints) head += record(columns.map((c) => c.type))
      // Excel only reads a TSV as UTF-8 when it starts with a BOM.
      return (format === 'tsv' ? '\uFEFF' : '') + head
    },
    records(rows) {
      // One string built by appending: V8 keeps it as a rope and flattens it once when it is
      // written, with no array of cells or of records per row.
      let text = ''
      for (const row of rows) {
        for (let i = 0; i <= last; i++) {
          const column = columns[i]
          text += quote(formatCell(column, column.value ? column.value(row) : row[column.name]))
          text += i === last ? '\r\n' : delimiter
        }
      }
      return text
    },
  }
}
