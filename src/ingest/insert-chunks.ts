import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.js'

/** PostgreSQL binds at most 65,535 parameters per statement: insert large row sets in slices. */
export async function insertInChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size))
}

export const COLUMN_CHUNK_ROWS = 5000

/** Each column to insert and its SQL type (types come from the caller's code, never from input). */
export type ColumnTypes<T> = { [K in keyof T & string]?: string }

/** The column list and `select * from unnest(…)` of rows: one array parameter per column. */
export function unnestRows<T extends object>(rows: readonly T[], columns: ColumnTypes<T>): { names: RawBuilder<unknown>; select: RawBuilder<unknown> } {
  const names = Object.keys(columns) as (keyof T & string)[]
  const arrays = names.map((name) => {
    const values = rows.map((row) => {
      const value = row[name] as unknown
      return value instanceof Date ? value.toISOString() : value
    })
    return sql`${values}::${sql.raw(columns[name] as string)}[]`
  })
  return { names: sql.join(names.map((name) => sql.ref(name))), select: sql`select * from unnest(${sql.join(arrays)})` }
}

/**
 * Inserts rows as one array parameter per column, unnested in SQL: a handful of
 * parameters whatever the row count, and far less SQL to parse and plan than a VALUES
 * list with one parameter per cell. `columns` maps each column to its SQL type.
 */
export async function insertColumns<T extends object>(db: DB, table: string, rows: readonly T[], columns: ColumnTypes<T>): Promise<void> {
  await insertInChunks([...rows], COLUMN_CHUNK_ROWS, async (chunk) => {
    const { names, select } = unnestRows(chunk, columns)
    await sql`insert into ${sql.table(table)} (${names}) ${select}`.execute(db)
  })
}
