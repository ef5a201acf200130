// The events a webhook can subscribe to (docs/agents-and-notifications.md), and the one only a test send emits.
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

/** A run as GET /api/v1/collection/runs/{id} shows it (docs/collection.md); only id and state are relied on here. */
export type RunSnapshot = { id: string; state: string } & Record<string, unknown>

/** One period of a brand's visibility: the share of answers naming it, with its sample size. */
export interface VisibilityPeriod {
  start_date: string
  end_date: string
  /** 0..1 */
  visibility: number
  responses: number
}

/**
 * The `data` of each event. collection.run.*: the run that ended. visibility.changed: one
 * brand whose visibility moved significantly between two periods after a run (docs/uncertainty-and-discovery.md's
 * two-proportion test; sent only when `significant` is true).
 */
export interface WebhookEventData {
  'collection.run.completed': { run: RunSnapshot }
  'collection.run.failed': { run: RunSnapshot }
  'visibility.changed': {
    run_id: string | null
    brand: { id: string; name: string }
    previous: VisibilityPeriod
    current: VisibilityPeriod
    change: { delta: number; p_value: number; significant: true }
  }
}
