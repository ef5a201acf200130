// The weekly digest's schedule (docs/agents-and-notifications.md), on the schedules' shared
// loop (src/jobs/periodic-claims.ts, as collection schedules): every pass, each active channel subscribed to
// digest.weekly whose latest weekly slot (day, hour, time zone) is newer than its
// digest_last_slot gets one digest. The slot is claimed by a conditional update in the
// transaction that queues the delivery, so with several instances exactly one sends it; a
// slot missed during downtime is sent once, late, not once per missed week.
import type { DB } from '../db/database.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { actOnEachDue, claimSlot, startPeriodicPass, type SlotColumn } from '../jobs/periodic-claims.js'
import { latestSlot } from '../collection/schedule.js'
import { buildDigest } from '../digest/build-digest.js'
import { queueNotification } from './emit.js'
import { DIGEST_EVENT } from './events.js'

export const DIGEST_SCHEDULER_INTERVAL_MS = 60_000

/** The channel's weekly slot as a cron expression: minute 0 of `hour` on `day` (0 = Sunday). */
export const digestCron = (day: number, hour: number) => `0 ${hour} * * ${day}`

/** A slot older than this is not sent any more (the server was down for over a day): the next one is. */
const STALE_AFTER_MS = 24 * 3600_000

const DIGEST_SLOT: SlotColumn = { table: 'notification_channel', column: 'digest_last_slot' }

/** One pass: queues the digests that are due; returns the delivery ids. */
export async function scheduleDueDigests(
  db: DB,
  tasks: TaskSender,
  options: { now?: Date; publicUrl?: string; log?: { warn(obj: unknown, msg: string): void } } = {},
): Promise<string[]> {
  const now = options.now ?? new Date()
  // Across workspaces: the scheduler's connection owns the tables (no request scope here).
  const channels = await db
    .selectFrom('notification_channel')
    .select(['workspace_id', 'id', 'digest_day', 'digest_hour', 'digest_timezone', 'digest_last_slot', 'created_at'])
    .where('active', '=', true)
    .where('digest_day', 'is not', null)
    .execute()
  const due = channels.flatMap((channel) => {
    if (channel.digest_day === null || channel.digest_hour === null || channel.digest_timezone === null) return []
    const slot = latestSlot(digestCron(channel.digest_day, channel.digest_hour), channel.digest_timezone, now)
    if (!slot || now.getTime() - slot.getTime() > STALE_AFTER_MS) return []
    // A channel created after this week's slot waits for the next one.
    if (new Date(channel.created_at) > slot) return []
    if (channel.digest_last_slot && new Date(channel.digest_last_slot) >= slot) return []
    return [{ ...channel, slot }]
  })
  return actOnEachDue(
    db,
    due,
    async (trx, channel) => {
      if (!(await claimSlot(trx, DIGEST_SLOT, channel.workspace_id, channel.id, channel.slot))) return undefined // another instance took this slot
      const digest = await buildDigest(trx, channel.workspace_id, { now, publicUrl: options.publicUrl })
      return queueNotification(trx, channel.workspace_id, channel.id, DIGEST_EVENT, digest, tasks)
    },
    (error, channel) => options.log?.warn({ err: error, channelId: channel.id, workspaceId: channel.workspace_id }, 'digest schedule: could not queue a digest'),
  )
}

export function startDigestScheduler(
  db: DB,
  tasks: TaskSender,
  options: { intervalMs?: number; publicUrl?: string; log?: { warn(obj: unknown, msg: string): void } } = {},
): { stop(): Promise<void> } {
  return startPeriodicPass('digest schedule', () => scheduleDueDigests(db, tasks, { publicUrl: options.publicUrl, log: options.log }), {
    firstDelayMs: 2_000,
    intervalMs: options.intervalMs ?? DIGEST_SCHEDULER_INTERVAL_MS,
    log: options.log,
  })
}
