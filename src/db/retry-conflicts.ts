// Deadlocks and serialization failures are a normal outcome of concurrent writers on
// PostgreSQL: the server aborts one of the transactions so the others can go on. The
// aborted work is safe to run again, so a write runs inside a savepoint and is retried a
// bounded number of times before the error reaches the client as a 5xx.
import { sql } from 'kysely'
import type { DB } from './database.js'

/** deadlock_detected, serialization_failure */
const RETRYABLE = new Set(['40P01', '40001'])

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && RETRYABLE.has(code)
}

export interface RetryOptions {
  /** attempts in all, the first included */
  attempts?: number
  /** the wait before attempt n (1-based retries) is about base × 2^(n-1), jittered */
  baseDelayMs?: number
  onRetry?: (attempt: number, error: unknown) => void
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs `fn` and retries it after a deadlock or serialization failure. Inside a
 * transaction each attempt runs under a savepoint, so a failed attempt is rolled back
 * (with the locks it took) and the transaction can go on; outside one, each attempt is
 * its own transaction.
 */
export async function retryOnConflict<T>(db: DB, fn: (trx: DB) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 4
  const baseDelayMs = options.baseDelayMs ?? 20
  for (let attempt = 1; ; attempt++) {
    try {
      if (!db.isTransaction) return await db.transaction().execute(fn)
      await sql`savepoint beacon_retry`.execute(db)
      const result = await fn(db)
      await sql`release savepoint beacon_retry`.execute(db)
      return result
    } catch (error) {
      if (db.isTransaction) await sql`rollback to savepoint beacon_retry`.execute(db).catch(() => {})
      if (!isRetryableConflict(error) || attempt >= attempts) throw error
      options.onRetry?.(attempt, error)
      // Jitter, so the transactions that deadlocked do not meet again in step.
      await sleep(baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random()))
    }
  }
}
