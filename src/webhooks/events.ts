import { createHash } from 'node:crypto'

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

/** The body every attempt of a delivery sends, to a webhook or a channel (Standard Webhooks: type, timestamp, data). */
export const webhookPayload = (type: string, data: object, now: Date = new Date()) => JSON.stringify({ type, timestamp: now.toISOString(), data })

/**
 * A fixed task id per delivery and attempt (`kind` is `webhook` or `notification`): queuing the
 * same attempt twice queues it once. A UUID shape, as the job queue's ids are.
 */
export function deliveryAttemptTaskId(kind: 'webhook' | 'notification', deliveryId: string, attempt: number): string {
  const hex = createHash('sha256').update(`${kind}-attempt:${deliveryId}:${attempt}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
