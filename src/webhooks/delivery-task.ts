// Delivering: each attempt is its own task. It reads the delivery, signs the stored body
// with the webhook's secret, POSTs it, and in one transaction logs the attempt, updates the
// delivery and (unless it succeeded or was the last) queues the next attempt after the
// schedule's wait. A 2xx answer is a delivery; anything else, no answer or a refused
// address is a failed attempt. After the last attempt the delivery is failed.
// An attempt that already ran (a task retried after a crash) is skipped; a crash between
// the POST and the record sends the same webhook-id again, which receivers de-duplicate.
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { SecretBox, SecretKeyError } from '../security/secret-box.js'
import { parseOutboundUrl, OutboundUrlError, type Resolver } from '../security/outbound-url.js'
import { attemptTaskId, type DeliveryTaskData } from './emit.js'
import { secretContext, WEBHOOK_DELIVERY } from './events.js'
import { postWebhook, type PostOutcome } from './post-webhook.js'
import { signatureHeaders } from './signature.js'

export interface DeliveryOptions {
  /** BEACON_SECRET_KEY, to open the webhooks' secrets */
  secretKey: string | undefined
  /** BEACON_SECRET_KEY_PREVIOUS: during a rotation, opens secrets the old key sealed */
  secretKeyPrevious?: string | undefined
  timeoutMs: number
  /** seconds before each retry; attempts = retrySchedule.length + 1 */
  retrySchedule: number[]
  allowPrivate: boolean
  /** DNS for the connection (tests inject one); the system's by default */
  resolver?: Resolver
  log?: { warn(obj: unknown, msg: string): void }
  /** receivers answering at once on one instance */
  concurrency?: number
}

export function webhookDeliveryTask(options: DeliveryOptions): TaskDefinition<DeliveryTaskData> {
  const policy = { allowPrivate: options.allowPrivate, resolver: options.resolver }
  return {
    concurrency: options.concurrency ?? 4,
    // Failed POSTs are not thrown: they are logged and rescheduled here. pg-boss's own
    // retries cover only a failure to read or record (the database was away).
    retryLimit: 5,
    retryDelaySeconds: 5,
    // Longer than one attempt can take, so a live attempt is never presumed lost.
    expireInSeconds: Math.ceil(options.timeoutMs / 1000) * 2 + 60,
    async handle(task) {
      const { workspaceId, deliveryId, attempt } = task.data
      const row = await inWorkspace(task.db, workspaceId, (trx) =>
        trx
          .selectFrom('webhook_delivery as d')
          .innerJoin('webhook as w', (join) => join.onRef('w.workspace_id', '=', 'd.workspace_id').onRef('w.id', '=', 'd.webhook_id'))
          .select(['d.id', 'd.state', 'd.attempts', 'd.payload', 'w.id as webhook_id', 'w.url', 'w.secret_sealed', 'w.active'])
          .where('d.workspace_id', '=', workspaceId)
          .where('d.id', '=', deliveryId)
          .executeTakeFirst(),
      )
      // Gone with its webhook, finished, or this attempt already recorded.
      if (!row || row.state !== 'pending' || row.attempts >= attempt) return

      let outcome: PostOutcome
      let final = attempt > options.retrySchedule.length
      if (!row.active) {
        outcome = { status: null, error: 'the webhook is inactive', durationMs: 0 }
        final = true
      } else {
        try {
          const secret = SecretBox.fromKeys(options).open(row.secret_sealed, secretContext(workspaceId, row.webhook_id))
          outcome = await postWebhook(parseOutboundUrl(row.url), row.payload, signatureHeaders(secret, row.id, row.payload), { timeoutMs: options.timeoutMs, policy })
        } catch (error) {
          if (!(error instanceof SecretKeyError || error instanceof OutboundUrlError)) throw error
          outcome = { status: null, error: error.message, durationMs: 0 }
        }
      }
      const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300
      if (!delivered) options.log?.warn({ workspaceId, deliveryId, attempt, status: outcome.status, error: outcome.error }, 'webhook delivery attempt failed')
      const wait = delivered || final ? undefined : options.retrySchedule[attempt - 1]
      await inWorkspace(task.db, workspaceId, async (trx) => {
        await trx
          .insertInto('webhook_attempt')
          .values({ workspace_id: workspaceId, delivery_id: deliveryId, attempt, status_code: outcome.status, duration_ms: outcome.durationMs, error: outcome.error })
          .onConflict((oc) => oc.columns(['workspace_id', 'delivery_id', 'attempt']).doNothing())
          .execute()
        const now = new Date()
        await trx
          .updateTable('webhook_delivery')
          .set({
            attempts: attempt,
            last_status: outcome.status,
            last_error: outcome.error,
            state: delivered ? 'delivered' : wait === undefined ? 'failed' : 'pending',
            next_attempt_at: wait === undefined ? null : new Date(now.getTime() + wait * 1000),
            finished_at: wait === undefined ? now : null,
          })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', deliveryId)
          .execute()
        if (wait !== undefined) {
          const next: DeliveryTaskData = { workspaceId, deliveryId, attempt: attempt + 1 }
          await task.tasks.send(WEBHOOK_DELIVERY, next, { db: trx, startAfterSeconds: wait, id: attemptTaskId(deliveryId, attempt + 1) })
        }
      })
    },
  }
}
