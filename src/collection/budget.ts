// The daily budget per workspace (docs/collection.md, COLLECTION_DAILY_BUDGET_USD): each request
// first reserves its estimated cost for the UTC day in one conditional upsert, so concurrent
// requests (on any instance) can never together pass the budget; once answered, the
// reservation is corrected to the real cost, or returned when no answer came.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { inWorkspace } from '../db/tenant-scope.js'

const today = (now: Date) => now.toISOString().slice(0, 10)

/** true when `usd` fits into what is left of today's budget (and is now reserved). */
export async function reserveBudget(db: DB, workspaceId: string, usd: number, budgetUsd: number, now = new Date()): Promise<boolean> {
  if (usd > budgetUsd) return false
  const { rows } = await sql<{ usd: string }>`
    insert into collection_spend (workspace_id, day, usd) values (${workspaceId}, ${today(now)}, ${usd})
    on conflict (workspace_id, day) do update set usd = collection_spend.usd + excluded.usd
    where collection_spend.usd + excluded.usd <= ${budgetUsd}
    returning usd`.execute(db)
  return rows.length > 0
}

/** Adds `deltaUsd` (negative: a refund) to today's spend, unconditionally. */
export async function adjustSpend(db: DB, workspaceId: string, deltaUsd: number, now = new Date()): Promise<void> {
  if (deltaUsd === 0) return
  await sql`
    insert into collection_spend (workspace_id, day, usd) values (${workspaceId}, ${today(now)}, ${Math.max(0, deltaUsd)})
    on conflict (workspace_id, day) do update set usd = greatest(0, collection_spend.usd + ${deltaUsd})`.execute(db)
}

/**
 * Settles one reservation of reserveBudget: today's spend holds what the provider billed
 * (`spentUsd`) instead of the estimate reserved; 0 (no answer, nothing billed) is a refund.
 * `db` may be the transaction that stores the answer, so both commit together.
 */
export function settleReservation(db: DB, workspaceId: string, reservedUsd: number, spentUsd = 0): Promise<void> {
  return inWorkspace(db, workspaceId, (trx) => adjustSpend(trx, workspaceId, spentUsd - reservedUsd))
}
