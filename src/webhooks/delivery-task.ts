// Delivering a webhook: the shared attempt task (src/delivery/attempt-task.ts) with the
// webhook's own reading and sending. It signs the stored body with the webhook's secret and
// POSTs it; a 2xx answer is a delivery, anything else, no answer or a refused address is a
// failed attempt. A crash between the POST and the record sends the same webhook-id again,
// which receivers de-duplicate.
import { deliveryAttemptTask, type AttemptTaskData } from '../delivery/attempt-task.js'
import { WEBHOOK_DELIVERY_LOG } from '../delivery/delivery-log.js'
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { SecretBox } from '../security/secret-box.js'
import { parseOutboundUrl, type Resolver } from '../security/outbound-url.js'
import { attemptTaskId } from './emit.js'
import { secretContext, WEBHOOK_DELIVERY } from './events.js'
import { postWebhook } from './post-webhook.js'
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

export function webhookDeliveryTask(options: DeliveryOptions): TaskDefinition<AttemptTaskData> {
  const policy = { allowPrivate: options.allowPrivate, resolver: options.resolver }
  return deliveryAttemptTask(
    {
      log: WEBHOOK_DELIVERY_LOG,
      taskName: WEBHOOK_DELIVERY,
      taskId: attemptTaskId,
      noun: 'webhook',
      inactiveError: 'the webhook is inactive',
      load: (trx, workspaceId, deliveryId) =>
        trx
          .selectFrom('webhook_delivery as d')
          .innerJoin('webhook as w', (join) => join.onRef('w.workspace_id', '=', 'd.workspace_id').onRef('w.id', '=', 'd.webhook_id'))
          .select(['d.id', 'd.state', 'd.attempts', 'd.payload', 'w.id as webhook_id', 'w.url', 'w.secret_sealed', 'w.active'])
          .where('d.workspace_id', '=', workspaceId)
          .where('d.id', '=', deliveryId)
          .executeTakeFirst(),
      send: async (delivery, workspaceId) => {
        const secret = SecretBox.fromKeys(options).open(delivery.secret_sealed, secretContext(workspaceId, delivery.webhook_id))
        return postWebhook(parseOutboundUrl(delivery.url), delivery.payload, signatureHeaders(secret, delivery.id, delivery.payload), { timeoutMs: options.timeoutMs, policy })
      },
      accepted: (outcome) => outcome.status !== null && outcome.status >= 200 && outcome.status < 300,
    },
    // Longer than one attempt can take, so a live attempt is never presumed lost.
    { retrySchedule: options.retrySchedule, expireInSeconds: Math.ceil(options.timeoutMs / 1000) * 2 + 60, log: options.log, concurrency: options.concurrency },
  )
}
