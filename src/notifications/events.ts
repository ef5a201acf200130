// What a notification channel can hear (docs/agents-and-notifications.md): the webhook
// events plus the weekly digest, and the one event only a test send emits.
import { WEBHOOK_EVENTS, type WebhookEventData } from '../webhooks/events.js'
import type { Digest } from '../digest/digest.js'

export const CHANNEL_KINDS = ['slack', 'email'] as const
export type ChannelKind = (typeof CHANNEL_KINDS)[number]

export const DIGEST_EVENT = 'digest.weekly'
export const NOTIFICATION_EVENTS = [...WEBHOOK_EVENTS, DIGEST_EVENT] as const
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number]

/** Sent by POST /api/v1/notifications/{id}/test to that channel only, whatever it subscribes to. */
export const NOTIFICATION_TEST_EVENT = 'notification.test'

/** The task queue of channel delivery attempts (one task per attempt, like webhooks'). */
export const NOTIFICATION_DELIVERY = 'notification_delivery'

/** A workspace's channels are few; a cap keeps one event from fanning out without bound. */
export const MAX_CHANNELS_PER_WORKSPACE = 20
/** One e-mail channel writes to at most this many addresses. */
export const MAX_EMAIL_RECIPIENTS = 20

/** Days as the API names them; stored as cron numbers (0 = Sunday). */
export const DIGEST_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const
export type DigestDay = (typeof DIGEST_DAYS)[number]

export interface DigestSchedule {
  day: DigestDay
  /** 0..23, local to `timezone` */
  hour: number
  /** IANA time zone, e.g. Europe/Berlin */
  timezone: string
}

/** When a channel subscribes to the digest without saying when: Monday 09:00 UTC. */
export const DEFAULT_DIGEST_SCHEDULE: DigestSchedule = { day: 'monday', hour: 9, timezone: 'UTC' }

/** The context a channel's target is sealed under: a sealed target copied to another row does not open. */
export const channelTargetContext = (workspaceId: string, channelId: string) => `notification-channel:${workspaceId}:${channelId}`

/** The `data` of each event a channel receives: the webhooks' own, plus the digest. */
export type NotificationEventData = WebhookEventData & { 'digest.weekly': Digest; 'notification.test': { channel_id: string; message: string } }
