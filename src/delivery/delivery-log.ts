// Where a kind of outbound delivery keeps its log: webhooks and notification channels each have
// a delivery table and an attempt table of the same shape (src/db/schema.ts: the notification
// tables are the webhook tables with channel_id for webhook_id), so one descriptor per kind is
// all that the shared delivery task and the delivery-log query need to tell them apart.

export interface DeliveryLog {
  /** one row per delivery: state, attempts made, when the next is due */
  deliveries: 'webhook_delivery' | 'notification_delivery'
  /** one row per attempt: what the receiver answered */
  attempts: 'webhook_attempt' | 'notification_attempt'
  /** the delivery table's column naming the receiver (webhook or channel) */
  owner: 'webhook_id' | 'channel_id'
}

export const WEBHOOK_DELIVERY_LOG = { deliveries: 'webhook_delivery', attempts: 'webhook_attempt', owner: 'webhook_id' } as const satisfies DeliveryLog

export const CHANNEL_DELIVERY_LOG = { deliveries: 'notification_delivery', attempts: 'notification_attempt', owner: 'channel_id' } as const satisfies DeliveryLog

/**
 * The log's tables under the webhook names, for Kysely's types: both kinds have the same
 * columns (only the owner's name differs, and it is given), so a statement typed on the
 * webhook tables reads and writes either kind's.
 */
export function typedAsWebhookLog(log: DeliveryLog): { deliveries: 'webhook_delivery'; attempts: 'webhook_attempt'; owner: 'webhook_id' } {
  return log as typeof WEBHOOK_DELIVERY_LOG
}
