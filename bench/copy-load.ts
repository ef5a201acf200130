// Bulk loading for the benchmark dataset on a PostgreSQL server: rows go in through
// COPY … FROM STDIN (text format), inside one transaction that drops the fact tables'
// indexes and constraints first and builds them again at the end. Building an index once
// from sorted input costs a fraction of maintaining it row by row, and a foreign key is
// checked by one join instead of a trigger per row. Being one transaction, a load that
// fails or is killed leaves the tables as they were (indexes included).
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'

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

interface Ddl {
  drop: string[]
  create: string[]
}

/** The statements that drop, and then recreate, the indexes and constraints of `tables`. */
async function indexDdl(client: pg.PoolClient, tables: readonly string[]): Promise<Ddl> {
  const { rows: constraints } = await client.query<{ table: string; name: string; def: string; type: string }>(
    `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def, c.contype as type
       from pg_constraint c
      where (c.conrelid = any($1::regclass[]) or c.confrelid = any($1::regclass[])) and c.contype in ('p', 'u', 'f')
      order by c.contype = 'f' desc, c.conname`,
    [tables],
  )
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i
      where i.indrelid = any($1::regclass[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.contype in ('p', 'u'))
      order by 1`,
    [tables],
  )
  const foreign = constraints.filter((c) => c.type === 'f')
  const keys = constraints.filter((c) => c.type !== 'f')
  return {
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
