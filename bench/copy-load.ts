// Bulk loading for the benchmark dataset on a PostgreSQL server: rows go in through
// COPY … FROM STDIN (text format) with the fact tables' indexes and constraints dropped
// first and built again at the end. Building an index once from sorted input costs a
// fraction of maintaining it row by row, and a foreign key is checked by one join instead
// of a trigger per row.
//
// Two ways: `loadWithoutIndexes` (one connection, one transaction: a load that fails
// leaves the tables as they were) and `parallelLoadWithoutIndexes` (one long COPY per table,
// each on its own connection, so PostgreSQL parses the three tables while Node generates
// the next rows; indexes are then built a table per connection). The parallel load cannot
// be one transaction: the drop commits first, and a failed load builds the indexes again
// before it throws (a load killed outright leaves them dropped: run it again).
import type pg from 'pg'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { finished, pipeline } from 'node:stream/promises'
import { Readable, type Writable } from 'node:stream'
import { once } from 'node:events'

export type Row = Record<string, unknown>

/** One value in COPY's text format: \N for null, backslash escapes for the separators. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (typeof value === 'number') return String(value)
  const text = String(value)
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text
}

/** The rows as COPY text lines. */
export function copyLines(columns: readonly string[], rows: readonly Row[]): string {
  let text = ''
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) text += (i === 0 ? '' : '\t') + copyText(row[columns[i]])
    text += '\n'
  }
  return text
}

/** A COPY text field that may hold tabs, newlines or backslashes (free text). */
export function copyEscape(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text
}

/**
 * One COPY … FROM STDIN kept open for a whole load: callers append text lines and `write`
 * hands them to the connection, waiting only when the socket's buffer is full (backpressure).
 */
export class CopyStream {
  private readonly stream: Writable
  private failure: Error | undefined
  rows = 0

  constructor(client: pg.PoolClient, table: string, columns: readonly string[]) {
    this.stream = client.query(copyFrom(`copy ${client.escapeIdentifier(table)} (${columns.map((c) => client.escapeIdentifier(c)).join(', ')}) from stdin`))
    this.stream.on('error', (error: Error) => (this.failure = error))
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure
    if (text.length === 0) return
    if (!this.stream.write(text)) await once(this.stream, 'drain')
  }

  async end(): Promise<void> {
    if (this.failure) throw this.failure
    this.stream.end()
    await finished(this.stream)
  }
}

/** COPY rows into a table on this client (in whatever transaction it is in). */
export async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return
  const stream = client.query(copyFrom(`copy ${client.escapeIdentifier(table)} (${columns.map((c) => client.escapeIdentifier(c)).join(', ')}) from stdin`))
  // Lines in slices of ~1 MB so no single string grows past what V8 handles well.
  const slices = function* () {
    for (let i = 0; i < rows.length; i += 2000) yield copyLines(columns, rows.slice(i, i + 2000))
  }
  await pipeline(Readable.from(slices()), stream)
}

export interface Ddl {
  drop: string[]
  create: string[]
  /**
   * `create` for parallel builds: every index (keys as plain unique indexes) on its own,
   * any of them on any connection (CREATE INDEX takes a lock that lets others build on the
   * same table), then `attach` turns the key indexes into their constraints (no scan), and
   * the foreign keys last.
   */
  indexes: { table: string; statement: string }[]
  attach: string[]
  foreign: string[]
  foreignNames: { table: string; name: string }[]
}

/** The statements that drop, and then recreate, the indexes and constraints of `tables`. */
export async function indexDdl(client: pg.PoolClient, tables: readonly string[]): Promise<Ddl> {
  const { rows: constraints } = await client.query<{ table: string; name: string; def: string; type: string; index_def: string | null }>(
    `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def, c.contype as type,
            case when c.contype in ('p', 'u') then pg_get_indexdef(c.conindid) end as index_def
       from pg_constraint c
      where (c.conrelid = any($1::regclass[]) or c.confrelid = any($1::regclass[])) and c.contype in ('p', 'u', 'f')
      order by c.contype = 'f' desc, c.conname`,
    [tables],
  )
  const { rows: indexes } = await client.query<{ name: string; table: string; def: string }>(
    `select i.indexrelid::regclass::text as name, i.indrelid::regclass::text as table, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid = any($1::regclass[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.contype in ('p', 'u'))
      order by 1`,
    [tables],
  )
  const foreign = constraints.filter((c) => c.type === 'f')
  const keys = constraints.filter((c) => c.type !== 'f')
  return {
    indexes: [...keys.map((c) => ({ table: c.table, statement: c.index_def! })), ...indexes.map((i) => ({ table: i.table, statement: i.def }))],
    attach: keys.map(
      (c) => `alter table ${c.table} add constraint ${client.escapeIdentifier(c.name)} ${c.type === 'p' ? 'primary key' : 'unique'} using index ${client.escapeIdentifier(c.name)}`,
    ),
    foreign: foreign.map((c) => `alter table ${c.table} add constraint ${client.escapeIdentifier(c.name)} ${c.def}`),
    foreignNames: foreign.map((c) => ({ table: c.table, name: c.name })),
    drop: [
      ...foreign.map((c) => `alter table ${c.table} drop constraint ${client.escapeIdentifier(c.name)}`),
      ...keys.map((c) => `alter table ${c.table} drop constraint ${client.escapeIdentifier(c.name)}`),
      ...indexes.map((i) => `drop index ${i.name}`),
    ],
    create: [
      ...keys.map((c) => `alter table ${c.table} add constraint ${client.escapeIdentifier(c.name)} ${c.def}`),
      ...indexes.map((i) => i.def),
      ...foreign.map((c) => `alter table ${c.table} add constraint ${client.escapeIdentifier(c.name)} ${c.def}`),
    ],
  }
}

