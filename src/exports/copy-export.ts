// Exports at COPY speed on a PostgreSQL server (docs/exports.md): the server writes the
// file itself with COPY (query) TO STDOUT, and Node passes the bytes on. The query is the
// definition's own rows query, wrapped in a select that gives each cell the text the CSV
// writer (csv-writer.ts) would give it: formula neutralization for text cells, the docs/metrics.md
// rounding of floats done as JavaScript does it, JSON arrays as JSON.stringify writes them,
// empty text as NULL (COPY quotes an empty string, the writer does not). COPY's CSV quoting
// is the writer's (a cell holding the delimiter, a quote, CR or LF is quoted, quotes
// doubled); only its record terminator differs (LF), so Node adds the CR of each record
// end as it reads the rows off the socket (copy-out-stream.ts). test/exports/copy-export.test.ts
// holds the result to the writer's bytes.
//
// Rows never become JavaScript objects: with a cursor, each row was a few objects and
// strings that lived until its batch was written, and after a load test the heap's old
// generation filled with them. Here Node holds a socket read (≤ 64 KB) at a time.
import type pg from 'pg'
import type { CompiledQuery } from 'kysely'
import { ROUNDING_DECIMALS } from './sql-fragments.js'
import type { ExportColumn } from './export-types.js'
import type { ExportFormat } from './csv-writer.js'
import { CopyOutStream } from './copy-out-stream.js'

// JavaScript's Number.EPSILON (2^-52), which the rounding in queries/rounding.ts adds.
const EPSILON = '2.220446049250313e-16::float8'

/**
 * A float rounded to `decimals` as queries/rounding.ts does it, in float8 arithmetic (IEEE
 * doubles, like JavaScript): Math.round((v + EPSILON) * 10^d) / 10^d, ties towards +∞, no
 * negative zero. float8's text is the shortest that reads back, as String(number) is.
 */
export function roundedFloatCell(value: string, decimals: number): string {
  const factor = `${10 ** decimals}::float8`
  const x = `((${value})::float8 + ${EPSILON}) * ${factor}`
  const rounded = `(floor(${x}) + case when ${x} - floor(${x}) >= 0.5 then 1 else 0 end)`
  return `(case when ${rounded} = 0 then 0::float8 else ${rounded} / ${factor} end)::text`
}

/** The SQL text of one cell of the writer's file, from column `ref` of the rows query. */
export function copyCell(column: ExportColumn, ref: string): string {
  switch (column.type) {
    case 'string':
      // csv-writer.ts's FORMULA_START, tested on the first character: a regular expression
      // converts the whole text to wide characters first (a year's answers: 0.1 s of CPU).
      // COPY writes NULL (not "") for an empty cell.
      return `(case when ${ref}::text = '' then null when substr(${ref}::text, 1, 1) in ('-', '=', '+', '@', E'\\t', E'\\r') then '''' || ${ref}::text else ${ref}::text end)`
    case 'json':
      // Every json column is a text[] (JSON.stringify of the array the driver parses).
      return `array_to_json(${ref})::text`
    case 'float':
      return roundedFloatCell(ref, ROUNDING_DECIMALS[column.rounding ?? 'score'])
    default:
      return `${ref}::text`
  }
}

export interface CopyStatement {
  /** settings that carry the query's parameters, each set with set_config(name, $n::text) */
  settings: { name: string; value: unknown }[]
  /** the COPY statement, reading its parameters from those settings as `types` */
  text(types: readonly string[]): string
  /** the rows query alone, to ask PostgreSQL for its parameter types */
  query: string
}

/**
 * COPY takes no bind parameters, so the rows query's parameters travel as transaction-local
 * settings (bound in set_config), and the query reads them back with current_setting(),
 * cast to the type PostgreSQL inferred for each. No value is ever spliced into SQL text.
 */
