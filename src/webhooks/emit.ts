// Emitting an event: one delivery per active webhook of the workspace that subscribes to
// it, each with its first attempt queued as a task. Given the caller's transaction, the
// deliveries and their tasks exist only once the caller's write commits (a rolled-back run
// notifies nobody).
import type { DB } from '../db/database.js'
import type { AttemptTaskData } from '../delivery/attempt-task.js'
import { newId } from '../db/ids.js'
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { deliveryAttemptTaskId, WEBHOOK_DELIVERY, webhookPayload, type WebhookEvent, type WebhookEventData } from './events.js'
import { emitNotificationEvent, hasChannelSubscribers } from '../notifications/emit.js'
import { getSubscribedReceivers } from '../queries/deliveries/get-subscribed-receivers.js'

/** What a delivery attempt task carries: no secret, no payload (both are read when it runs). */
export type DeliveryTaskData = AttemptTaskData

/** A fixed task id per delivery and attempt: queuing the same attempt twice queues it once. */
export const attemptTaskId = (deliveryId: string, attempt: number): string => deliveryAttemptTaskId('webhook', deliveryId, attempt)

/** Records one delivery of `type` for one webhook and queues its first attempt; `db` is a transaction scoped to the workspace. */
export async function queueDelivery(db: DB, workspaceId: string, webhookId: string, type: string, data: object, tasks: TaskSender): Promise<string> {
  const id = newId()
  await db
    .insertInto('webhook_delivery')
    .values({ workspace_id: workspaceId, id, webhook_id: webhookId, event: type, payload: webhookPayload(type, data), next_attempt_at: new Date() })
    .execute()
  const task: DeliveryTaskData = { workspaceId, deliveryId: id, attempt: 1 }
  await tasks.send(WEBHOOK_DELIVERY, task, { db, id: attemptTaskId(id, 1) })
  return id
}

/**
 * Notifies the workspace's webhooks subscribed to `event`: returns the ids of the
 * deliveries queued (none when nothing subscribes). `db` may be the caller's transaction
 * (recommended: the deliveries then commit with the caller's write); otherwise one is opened.
 */
export async function emitWebhookEvent<E extends WebhookEvent>(db: DB, workspaceId: string, event: E, data: WebhookEventData[E], tasks: TaskSender): Promise<string[]> {
  // Row-level security: a job's connection names the workspace (a request's already does).
  return inWorkspace(db, workspaceId, async (trx) => {
    const ids: string[] = []
    for (const webhookId of await getSubscribedReceivers(trx, workspaceId, 'webhook', event)) ids.push(await queueDelivery(trx, workspaceId, webhookId, event, data, tasks))
    // Slack and e-mail channels hear the same events (docs/agents-and-notifications.md).
    await emitNotificationEvent(trx, workspaceId, event, data, tasks)
    return ids
  })
}

/** Whether any active webhook or notification channel of the workspace subscribes to `event` (skip costly event data when none does); `db` scoped to the workspace. */
export async function hasSubscribers(db: DB, workspaceId: string, event: WebhookEvent): Promise<boolean> {
  return (await getSubscribedReceivers(db, workspaceId, 'webhook', event)).length > 0 || (await hasChannelSubscribers(db, workspaceId, event))
}
