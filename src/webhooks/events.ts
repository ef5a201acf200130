// The events a webhook can subscribe to (DESIGN §16), and the one only a test send emits.
export const WEBHOOK_EVENTS = ['collection.run.completed', 'collection.run.failed', 'visibility.changed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** Sent by POST /api/v1/webhooks/{id}/test to that webhook only, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test'

/** The task queue of delivery attempts (one task per attempt). */
export const WEBHOOK_DELIVERY = 'webhook_delivery'

/** A workspace's subscriptions are few; a cap keeps one event from fanning out without bound. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20

/** The context a webhook's secret is sealed under: a sealed secret copied to another row does not open. */
export const secretContext = (workspaceId: string, webhookId: string) => `webhook:${workspaceId}:${webhookId}`