export function copyStatement(rows: CompiledQuery, columns: readonly ExportColumn[], format: ExportFormat): CopyStatement {
  const count = rows.parameters.length
  const found = new Set([...rows.sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))
  if (found.size !== count || [...found].some((n) => n < 1 || n > count)) throw new Error('export query parameters are not $1..$n')
  const settings = rows.parameters.map((value, i) => ({ name: `beacon.export_${i + 1}`, value }))
  const cells = columns.map((column) => copyCell(column, `t.${quoteIdent(column.name)}`)).join(', ')
  const delimiter = format === 'tsv' ? `E'\\t'` : `','`
  return {
    settings,
    query: rows.sql,
    text: (types) => {
      const sql = rows.sql.replace(/\$(\d+)/g, (_, n: string) => `current_setting('beacon.export_${n}')::${types[Number(n) - 1]}`)
      return `copy (select ${cells} from (${sql}) t) to stdout with (format csv, delimiter ${delimiter})`
    },
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * The types PostgreSQL infers for the parameters of `query`, from a throw-away prepared
 * statement (PREPARE infers them as the extended protocol would).
 */
async function parameterTypes(client: pg.PoolClient, query: string, count: number): Promise<string[]> {
  if (count === 0) return []
  await client.query(`prepare beacon_export_types as ${query}`)
  try {
    const { rows } = await client.query<{ types: string[] }>(`select parameter_types::text[] as types from pg_prepared_statements where name = 'beacon_export_types'`)
    return rows[0].types
  } finally {
    await client.query('deallocate beacon_export_types')
  }
}

export interface CopyFile extends AsyncIterable<Buffer> {
  /** Ends the read and gives the connection back; safe to call any number of times. */
  close(): Promise<void>
}

export interface CopyScope {
  workspaceId: string
  /** the service role to switch to (row-level security), when requests use it */
  role?: string
}

/**
 * Starts the COPY on `client`, inside a read-only REPEATABLE READ transaction (one snapshot
 * for the file) scoped as request transactions are (src/db/tenant-scope.ts), and reads the
 * first chunk before returning, so a failing query is an error response rather than a file
 * cut short. `check` runs first in that snapshot (a replica proving it is recent enough)
 * and may throw. The client is released by close() (destroyed when the COPY did not finish).
 */
export async function startCopy(client: pg.PoolClient, statement: CopyStatement, scope: CopyScope, check?: (client: pg.PoolClient) => Promise<void>): Promise<CopyFile> {
  let finished = false
  let released = false
  const release = async (error?: Error) => {
    if (released) return
    released = true
    if (error || !finished) {
      // A COPY cut short leaves the connection mid-protocol: drop it.
      client.release(error ?? new Error('export closed before the end of the file'))
      return
    }
    try {
      await client.query('commit')
      client.release()
    } catch (commitError) {
      client.release(commitError as Error)
    }
  }
  let stream: CopyOutStream
  let first: Buffer | null
  try {
    await client.query('begin transaction isolation level repeatable read, read only')
    // float8's text as the shortest that reads back (the default since PostgreSQL 12).
    await client.query('set local extra_float_digits = 1')
    // A file in order gains nothing from parallel workers (a gather merge of index scans
    // then a sort), and on a busy machine they take the cores the file is waiting for. A
    // cursor never had them; this keeps the plan the cursor had.
    await client.query('set local max_parallel_workers_per_gather = 0')
    // A file's query costs enough for PostgreSQL to compile it with LLVM, which took about
    // 0.4 s of CPU per file and saved less than that while the rows are written (a year of
    // 300,000 responses: 3.86 s of backend CPU without, 4.27 s with).
    await client.query('set local jit = off')
    if (scope.role) await client.query(`set local role ${client.escapeIdentifier(scope.role)}`)
    await client.query(`select set_config('app.workspace_id', $1, true)`, [scope.workspaceId])
    await check?.(client)
    const types = await parameterTypes(client, statement.query, statement.settings.length)
    if (statement.settings.length) {
      const calls = statement.settings.map((s, i) => `set_config('${s.name}', $${i + 1}::text, true)`).join(', ')
      await client.query(
        `select ${calls}`,
        statement.settings.map((s) => s.value),
      )
    }
    stream = client.query(new CopyOutStream(statement.text(types)))
    // An error while nobody is reading must not crash the process; the reader reports it.
    stream.on('error', () => {})
    first = await nextChunk(stream)
    if (first === null) finished = true
  } catch (error) {
    await release(error as Error)
    throw error
  }
  let closing: Promise<void> | undefined
  return {
    async *[Symbol.asyncIterator]() {
      try {
        if (first) {
          const chunk = first
          first = null
          yield chunk
        }
        for (;;) {
          if (closing) return
          const chunk = await nextChunk(stream)
          if (chunk === null) {
            finished = true
            return
          }
          yield chunk
        }
      } catch (error) {
        await release(error as Error)
        throw error
      }
    },
    close() {
      if (!finished && !stream.destroyed) stream.destroy()
      closing ??= release()
      return closing
    },
  }
}

/** The next chunk the COPY stream has, waiting for one; null at the end. */
async function nextChunk(stream: CopyOutStream): Promise<Buffer | null> {
  for (;;) {
    const chunk = stream.read() as Buffer | null
    if (chunk !== null) return chunk
    if (stream.errored) throw stream.errored
    if (stream.readableEnded || stream.destroyed) return null
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done)
        stream.off('end', done)
        stream.off('close', done)
        stream.off('error', failed)
        resolve()
      }
      const failed = (error: Error) => {
        done()
        reject(error)
      }
      stream.on('readable', done)
      stream.on('end', done)
      stream.on('close', done)
      stream.on('error', failed)
    })
  }
}
