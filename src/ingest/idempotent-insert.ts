// Idempotency by external_id, shared by every ingestion path (DESIGN §9): an item whose
// external_id is stored already, or repeats an earlier item of the same batch, is a
// duplicate; the unique index has the last word when concurrent batches race.
import type { Insertable } from 'kysely'
import type { DB } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { insertInChunks } from './insert-chunks.js'

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
  const fresh: T[] = []
  for (const item of items) {
    if (item.external_id) {
      if (stored.has(item.external_id)) continue
      stored.add(item.external_id)
    }
    fresh.push(item)
  }
  return fresh
}

/** Inserts rows, skipping external ids another transaction stored first; returns the ids inserted. */
export async function insertIdempotent<T extends IdempotentTable>(db: DB, table: T, rows: Insertable<Database[T]>[]): Promise<Set<string>> {
  const inserted = new Set<string>()
  await insertInChunks(rows, 1000, async (chunk) => {
    const result = await db
      .insertInto(table as 'response')
      .values(chunk as Insertable<Database['response']>[])
      .onConflict((oc) => oc.columns(['workspace_id', 'external_id']).where('external_id', 'is not', null).doNothing())
      .returning('id')
      .execute()
    for (const row of result) inserted.add(row.id)
  })
  return inserted
}
