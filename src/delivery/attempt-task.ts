// One attempt at an outbound delivery, whatever the receiver (webhooks, notification channels;
// docs/agents-and-notifications.md): each attempt is its own task. It reads the delivery, sends
// it as its kind says, and in one transaction logs the attempt, updates the delivery and
// (unless it was accepted or was the last) queues the next attempt after the schedule's wait.
// A paused receiver, a secret no key opens or a refused address is a failed attempt; after the
// last attempt the delivery is failed. An attempt that already ran (a task retried after a
// crash) is skipped; a crash between the send and the record sends the same delivery again,
// which receivers de-duplicate by its id.
import type { DB } from '../db/database.js'
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { OutboundUrlError } from '../security/outbound-url.js'
import { SecretKeyError } from '../security/secret-box.js'
import { typedAsWebhookLog, type DeliveryLog } from './delivery-log.js'

/** What one attempt came to, as the attempt log keeps it. */
export interface AttemptOutcome {
  /** the receiver's status code (an SMTP reply code for e-mail); null when no answer came */
  status: number | null
  /** why no answer came (or the answer was not a success), for the delivery log */
  error: string | null
  durationMs: number
}

/** What an attempt task carries: no secret, no payload (both are read when it runs). */
export interface AttemptTaskData {
  workspaceId: string
  deliveryId: string
  /** 1 for the first attempt */
  attempt: number
}

/** The columns of a delivery that every kind reads, beside its own. */
export interface DueDelivery {
  id: string
  state: string
  attempts: number
  /** whether the receiver is active (a paused one fails the delivery at once) */
  active: boolean
}

/** What sets one kind of delivery apart: where it is logged, how it is read and sent. */
export interface DeliveryKind<D extends DueDelivery> {
  log: DeliveryLog
  /** the task name its attempts are queued under */
  taskName: string
  /** a fixed task id per delivery and attempt: queuing the same attempt twice queues it once */
  taskId(deliveryId: string, attempt: number): string
  /** names the kind in the warning logged for a failed attempt ("webhook delivery attempt failed") */
  noun: string
  /** the attempt's error when the receiver is not active */
  inactiveError: string
  /** the delivery with its receiver; undefined when it is gone (with its receiver) */
  load(trx: DB, workspaceId: string, deliveryId: string): Promise<D | undefined>
  /** sends it; a SecretKeyError or OutboundUrlError thrown is a failed attempt, anything else fails the task */
  send(delivery: D, workspaceId: string): Promise<AttemptOutcome>
  /** whether the receiver took it */
  accepted(outcome: AttemptOutcome, delivery: D): boolean
}

export interface AttemptTaskOptions {
  /** seconds before each retry; attempts = retrySchedule.length + 1 */
  retrySchedule: number[]
  /** longer than one attempt can take, so a live attempt is never presumed lost */
  expireInSeconds: number
  log?: { warn(obj: unknown, msg: string): void }
  /** receivers answering at once on one instance */
  concurrency?: number
}

export function deliveryAttemptTask<D extends DueDelivery>(kind: DeliveryKind<D>, options: AttemptTaskOptions): TaskDefinition<AttemptTaskData> {
  const tables = typedAsWebhookLog(kind.log)
  return {
    concurrency: options.concurrency ?? 4,
    // Failed sends are not thrown: they are logged and rescheduled here. pg-boss's own
    // retries cover only a failure to read or record (the database was away).
    retryLimit: 5,
    retryDelaySeconds: 5,
    expireInSeconds: options.expireInSeconds,
    async handle(task) {
      const { workspaceId, deliveryId, attempt } = task.data
      const delivery = await inWorkspace(task.db, workspaceId, (trx) => kind.load(trx, workspaceId, deliveryId))
      // Gone with its receiver, finished, or this attempt already recorded.
      if (!delivery || delivery.state !== 'pending' || delivery.attempts >= attempt) return

      let outcome: AttemptOutcome
      let final = attempt > options.retrySchedule.length
      if (!delivery.active) {
        outcome = { status: null, error: kind.inactiveError, durationMs: 0 }
        final = true
      } else {
        try {
          outcome = await kind.send(delivery, workspaceId)
        } catch (error) {
          if (!(error instanceof SecretKeyError || error instanceof OutboundUrlError)) throw error
          outcome = { status: null, error: error.message, durationMs: 0 }
        }
      }
      const accepted = kind.accepted(outcome, delivery)
      if (!accepted) options.log?.warn({ workspaceId, deliveryId, attempt, status: outcome.status, error: outcome.error }, `${kind.noun} delivery attempt failed`)
      const wait = accepted || final ? undefined : options.retrySchedule[attempt - 1]
      await inWorkspace(task.db, workspaceId, async (trx) => {
        await trx
          .insertInto(tables.attempts)
          .values({ workspace_id: workspaceId, delivery_id: deliveryId, attempt, status_code: outcome.status, duration_ms: outcome.durationMs, error: outcome.error })
          .onConflict((oc) => oc.columns(['workspace_id', 'delivery_id', 'attempt']).doNothing())
          .execute()
        const now = new Date()
        await trx
          .updateTable(tables.deliveries)
          .set({
            attempts: attempt,
            last_status: outcome.status,
            last_error: outcome.error,
            state: accepted ? 'delivered' : wait === undefined ? 'failed' : 'pending',
            next_attempt_at: wait === undefined ? null : new Date(now.getTime() + wait * 1000),
            finished_at: wait === undefined ? now : null,
          })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', deliveryId)
          .execute()
        if (wait !== undefined) {
          const next: AttemptTaskData = { workspaceId, deliveryId, attempt: attempt + 1 }
          await task.tasks.send(kind.taskName, next, { db: trx, startAfterSeconds: wait, id: kind.taskId(deliveryId, attempt + 1) })
        }
      })
    },
  }
}
