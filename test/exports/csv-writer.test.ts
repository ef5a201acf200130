import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { createExportWriter, formatCell, type ExportFormat } from '../../src/exports/csv-writer.js'
import type { ExportColumn, ExportRow } from '../../src/exports/export-types.js'
import { roundPosition, roundScore, roundSentiment } from '../../src/queries/rounding.js'

const columns: ExportColumn[] = [
  { name: 'text', type: 'string', nullable: true, description: '' },
  { name: 'score', type: 'float', nullable: false, rounding: 'score', description: '' },
  { name: 'sentiment', type: 'float', nullable: true, rounding: 'sentiment', description: '' },
  { name: 'count', type: 'integer', nullable: false, description: '' },
  { name: 'other', type: 'string', nullable: false, description: '' },
]

function writeFile(format: ExportFormat, rows: ExportRow[], typeHints = false): Buffer {
  const writer = createExportWriter(columns, { format, typeHints })
  // Two writes, as the exporter streams in chunks.
  const middle = Math.floor(rows.length / 2)
  return Buffer.from(writer.preamble() + writer.records(rows.slice(0, middle)) + writer.records(rows.slice(middle)), 'utf8')
}

const parseFile = (format: ExportFormat, file: Buffer): string[][] =>
  // Every line break ends a record unless quoted, as a strict reader (or Excel) sees it.
  parse(file, { bom: true, delimiter: format === 'tsv' ? '\t' : ',', record_delimiter: ['\r\n', '\n', '\r'], relax_quotes: false, skip_empty_lines: false })

// The documented exception to a faithful round trip: a text cell a spreadsheet would run
// as a formula comes back with a leading apostrophe.
const expectedText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value)

// Characters that stress quoting and neutralization, mixed with arbitrary Unicode.
const nasty = fc.string({ unit: fc.constantFrom('"', ',', '\t', '\r', '\n', '=', '+', '-', '@', "'", ' ', 'a', 'é', '😀', '\u2028', '\uFEFF'), maxLength: 12 })
const anyText = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
const anyNumber = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 })
const row = fc.record({ text: anyText, score: anyNumber, sentiment: fc.option(fc.double({ noNaN: true, min: -1, max: 1 })), count: fc.integer(), other: anyText })

describe.each(['csv', 'tsv'] as const)('export writer (%s)', (format) => {
  it('round-trips any text through csv-parse, numbers byte for byte', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
        const records = parseFile(format, writeFile(format, rows))
        expect(records[0]).toEqual(['text', 'score', 'sentiment', 'count', 'other'])
        expect(records).toHaveLength(rows.length + 1)
        rows.forEach((r, i) => {
          const [text, score, sentiment, count, other] = records[i + 1]
          expect(text).toBe(expectedText(r.text))
          expect(other).toBe(expectedText(r.other))
          // Numbers are written as their rounded value and never prefixed or quoted.
          expect(score).toBe(String(roundScore(r.score)))
          expect(Number(score)).toBe(roundScore(r.score))
          expect(sentiment).toBe(r.sentiment === null ? '' : String(roundSentiment(r.sentiment)))
          expect(count).toBe(String(r.count))
        })
      }),
      { numRuns: 300 },
    )
  })

  it('writes a header, an optional type-hint row and CRLF line ends', () => {
    const file = writeFile(format, [{ text: 'a', score: 1, sentiment: null, count: 2, other: 'b' }], true).toString('utf8')
    const sep = format === 'tsv' ? '\t' : ','
    const bom = format === 'tsv' ? '\uFEFF' : ''
    expect(file).toBe(`${bom}text${sep}score${sep}sentiment${sep}count${sep}other\r\nstring${sep}float${sep}float${sep}integer${sep}string\r\na${sep}1${sep}${sep}2${sep}b\r\n`)
  })

  it('quotes cells holding its delimiter, quotes or line breaks, and nothing else', () => {
    const writer = createExportWriter(columns, { format, typeHints: false })
    const sep = format === 'tsv' ? '\t' : ','
    const written = (text: string) => writer.records([{ text, score: 0, sentiment: 0, count: 0, other: '' }])
    const expectFirstCell = (text: string, cell: string) => expect(written(text)).toBe(`${cell}${sep}0${sep}0${sep}0${sep}\r\n`)
    expectFirstCell('plain text', 'plain text')
    expectFirstCell('say "hi"', '"say ""hi"""')
    expectFirstCell('two\nlines', '"two\nlines"')
    expectFirstCell('cr\ronly', '"cr\ronly"')
    expectFirstCell('a,b', format === 'csv' ? '"a,b"' : 'a,b')
    expectFirstCell('a\tb', format === 'tsv' ? '"a\tb"' : 'a\tb')
  })
})