/**
 * Runs `load` in one transaction on `client` with the indexes and constraints of `tables`
 * dropped, then builds them again and commits. Returns the seconds spent rebuilding.
 */
export async function loadWithoutIndexes(client: pg.PoolClient, tables: readonly string[], load: () => Promise<void>): Promise<{ indexSeconds: number }> {
  await client.query('begin')
  try {
    // A bigger sort budget for the index builds, this transaction only.
    await client.query(`set local maintenance_work_mem = '512MB'`)
    await client.query('set local synchronous_commit = off')
    const ddl = await indexDdl(client, tables)
    for (const statement of ddl.drop) await client.query(statement)
    await load()
    const started = performance.now()
    for (const statement of ddl.create) await client.query(statement)
    const indexSeconds = (performance.now() - started) / 1000
    await client.query('commit')
    return { indexSeconds }
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  }
}

/**
 * Drops the indexes and constraints of `tables` (committed), runs `load` with `clients`
 * (one per concurrent COPY), then builds the indexes again, largest table first, one per
 * connection at a time, and the keys and foreign keys last. Returns the seconds spent rebuilding.
 */
export async function parallelLoadWithoutIndexes(clients: readonly pg.PoolClient[], tables: readonly string[], load: () => Promise<void>): Promise<{ indexSeconds: number }> {
  const [first] = clients
  for (const client of clients) {
    await client.query('set synchronous_commit = off')
    // A bigger sort budget for the index builds (this session only).
    await client.query(`set maintenance_work_mem = '512MB'`)
  }
  await first.query('begin')
  const ddl = await indexDdl(first, tables)
  for (const statement of ddl.drop) await first.query(statement)
  await first.query('commit')
  const rebuild = async () => {
    const started = performance.now()
    // Largest tables first, so the longest build starts at once.
    const { rows: sizes } = await first.query<{ table: string; bytes: string }>(`select t as table, pg_relation_size(t::regclass) as bytes from unnest($1::text[]) t`, [
      [...new Set(ddl.indexes.map((i) => i.table))],
    ])
    const size = (table: string) => Number(sizes.find((s) => s.table === table)?.bytes ?? 0)
    const queue = [...ddl.indexes].sort((a, b) => size(b.table) - size(a.table))
    await Promise.all(
      clients.map(async (client) => {
        for (let next = queue.shift(); next; next = queue.shift()) await client.query(next.statement)
      }),
    )
    for (const statement of ddl.attach) await first.query(statement)
    // Foreign keys added NOT VALID (no scan, brief lock), then validated a table per
    // connection at once: VALIDATE takes a lock that lets the others validate too.
    for (const statement of ddl.foreign) await first.query(`${statement} not valid`)
    const validations = ddl.foreignNames.map((f) => `alter table ${f.table} validate constraint ${first.escapeIdentifier(f.name)}`)
    await Promise.all(
      clients.map(async (client) => {
        for (let next = validations.shift(); next; next = validations.shift()) await client.query(next)
      }),
    )
    return (performance.now() - started) / 1000
  }
  try {
    await load()
  } catch (error) {
    await rebuild().catch(() => {})
    throw error
  }
  return { indexSeconds: await rebuild() }
}

/**
 * The yardstick for a load: the same rows, already as COPY text (read back with COPY … TO
 * STDOUT), copied again into empty tables shaped like theirs (no indexes, logged, as the
 * load's tables are), one table per connection at once, as the load does. What the
 * generator adds on top of PostgreSQL's own COPY is the difference.
 */
export async function copyYardstick(
  clients: readonly pg.PoolClient[],
  samples: { table: string; select: string }[],
): Promise<{ seconds: number; rows: Record<string, number>; megabytes: number }> {
  const texts: Buffer[][] = []
  for (const sample of samples) {
    const chunks: Buffer[] = []
    const stream = clients[0].query(copyTo(`copy (${sample.select}) to stdout`))
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk)
    texts.push(chunks)
  }
  const name = (table: string) => client0.escapeIdentifier(`bench_yardstick_${table}`)
  const client0 = clients[0]
  for (const { table } of samples) {
    await client0.query(`drop table if exists ${name(table)}`)
    await client0.query(`create table ${name(table)} (like ${client0.escapeIdentifier(table)} including defaults)`)
  }
  const started = performance.now()
  await Promise.all(
    samples.map(async ({ table }, i) => {
      const client = clients[i % clients.length]
      const stream = client.query(copyFrom(`copy ${name(table)} from stdin`))
      await pipeline(Readable.from(texts[i]), stream)
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const rows: Record<string, number> = {}
  for (const { table } of samples) {
    rows[table] = Number((await client0.query<{ n: string }>(`select count(*) as n from ${name(table)}`)).rows[0].n)
    await client0.query(`drop table ${name(table)}`)
  }
  const megabytes = Math.round(texts.flat().reduce((n, b) => n + b.length, 0) / 1e5) / 10
  return { seconds, rows, megabytes }
}
