// Schedules of collection targets (docs/collection.md): every 30 s, where jobs run, each enabled
// target whose latest cron slot is newer than its last_scheduled_at gets a run. The slot is
// claimed by a conditional update of last_scheduled_at in the transaction that creates the
// run, so with several instances exactly one wins it, and a crash loses neither the slot
// nor creates a run twice. Only the latest slot counts: after downtime a target fires once,
// not once per missed slot.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { AppError } from '../core/errors.js'
import { createRun } from './runs.js'
import { DEFAULT_MIN_INTERVAL_MINUTES, latestSlot } from './schedule.js'

export const SCHEDULER_INTERVAL_MS = 30_000

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
  const created: string[] = []
  for (const target of targets) {
    const slot = latestSlot(target.schedule, target.timezone, now)
    if (!slot || (target.last_scheduled_at && new Date(target.last_scheduled_at) >= slot)) continue
    try {
      const runId = await inWorkspace(db, target.workspace_id, async (trx) => {
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
        const claimed = await trx
          .updateTable('collection_target')
          .set({ last_scheduled_at: slot })
          .where('workspace_id', '=', target.workspace_id)
          .where('id', '=', target.id)
          .where((eb) => eb.or([eb('last_scheduled_at', 'is', null), eb('last_scheduled_at', '<', slot)]))
          .returning('id')
          .executeTakeFirst()
        if (!claimed) return undefined // another instance took this slot
        try {
          return await createRun(trx, target.workspace_id, { target_ids: [target.id] }, tasks, 'schedule')
        } catch (error) {
          // Nothing to ask (no active prompt): the slot is used up, not retried every pass.
          if (!(error instanceof AppError) || error.statusCode >= 500) throw error
          log?.warn({ targetId: target.id, workspaceId: target.workspace_id, reason: error.message }, 'collection schedule: slot skipped')
          return undefined
        }
      })
      if (runId) created.push(runId)
    } catch (error) {
      // e.g. the workspace has no active prompt: the slot stays unclaimed and is tried again.
      log?.warn({ err: error, targetId: target.id, workspaceId: target.workspace_id }, 'collection schedule: could not start a run')
    }
  }
  return created
}

export function startScheduler(db: DB, tasks: TaskSender, options: SchedulerOptions & { intervalMs?: number } = {}): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve()
  let stopped = false
  const tick = () => {
    if (stopped) return
    running = scheduleDueRuns(db, tasks, new Date(), options).catch((error: unknown) => options.log?.warn({ err: error }, 'collection schedule: pass failed'))
  }
  // A slot missed while the process was down fires now, once.
  const first = setTimeout(tick, 1_000)
  const timer = setInterval(tick, options.intervalMs ?? SCHEDULER_INTERVAL_MS)
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
