// Every command prints either friendly text or, with --json, one JSON document on stdout.
// Progress and hints go to stderr so --json output stays parseable.
import { CommanderError } from 'commander'

export class UsageError extends Error {}

export interface Output {
  json: boolean
  /** the command's result: JSON with --json, else the text lines */
  result(value: unknown, text: string | string[]): void
  /** a hint or progress line on stderr */
  info(message: string): void
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, text) {
      if (json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
      else process.stdout.write(`${Array.isArray(text) ? text.join('\n') : text}\n`)
    },
    info(message) {
      process.stderr.write(`${message}\n`)
    },
  }
}

/** Exit codes: 0 ok, 1 failure while running, 2 bad arguments. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return 2
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
  return 1
}

export function table(rows: Record<string, unknown>[], columns: string[]): string[] {
  if (rows.length === 0) return ['(none)']
  const cell = (value: unknown) => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value))
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)))
  const line = (values: string[]) => values.map((value, i) => value.padEnd(widths[i])).join('  ').trimEnd()
  return [line(columns), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))]
}
