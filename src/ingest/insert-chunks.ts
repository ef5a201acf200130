import { sql } from 'kysely'
import type { DB } from '../db/database.js'

/** PostgreSQL binds at most 65,535 parameters per statement: insert large row sets in slices. */
export async function insertInChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size))
}

const COLUMN_CHUNK_ROWS = 5000

/**
 * Inserts rows as one array parameter per column, unnested in SQL: a handful of
 * parameters whatever the row count, and far less SQL to parse and plan than a VALUES
 * list with one parameter per cell. `columns` maps each column to its SQL type.
 */
export async function insertColumns<T extends object>(db: DB, table: string, rows: readonly T[], columns: { [K in keyof T & string]?: string }): Promise<void> {
  const names = Object.keys(columns) as (keyof T & string)[]
  await insertInChunks([...rows], COLUMN_CHUNK_ROWS, async (chunk) => {
    const arrays = names.map((name) => {
      const values = chunk.map((row) => {
        const value = row[name] as unknown
        return value instanceof Date ? value.toISOString() : value
      })
      // Types come from the caller's code, never from input.
      return sql`${values}::${sql.raw(columns[name] as string)}[]`
    })
    await sql`insert into ${sql.table(table)} (${sql.join(names.map((name) => sql.ref(name)))}) select * from unnest(${sql.join(arrays)})`.execute(db)
  })
}