// The writer's own quoting replaced csv-stringify for speed; files must not change by a
// byte. csv-stringify with the options the writer used is the reference.
describe.each(['csv', 'tsv'] as const)('export writer against csv-stringify (%s)', (format) => {
  const reference = (rows: ExportRow[], typeHints: boolean) => {
    const options = { delimiter: format === 'tsv' ? '\t' : ',', record_delimiter: '\r\n', quote_record_delimiter: true, quote: '"', escape: '"', eof: true, header: false }
    const head = [columns.map((c) => c.name)]
    if (typeHints) head.push(columns.map((c) => c.type))
    const cells = rows.map((r) => columns.map((c) => formatCell(c, r[c.name])))
    return (format === 'tsv' ? '\uFEFF' : '') + stringify(head, options) + (cells.length === 0 ? '' : stringify(cells, options))
  }

  it('writes the same bytes for any rows', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), fc.boolean(), (rows, typeHints) => {
        expect(writeFile(format, rows, typeHints).toString('utf8')).toBe(reference(rows, typeHints))
      }),
      { numRuns: 500 },
    )
  })

  it('writes the same bytes for each character that matters to quoting', () => {
    const texts = ['', '"', ',', '\t', '\r', '\n', '\r\n', '""', 'a"b', '=1', "'", ' ', '\uFEFF', '\u2028', '😀', 'a\r\nb,"c"\td']
    const rows = texts.flatMap((text) => texts.map((other) => ({ text, score: 0, sentiment: null, count: 1, other })))
    expect(writeFile(format, rows, true).toString('utf8')).toBe(reference(rows, true))
  })
})

describe('formatCell', () => {
  const col = (type: ExportColumn['type'], rounding?: ExportColumn['rounding']): ExportColumn => ({ name: 'c', type, nullable: true, description: '', rounding })

  it('neutralizes formulas in text cells only', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(formatCell(col('string'), `${start}1+1`)).toBe(`'${start}1+1`)
    expect(formatCell(col('string'), "'quoted")).toBe("'quoted")
    expect(formatCell(col('string'), 'a=1')).toBe('a=1')
    expect(formatCell(col('float', 'sentiment'), -0.5)).toBe('-0.5')
    expect(formatCell(col('integer'), -3)).toBe('-3')
    expect(formatCell(col('date'), '2026-05-01')).toBe('2026-05-01')
  })

  it('rounds floats as docs/metrics.md says and writes nulls as empty cells', () => {
    expect(formatCell(col('float', 'score'), 33.333333)).toBe('33.33')
    expect(formatCell(col('float', 'sentiment'), 0.12345)).toBe(String(roundSentiment(0.12345)))
    expect(formatCell(col('float', 'position'), 1.666)).toBe(String(roundPosition(1.666)))
    expect(formatCell(col('float', 'score'), 100)).toBe('100')
    expect(formatCell(col('float', 'sentiment'), -0.0001)).toBe('0')
    expect(formatCell(col('float', 'sentiment'), null)).toBe('')
    expect(formatCell(col('string'), undefined)).toBe('')
  })

  it('writes json cells as compact JSON', () => {
    expect(formatCell(col('json'), ['Acme', 'Glo"bex'])).toBe('["Acme","Glo\\"bex"]')
    expect(formatCell(col('json'), [])).toBe('[]')
  })
})
