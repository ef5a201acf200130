// Emitting to notification channels, as src/webhooks/emit.ts does for webhooks: one delivery
// per active channel subscribed to the event, its first attempt queued as a task in the
// caller's transaction (a rolled-back run notifies nobody).
import type { DB } from '../db/database.js'
import type { AttemptTaskData } from '../delivery/attempt-task.js'
import { newId } from '../db/ids.js'
import { inWorkspace } from '../db/tenant-scope.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { deliveryAttemptTaskId, webhookPayload } from '../webhooks/events.js'
import { getSubscribedReceivers } from '../queries/deliveries/get-subscribed-receivers.js'
import { NOTIFICATION_DELIVERY, type NotificationEvent, type NotificationEventData } from './events.js'

/** What an attempt task carries: no target, no payload (both are read when it runs). */
export type NotificationTaskData = AttemptTaskData

/** A fixed task id per delivery and attempt: queuing the same attempt twice queues it once. */
export const notificationAttemptTaskId = (deliveryId: string, attempt: number): string => deliveryAttemptTaskId('notification', deliveryId, attempt)

/** Records one delivery of `type` for one channel and queues its first attempt; `db` is scoped to the workspace. */
export async function queueNotification(db: DB, workspaceId: string, channelId: string, type: string, data: object, tasks: TaskSender): Promise<string> {
  const id = newId()
  await db
    .insertInto('notification_delivery')
    .values({ workspace_id: workspaceId, id, channel_id: channelId, event: type, payload: webhookPayload(type, data), next_attempt_at: new Date() })
    .execute()
  const task: NotificationTaskData = { workspaceId, deliveryId: id, attempt: 1 }
  await tasks.send(NOTIFICATION_DELIVERY, task, { db, id: notificationAttemptTaskId(id, 1) })
  return id
}

/** Notifies the workspace's channels subscribed to `event`; returns the deliveries queued. */
export async function emitNotificationEvent<E extends NotificationEvent>(
  db: DB,
  workspaceId: string,
  event: E,
  data: NotificationEventData[E] | object,
  tasks: TaskSender,
): Promise<string[]> {
  return inWorkspace(db, workspaceId, async (trx) => {
    const ids: string[] = []
    for (const channelId of await getSubscribedReceivers(trx, workspaceId, 'notification_channel', event))
      ids.push(await queueNotification(trx, workspaceId, channelId, event, data, tasks))
    return ids
  })
}

/** Whether any active channel of the workspace subscribes to `event`; `db` scoped to the workspace. */
export async function hasChannelSubscribers(db: DB, workspaceId: string, event: NotificationEvent): Promise<boolean> {
  return (await getSubscribedReceivers(db, workspaceId, 'notification_channel', event)).length > 0
}
