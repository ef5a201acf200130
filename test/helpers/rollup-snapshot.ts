// The full contents of every rollup table for one workspace, rows as JSON, sorted: two
// snapshots are equal exactly when the tables hold the same rows. Numbers are compared by
// value: a numeric sum's scale follows every value ever added, so 0.5 + 0.125 - 0.125
// is stored as 0.500 while a rebuild stores 0.5.
import { sql } from 'kysely'
import type { DB } from '../../src/db/database.js'
import { ROLLUP_TABLES } from '../../src/rollups/index.js'

export async function rollupSnapshot(db: DB, workspaceId: string): Promise<Record<string, string[]>> {
  const contents: Record<string, string[]> = {}
  for (const table of ROLLUP_TABLES) {
    const { rows } = await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.table(table)} t where workspace_id = ${workspaceId}`.execute(db)
    contents[table] = rows.map((r) => JSON.stringify(JSON.parse(r.row))).sort()
  }
  return contents
}

/** Table by table, so a failure names the table and shows its differing rows. */
export function expectSameRollups(
  actual: Record<string, string[]>,
  expected: Record<string, string[]>,
  expectFn: (value: unknown, message?: string) => { toEqual(value: unknown): void },
): void {
  expectFn(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort())
  for (const table of Object.keys(expected)) expectFn(actual[table], table).toEqual(expected[table])
}
