// Delivering to a notification channel: one task per attempt, with the webhooks' retry
// policy and delivery log (src/webhooks/delivery-task.ts, docs/agents-and-notifications.md).
// It opens the channel's sealed target, renders the event for Slack (Block Kit, POSTed to the
// incoming-webhook URL through postWebhook, whose request checks the address it connects
// to) or e-mail (nodemailer over SMTP_URL), and in one transaction logs the attempt,
// updates the delivery and queues the next attempt when it failed and attempts remain.
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { SecretBox, SecretKeyError } from '../security/secret-box.js'
import { OutboundUrlError, parseOutboundUrl, type Resolver } from '../security/outbound-url.js'
import { postWebhook, type PostOutcome } from '../webhooks/post-webhook.js'
import { channelTargetContext, NOTIFICATION_DELIVERY } from './events.js'
import { notificationAttemptTaskId, type NotificationTaskData } from './emit.js'
import { renderNotification } from './render.js'
import { sendEmail } from './send-email.js'

export interface NotificationDeliveryOptions {
  secretKey: string | undefined
  secretKeyPrevious?: string | undefined
  timeoutMs: number
  /** the webhooks' schedule: seconds before each retry */
  retrySchedule: number[]
  allowPrivate: boolean
  smtpUrl: string | undefined
  emailFrom: string
  publicUrl: string | undefined
  resolver?: Resolver
  log?: { warn(obj: unknown, msg: string): void }
  concurrency?: number
}

export function notificationDeliveryTask(options: NotificationDeliveryOptions): TaskDefinition<NotificationTaskData> {
  const policy = { allowPrivate: options.allowPrivate, resolver: options.resolver }
  return {
    concurrency: options.concurrency ?? 4,
    retryLimit: 5,
    retryDelaySeconds: 5,
    // SMTP has three timeouts of timeoutMs each (connect, greeting, socket).
    expireInSeconds: Math.ceil(options.timeoutMs / 1000) * 4 + 60,
    async handle(task) {
      const { workspaceId, deliveryId, attempt } = task.data
      const row = await inWorkspace(task.db, workspaceId, (trx) =>
        trx
          .selectFrom('notification_delivery as d')
          .innerJoin('notification_channel as c', (join) => join.onRef('c.workspace_id', '=', 'd.workspace_id').onRef('c.id', '=', 'd.channel_id'))
          .select(['d.id', 'd.state', 'd.attempts', 'd.event', 'd.payload', 'c.id as channel_id', 'c.kind', 'c.target_sealed', 'c.active'])
          .where('d.workspace_id', '=', workspaceId)
          .where('d.id', '=', deliveryId)
          .executeTakeFirst(),
      )
      if (!row || row.state !== 'pending' || row.attempts >= attempt) return

      let outcome: PostOutcome
      let final = attempt > options.retrySchedule.length
      if (!row.active) {
        outcome = { status: null, error: 'the channel is paused (active: false)', durationMs: 0 }
        final = true
      } else {
        try {
          const target = SecretBox.fromKeys(options).open(row.target_sealed, channelTargetContext(workspaceId, row.channel_id))
          const body = JSON.parse(row.payload) as { data: unknown }
          const rendered = renderNotification(row.event, body.data, options.publicUrl)
          if (row.kind === 'slack') {
            // Slack's incoming webhooks take {text, blocks} as JSON (https://api.slack.com/messaging/webhooks).
            outcome = await postWebhook(parseOutboundUrl(target), JSON.stringify(rendered.slack), {}, { timeoutMs: options.timeoutMs, policy })
          } else if (!options.smtpUrl) {
            outcome = { status: null, error: 'SMTP_URL is not set on the server', durationMs: 0 }
          } else {
            outcome = await sendEmail({ smtpUrl: options.smtpUrl, from: options.emailFrom, timeoutMs: options.timeoutMs }, target.split(/,\s*/), rendered.email)
          }
        } catch (error) {
          if (!(error instanceof SecretKeyError || error instanceof OutboundUrlError)) throw error
          outcome = { status: null, error: error.message, durationMs: 0 }
        }
      }
      const delivered = outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300
      // SMTP accepts with 250: a success too.
      const accepted = delivered || (row.kind === 'email' && outcome.error === null && outcome.status !== null && outcome.status < 400)
      if (!accepted) options.log?.warn({ workspaceId, deliveryId, attempt, status: outcome.status, error: outcome.error }, 'notification delivery attempt failed')
      const wait = accepted || final ? undefined : options.retrySchedule[attempt - 1]
      await inWorkspace(task.db, workspaceId, async (trx) => {
        await trx
          .insertInto('notification_attempt')
          .values({ workspace_id: workspaceId, delivery_id: deliveryId, attempt, status_code: outcome.status, duration_ms: outcome.durationMs, error: outcome.error })
          .onConflict((oc) => oc.columns(['workspace_id', 'delivery_id', 'attempt']).doNothing())
          .execute()
        const now = new Date()
        await trx
          .updateTable('notification_delivery')
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
          const next: NotificationTaskData = { workspaceId, deliveryId, attempt: attempt + 1 }
          await task.tasks.send(NOTIFICATION_DELIVERY, next, { db: trx, startAfterSeconds: wait, id: notificationAttemptTaskId(deliveryId, attempt + 1) })
        }
      })
    },
  }
}
