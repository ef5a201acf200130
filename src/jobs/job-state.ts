// The five states Beacon shows for a job, and how pg-boss's states map onto them.
// Pure functions: unit-tested without a database.
import type { JobState } from '../db/schema.js'

export type { JobState }

export type BossState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed'

/** created and retry (waiting for another attempt) are both "queued" to a user. */
export function stateFromBoss(state: BossState): JobState {
  switch (state) {
    case 'created':
    case 'retry':
      return 'queued'
    case 'active':
      return 'running'
    case 'completed':
      return 'succeeded'
    case 'cancelled':
      return 'cancelled'
    case 'failed':
      return 'failed'
  }
}

export const isFinished = (state: JobState) => state === 'succeeded' || state === 'failed' || state === 'cancelled'

/**
 * Beacon's row is written by the handler, so it knows progress and results; pg-boss alone
 * knows when a job ended without the handler (cancelled, or expired after a crash and out of
 * retries). A finished pg-boss state therefore wins over an unfinished row.
 */
export function reconcileState(row: JobState, boss: BossState | null): JobState {
  if (isFinished(row) || boss === null) return row
  const mapped = stateFromBoss(boss)
  return mapped === 'failed' || mapped === 'cancelled' ? mapped : row
}
