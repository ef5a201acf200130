// Delivering to a notification channel: the shared attempt task (src/delivery/attempt-task.ts,
// with the webhooks' retry policy and delivery log; docs/agents-and-notifications.md) with the
// channel's own reading and sending. It opens the channel's sealed target and renders the
// event for Slack (Block Kit, POSTed to the incoming-webhook URL through postWebhook, whose
// request checks the address it connects to) or e-mail (nodemailer over SMTP_URL).
import { deliveryAttemptTask, type AttemptTaskData } from '../delivery/attempt-task.js'
import { CHANNEL_DELIVERY_LOG } from '../delivery/delivery-log.js'
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { SecretBox } from '../security/secret-box.js'
import { parseOutboundUrl } from '../security/outbound-url.js'
import type { DeliveryOptions } from '../webhooks/delivery-task.js'
import { postWebhook } from '../webhooks/post-webhook.js'
import { channelTargetContext, NOTIFICATION_DELIVERY } from './events.js'
import { notificationAttemptTaskId } from './emit.js'
import { renderNotification } from './render.js'
import { sendEmail } from './send-email.js'

/** The webhooks' options (keys, timeout, retry schedule, outbound policy), and what e-mail needs. */
export interface NotificationDeliveryOptions extends DeliveryOptions {
  smtpUrl: string | undefined
  emailFrom: string
  publicUrl: string | undefined
}

export function notificationDeliveryTask(options: NotificationDeliveryOptions): TaskDefinition<AttemptTaskData> {
  const policy = { allowPrivate: options.allowPrivate, resolver: options.resolver }
  return deliveryAttemptTask(
    {
      log: CHANNEL_DELIVERY_LOG,
      taskName: NOTIFICATION_DELIVERY,
      taskId: notificationAttemptTaskId,
      noun: 'notification',
      inactiveError: 'the channel is paused (active: false)',
      load: (trx, workspaceId, deliveryId) =>
        trx
          .selectFrom('notification_delivery as d')
          .innerJoin('notification_channel as c', (join) => join.onRef('c.workspace_id', '=', 'd.workspace_id').onRef('c.id', '=', 'd.channel_id'))
          .select(['d.id', 'd.state', 'd.attempts', 'd.event', 'd.payload', 'c.id as channel_id', 'c.kind', 'c.target_sealed', 'c.active'])
          .where('d.workspace_id', '=', workspaceId)
          .where('d.id', '=', deliveryId)
          .executeTakeFirst(),
      send: async (delivery, workspaceId) => {
        const target = SecretBox.fromKeys(options).open(delivery.target_sealed, channelTargetContext(workspaceId, delivery.channel_id))
        const body = JSON.parse(delivery.payload) as { data: unknown }
        const rendered = renderNotification(delivery.event, body.data, options.publicUrl)
        // Slack's incoming webhooks take {text, blocks} as JSON (https://api.slack.com/messaging/webhooks).
        if (delivery.kind === 'slack') return postWebhook(parseOutboundUrl(target), JSON.stringify(rendered.slack), {}, { timeoutMs: options.timeoutMs, policy })
        if (!options.smtpUrl) return { status: null, error: 'SMTP_URL is not set on the server', durationMs: 0 }
        return sendEmail({ smtpUrl: options.smtpUrl, from: options.emailFrom, timeoutMs: options.timeoutMs }, target.split(/,\s*/), rendered.email)
      },
      accepted: (outcome, delivery) => {
        const delivered = outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300
        // SMTP accepts with 250: a success too.
        return delivered || (delivery.kind === 'email' && outcome.error === null && outcome.status !== null && outcome.status < 400)
      },
    },
    // SMTP has three timeouts of timeoutMs each (connect, greeting, socket).
    { retrySchedule: options.retrySchedule, expireInSeconds: Math.ceil(options.timeoutMs / 1000) * 4 + 60, log: options.log, concurrency: options.concurrency },
  )
}
