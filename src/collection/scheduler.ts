// Schedules of collection targets (docs/collection.md): every 30 s, where jobs run, each enabled
// target whose latest cron slot is newer than its last_scheduled_at gets a run. The slot is
// claimed by a conditional update of last_scheduled_at in the transaction that creates the
// run, so with several instances exactly one wins it, and a crash loses neither the slot
// nor creates a run twice. Only the latest slot counts: after downtime a target fires once,
// not once per missed slot.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { actOnEachDue, claimSlot, startPeriodicPass, type SlotColumn } from '../jobs/periodic-claims.js'
import { AppError } from '../core/errors.js'
import { createRun } from './runs.js'
import { DEFAULT_MIN_INTERVAL_MINUTES, latestSlot } from './schedule.js'

export const SCHEDULER_INTERVAL_MS = 30_000

const TARGET_SLOT: SlotColumn = { table: 'collection_target', column: 'last_scheduled_at' }

export interface SchedulerLog {
  warn(obj: unknown, msg: string): void
  info?(obj: unknown, msg: string): void
}

export interface SchedulerOptions {
  log?: SchedulerLog
  /** COLLECTION_MIN_INTERVAL_MINUTES (default 60): no target runs by schedule more often */
  minIntervalMinutes?: number
}

/** One pass: creates the runs that are due; returns their ids. */
export async function scheduleDueRuns(db: DB, tasks: TaskSender, now = new Date(), options: SchedulerOptions = {}): Promise<string[]> {
  const { log } = options
  const minIntervalMs = (options.minIntervalMinutes ?? DEFAULT_MIN_INTERVAL_MINUTES) * 60_000
  // Across workspaces: the scheduler's connection owns the tables (no request scope here).
  const targets = await db
    .selectFrom('collection_target')
    .select(['workspace_id', 'id', 'schedule', 'timezone', 'last_scheduled_at'])
    .where('enabled', '=', true)
    .where('flagged', '=', false)
    .execute()
  const due = targets.flatMap((target) => {
    const slot = latestSlot(target.schedule, target.timezone, now)
    return !slot || (target.last_scheduled_at && new Date(target.last_scheduled_at) >= slot) ? [] : [{ ...target, slot }]
  })
  return actOnEachDue(
    db,
    due,
    async (trx, target) => {
      const { slot } = target
      // At most one scheduled run per minimum interval (docs/collection.md), whatever the
      // schedule says (one saved before the minimum existed, a daylight-saving jump). Slots
      // far enough apart pass on their own; a closer one only when the target's last
      // scheduled run is older than the interval (its last_scheduled_at may be the time it
      // was created or rescheduled, which is no run). The slot is not claimed, so it fires
      // once the interval has passed.
      if (target.last_scheduled_at && slot.getTime() - new Date(target.last_scheduled_at).getTime() < minIntervalMs) {
        const recent = await trx
          .selectFrom('collection_run')
          .select('id')
          .where('workspace_id', '=', target.workspace_id)
          .where('trigger', '=', 'schedule')
          .where('created_at', '>', new Date(now.getTime() - minIntervalMs))
          .where(sql<boolean>`${target.id}::uuid = any(target_ids)`)
          .limit(1)
          .executeTakeFirst()
        if (recent) return undefined
      }
      if (!(await claimSlot(trx, TARGET_SLOT, target.workspace_id, target.id, slot))) return undefined // another instance took this slot
      try {
        return await createRun(trx, target.workspace_id, { target_ids: [target.id] }, tasks, 'schedule')
      } catch (error) {
        // Nothing to ask (no active prompt): the slot is used up, not retried every pass.
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error
        log?.warn({ targetId: target.id, workspaceId: target.workspace_id, reason: error.message }, 'collection schedule: slot skipped')
        return undefined
      }
    },
    // e.g. the workspace has no active prompt: the slot stays unclaimed and is tried again.
    (error, target) => log?.warn({ err: error, targetId: target.id, workspaceId: target.workspace_id }, 'collection schedule: could not start a run'),
  )
}

export function startScheduler(db: DB, tasks: TaskSender, options: SchedulerOptions & { intervalMs?: number } = {}): { stop(): Promise<void> } {
  return startPeriodicPass('collection schedule', () => scheduleDueRuns(db, tasks, new Date(), options), {
    firstDelayMs: 1_000,
    intervalMs: options.intervalMs ?? SCHEDULER_INTERVAL_MS,
    log: options.log,
  })
}
