// The loop that schedules run on (collection targets, weekly digests): a pass every interval,
// where jobs run, over rows whose latest slot is due. Each row's slot is claimed by a
// conditional update in the transaction that acts on it, so with several instances exactly one
// wins a slot, and a crash neither loses the slot nor acts twice.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { inWorkspace } from '../db/tenant-scope.js'

type Warn = { warn(obj: unknown, msg: string): void }

/** Where a schedule keeps the slot it last claimed. */
export type SlotColumn = { table: 'collection_target'; column: 'last_scheduled_at' } | { table: 'notification_channel'; column: 'digest_last_slot' }

/**
 * Claims `slot` for one row: sets the slot column to it unless it already holds this slot or a
 * later one. Returns false when another instance took the slot first. `trx` is the transaction
 * that acts on the slot, so the claim and the act commit together.
 */
export async function claimSlot(trx: DB, where: SlotColumn, workspaceId: string, id: string, slot: Date): Promise<boolean> {
  const column = sql.ref(where.column)
  const { rows } = await sql<{ id: string }>`
    update ${sql.table(where.table)} set ${column} = ${slot}
    where workspace_id = ${workspaceId} and id = ${id} and (${column} is null or ${column} < ${slot})
    returning id`.execute(trx)
  return rows.length > 0
}

/**
 * Acts on each due row in a transaction of its workspace; returns what the acts returned (an
 * act returns undefined when it did nothing, e.g. lost the claim). A row whose act throws is
 * passed to `failed` and the others go on: its slot stays unclaimed and is tried next pass.
 */
export async function actOnEachDue<T extends { workspace_id: string }, R>(
  db: DB,
  due: T[],
  act: (trx: DB, row: T) => Promise<R | undefined>,
  failed: (error: unknown, row: T) => void,
): Promise<R[]> {
  const results: R[] = []
  for (const row of due) {
    try {
      const result = await inWorkspace(db, row.workspace_id, (trx) => act(trx, row))
      if (result !== undefined) results.push(result)
    } catch (error) {
      failed(error, row)
    }
  }
  return results
}

/**
 * Runs `pass` after `firstDelayMs` (a slot missed while the process was down fires then, once)
 * and every `intervalMs` after; a failed pass is logged as `${name}: pass failed`. The timers
 * keep no process alive; stop() waits for a pass under way.
 */
export function startPeriodicPass(name: string, pass: () => Promise<unknown>, options: { firstDelayMs: number; intervalMs: number; log?: Warn }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  let stopped = false
  const tick = () => {
    if (stopped) return
    running = pass().catch((error: unknown) => options.log?.warn({ err: error }, `${name}: pass failed`))
  }
  const first = setTimeout(tick, options.firstDelayMs)
  const timer = setInterval(tick, options.intervalMs)
  first.unref()
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearTimeout(first)
      clearInterval(timer)
      await running
    },
  }
}
