// The file format of every export (DESIGN §8): RFC 4180 CSV with CRLF, or TSV with a UTF-8
// BOM for spreadsheets; a header row, optionally a type-hint row. csv-stringify does the
// quoting; this file decides what each cell says before it is quoted.
import { stringify, type Options } from 'csv-stringify/sync'
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
  // A cell holding the delimiter, a quote, CR or LF is quoted and its quotes doubled: RFC
  // 4180 for CSV, and tabs/newlines inside TSV cells stay in their cell. With an explicit
  // record_delimiter csv-stringify only quotes a lone CR or LF when quote_record_delimiter
  // says so.
  const stringifyOptions: Options = {
    delimiter: format === 'tsv' ? '\t' : ',',
    record_delimiter: '\r\n',
    quote_record_delimiter: true,
    quote: '"',
    escape: '"',
    eof: true,
    header: false,
  }
  const encode = (records: string[][]) => stringify(records, stringifyOptions)
  const cells = (row: ExportRow) => columns.map((column) => formatCell(column, column.value ? column.value(row) : row[column.name]))
  return {
    format,
    contentType: format === 'tsv' ? 'text/tab-separated-values; charset=utf-8' : 'text/csv; charset=utf-8',
    extension: format,
    preamble() {
      const head = [columns.map((c) => c.name)]
      if (typeHints) head.push(columns.map((c) => c.type))
      // Excel only reads a TSV as UTF-8 when it starts with a BOM.
      return (format === 'tsv' ? '\uFEFF' : '') + encode(head)
    },
    records(rows) {
      return rows.length === 0 ? '' : encode(rows.map(cells))
    },
  }
}
