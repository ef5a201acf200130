// Export quota (docs/api-conventions.md): N file downloads per rolling window per workspace, shared by
// all its keys and all instances, kept in export_log. A sliding log, checked and taken in
// one transaction under a per-workspace advisory lock, so concurrent requests queue
// instead of both seeing the last free slot. Fail closed: no answer from the store, no file.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { AppError } from '../core/errors.js'

export const QUOTA_WINDOW_SECONDS = 3600
/** Retry-After when the quota store cannot be reached. */
const UNAVAILABLE_RETRY_SECONDS = 30

export interface QuotaState {
  limit: number
  /** downloads left in the window after this request */
  remaining: number
  /** seconds until the oldest download in the window leaves it; 0 while some remain */
  resetSeconds: number
}

/** The standard rate-limit headers (IETF RateLimit draft and the X- ones older clients read). */
export function quotaHeaders(state: QuotaState): Record<string, string | number> {
  return {
    'RateLimit-Policy': `"exports";q=${state.limit};w=${QUOTA_WINDOW_SECONDS}`,
    RateLimit: `"exports";r=${state.remaining};t=${state.resetSeconds}`,
    'X-RateLimit-Limit': state.limit,
    'X-RateLimit-Remaining': state.remaining,
    'X-RateLimit-Reset': state.resetSeconds,
  }
}

/**
 * Takes one download slot for the workspace or throws: 429 export_quota_exceeded with
 * Retry-After when the window is full, 503 export_unavailable when the quota cannot be
 * checked. Returns the state to report in the headers of the file response.
 */
export async function takeExportSlot(db: DB, workspaceId: string, exportType: string, limit: number): Promise<QuotaState> {
  let outcome: { allowed: boolean; state: QuotaState }
  // Inside the request's own transaction when it has one (row-level security scopes it to
  // the workspace); the lock is then held until that transaction ends.
  const inTransaction = <T>(fn: (trx: DB) => Promise<T>): Promise<T> => (db.isTransaction ? fn(db) : db.transaction().execute(fn))
  try {
    outcome = await inTransaction(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`beacon:export-quota:${workspaceId}`}, 0))`.execute(trx)
      const { used: count, now, oldest_wait } = await windowUsage(trx, workspaceId)
      if (count >= limit) {
        return { allowed: false, state: { limit, remaining: 0, resetSeconds: Math.max(1, Number(oldest_wait)) } }
      }
      await trx.insertInto('export_log').values({ workspace_id: workspaceId, export_type: exportType, created_at: now }).execute()
      const remaining = limit - count - 1
      // Full now: the first slot frees when the oldest entry (maybe this one) leaves.
      const resetSeconds = remaining > 0 ? 0 : Math.max(1, count === 0 ? QUOTA_WINDOW_SECONDS : Number(oldest_wait))
      return { allowed: true, state: { limit, remaining, resetSeconds } }
    })
  } catch (error) {
    throw quotaUnavailable(error)
  }
  if (!outcome.allowed) throw quotaExceeded(outcome.state)
  return outcome.state
}

/**
 * The quota as a download would find it, taking nothing: for HEAD, which must never use
 * up a slot. Throws like takeExportSlot when the window is full or the store unreachable.
 */
export async function peekExportQuota(db: DB, workspaceId: string, limit: number): Promise<QuotaState> {
  let usage: Awaited<ReturnType<typeof windowUsage>>
  try {
    usage = await windowUsage(db, workspaceId)
  } catch (error) {
    throw quotaUnavailable(error)
  }
  if (usage.used >= limit) throw quotaExceeded({ limit, remaining: 0, resetSeconds: Math.max(1, Number(usage.oldest_wait)) })
  return { limit, remaining: limit - usage.used, resetSeconds: 0 }
}

/** Downloads in the window ending now, and seconds until the oldest of them leaves it. */
async function windowUsage(db: DB, workspaceId: string): Promise<{ used: number; now: Date; oldest_wait: number | null }> {
  // clock_timestamp(), not now(): the transaction may have waited for the lock.
  const { rows } = await sql<{ used: number; now: Date; oldest_wait: number | null }>`
    with clock as (select clock_timestamp() as now)
    select count(e.id) as used, clock.now,
      ceil(extract(epoch from min(e.created_at) + make_interval(secs => ${QUOTA_WINDOW_SECONDS}) - clock.now)) as oldest_wait
    from clock
    left join export_log e on e.workspace_id = ${workspaceId} and e.created_at > clock.now - make_interval(secs => ${QUOTA_WINDOW_SECONDS})
    group by clock.now`.execute(db)
  return { ...rows[0], used: Number(rows[0].used) }
}

function quotaUnavailable(error: unknown): AppError {
  const unavailable = new AppError(
    503,
    'export_unavailable',
    `Exports are unavailable right now (the export quota could not be checked); retry in ${UNAVAILABLE_RETRY_SECONDS} s`,
    {
      headers: { 'Retry-After': UNAVAILABLE_RETRY_SECONDS },
    },
  )
  // Kept for the error log; the response body never carries it.
  return Object.assign(unavailable, { cause: error })
}

function quotaExceeded(state: QuotaState): AppError {
  return new AppError(
    429,
    'export_quota_exceeded',
    `Export limit reached: ${state.limit} file downloads per hour per workspace, shared by all its keys; retry in ${state.resetSeconds} s (statistics, manifest and schema do not count)`,
    { headers: { ...quotaHeaders(state), 'Retry-After': state.resetSeconds } },
  )
}
