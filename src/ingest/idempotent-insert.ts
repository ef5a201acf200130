// Idempotency by external_id, shared by every ingestion path (docs/data-in.md): an item whose
// external_id is stored already, or repeats an earlier item of the same batch, is a
// duplicate; the unique index has the last word when concurrent batches race.
import type { DB } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { sql, type Insertable } from 'kysely'
import { COLUMN_CHUNK_ROWS, insertInChunks, unnestRows, type ColumnTypes } from './insert-chunks.js'

type IdempotentTable = 'response' | 'aio_observation'

/** The items to store: not yet stored, and first of their external_id in the batch. */
export async function freshItems<T extends { external_id?: string | null }>(db: DB, table: IdempotentTable, workspaceId: string, items: T[]): Promise<T[]> {
  const externalIds = [...new Set(items.map((i) => i.external_id).filter((id): id is string => typeof id === 'string'))]
  const stored = new Set(
    externalIds.length
      ? (await db.selectFrom(table).select('external_id').where('workspace_id', '=', workspaceId).where('external_id', 'in', externalIds).execute()).map(
          (r) => r.external_id as string,
        )
      : [],
  )
  return withoutRepeats(items, stored)
}

/** The first item of each external_id (items without one all count), skipping the ids in `stored`. */
export function withoutRepeats<T extends { external_id?: string | null }>(items: readonly T[], stored: ReadonlySet<string> = new Set()): T[] {
  const seen = new Set(stored)
  const fresh: T[] = []
  for (const item of items) {
    if (item.external_id) {
      if (seen.has(item.external_id)) continue
      seen.add(item.external_id)
    }
    fresh.push(item)
  }
  return fresh
}

/**
 * Inserts rows (as column arrays, see insertColumns), skipping external ids another
 * transaction stored first; returns the ids inserted.
 */
export async function insertIdempotent<T extends IdempotentTable>(
  db: DB,
  table: T,
  rows: Insertable<Database[T]>[],
  columns: ColumnTypes<Insertable<Database[T]>>,
): Promise<Set<string>> {
  const inserted = new Set<string>()
  await insertInChunks(rows, COLUMN_CHUNK_ROWS, async (chunk) => {
    const { names, select } = unnestRows(chunk, columns)
    const result = await sql<{ id: string }>`
      insert into ${sql.table(table)} (${names}) ${select}
      on conflict (workspace_id, external_id) where external_id is not null do nothing
      returning id`.execute(db)
    for (const row of result.rows) inserted.add(row.id)
  })
  return inserted
}
