// Every command prints either friendly text or, with --json, one JSON document on stdout.
// Progress, hints and errors go to stderr so --json output stays parseable.
import { CommanderError } from 'commander'
import { ConfigError } from '../config.js'
import { AppError } from '../core/errors.js'

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

/** Exit codes: 0 ok, 1 failure while running, 2 bad arguments (also a value the service refuses, like a bad domain). */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || error instanceof ConfigError) return 2
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
  if (error instanceof AppError && error.statusCode < 500) return 2
  return 1
}

/**
 * Reports a failed command on stderr and returns its exit code. With --json the report is
 * the API's error envelope, `{"success": false, "error": {"code", "message"}}`, so scripts
 * read one format; stdout stays empty, as it carries only results.
 */
export function reportFailure(error: unknown, json: boolean): number {
  const exitCode = exitCodeFor(error)
  if (exitCode === 0) return 0
  const commander = error instanceof CommanderError
  // Commander has already printed its own message unless --json silenced it.
  if (commander && !json) return exitCode
  const message = (error instanceof Error ? error.message : String(error)).replace(/^error: /, '')
  if (!json) {
    process.stderr.write(`beacon: ${message}\n`)
    return exitCode
  }
  const code = error instanceof AppError ? error.code : exitCode === 2 ? 'invalid_argument' : 'command_failed'
  const param = error instanceof AppError && error.param ? { param: error.param } : {}
  process.stderr.write(`${JSON.stringify({ success: false, error: { code, message, ...param } })}\n`)
  return exitCode
}

export function table(rows: Record<string, unknown>[], columns: string[]): string[] {
  if (rows.length === 0) return ['(none)']
  const cell = (value: unknown) =>
    value instanceof Date ? value.toISOString() : value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value)
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)))
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd()
  return [line(columns), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))]
}
