// Notification channels (docs/agents-and-notifications.md): Slack incoming webhooks and
// e-mail recipients for the webhook events and the weekly digest.
import { Type } from 'typebox'
import { Envelope, ErrorEnvelope, IsoDateTime, Page, PaginationWithNav, PerPage, Responses, UuidParam } from '../../../../http/schemas.js'
import {
  CHANNEL_KINDS,
  DIGEST_DAYS,
  DIGEST_EVENT,
  MAX_CHANNELS_PER_WORKSPACE,
  MAX_EMAIL_RECIPIENTS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_TEST_EVENT,
} from '../../../../notifications/events.js'
import { Delivery } from '../webhooks/schemas.js'

export const CHANNEL_DELIVERIES_PER_PAGE = 20

const access = { scopes: ['manage:workspace' as const] }
const tags = ['notifications']
const noQuery = Type.Object({}, { additionalProperties: false })
const channelParams = Type.Object({ channel_id: UuidParam('Notification channel id') })

export const DigestScheduleSchema = Type.Object(
  {
    day: Type.Enum([...DIGEST_DAYS], { description: 'Day of the week the digest is sent' }),
    hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Hour of that day (0–23) in `timezone`' }),
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. "UTC", "Europe/Berlin", "America/New_York"' }),
  },
  { additionalProperties: false, description: `When the ${DIGEST_EVENT} digest is sent: weekly, at the start of this hour` },
)

const Events = Type.Array(Type.Enum([...NOTIFICATION_EVENTS]), {
  minItems: 1,
  maxItems: NOTIFICATION_EVENTS.length * 4,
  description: `Events to receive: the webhook events, and ${DIGEST_EVENT} (a weekly summary, sent on digest_schedule)`,
})

const Target = Type.String({
  minLength: 1,
  maxLength: 4000,
  description: `slack: the channel's incoming-webhook URL (https://hooks.slack.com/services/…). email: one or more addresses separated by commas (at most ${MAX_EMAIL_RECIPIENTS})`,
})

export const Channel = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.Enum([...CHANNEL_KINDS]),
    target: Type.String({ description: 'slack: the URL masked (host and last four characters; the URL is never shown again). email: the addresses' }),
    events: Type.Array(Type.String()),
    digest_schedule: Type.Union([DigestScheduleSchema, Type.Null()], { description: `null unless the channel receives ${DIGEST_EVENT}` }),
    active: Type.Boolean(),
    created_at: IsoDateTime,
  },
  { additionalProperties: false },
)

export const listChannelsRoute = {
  config: { access },
  schema: {
    summary: 'List notification channels',
    description: 'Every Slack and e-mail channel of the workspace, oldest first; Slack URLs only masked. Scope manage:workspace.',
    tags,
    querystring: noQuery,
    response: Responses(Envelope(Type.Object({ channels: Type.Array(Channel) }, { additionalProperties: false }), { message: false })),
  },
}

export const getChannelRoute = {
  config: { access },
  schema: {
    summary: 'A notification channel',
    description: 'One channel (its Slack URL masked). Scope manage:workspace.',
    tags,
    params: channelParams,
    querystring: noQuery,
    response: Responses(Envelope(Channel, { message: false })),
  },
}

export const createChannelRoute = {
  config: { access },
  schema: {
    summary: 'Create a notification channel',
    description: `A Slack channel (Block Kit messages to its incoming-webhook URL, which may not point at private, loopback or link-local addresses unless the server sets WEBHOOK_ALLOW_PRIVATE=true) or e-mail addresses (through the server's SMTP_URL; 503 without it). The target is stored encrypted and never shown again except masked. A channel with ${DIGEST_EVENT} gets the digest on digest_schedule (default Monday 09:00 UTC). Delivered and retried like webhooks; at most ${MAX_CHANNELS_PER_WORKSPACE} per workspace. Needs BEACON_SECRET_KEY on the server (503 without it). Scope manage:workspace.`,
    tags,
    querystring: noQuery,
    body: Type.Object(
      {
        kind: Type.Enum([...CHANNEL_KINDS], { description: 'slack or email' }),
        target: Target,
        events: Events,
        digest_schedule: Type.Optional(DigestScheduleSchema),
      },
      { additionalProperties: false },
    ),
    response: Responses(Envelope(Channel, { message: true }), 201),
  },
}

export const updateChannelRoute = {
  config: { access },
  schema: {
    summary: 'Change a notification channel',
    description:
      'Replaces the fields given: target (a new Slack URL or new addresses), events, digest_schedule, active (false pauses deliveries). The kind cannot change. Scope manage:workspace.',
    tags,
    params: channelParams,
    querystring: noQuery,
    body: Type.Object(
      {
        target: Type.Optional(Target),
        events: Type.Optional(Events),
        digest_schedule: Type.Optional(DigestScheduleSchema),
        active: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: Responses(Envelope(Channel, { message: true })),
  },
}

export const deleteChannelRoute = {
  config: { access },
  schema: {
    summary: 'Delete a notification channel',
    description: 'Stops deliveries to it (pending retries included) and deletes its delivery log. Scope manage:workspace.',
    tags,
    params: channelParams,
    querystring: noQuery,
    response: Responses(Envelope(Type.Object({ id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) }, { additionalProperties: false }), { message: true })),
  },
}

export const testChannelRoute = {
  config: { access },
  schema: {
    summary: 'Send a test notification',
    description: `Queues a \`${NOTIFICATION_TEST_EVENT}\` message to this channel (whatever it subscribes to), delivered and retried like any other; follow it in GET /api/v1/notifications/{channel_id}/deliveries. Scope manage:workspace.`,
    tags,
    params: channelParams,
    querystring: noQuery,
    response: {
      202: Envelope(Type.Object({ delivery_id: Type.String({ format: 'uuid' }), state: Type.Literal('pending') }, { additionalProperties: false }), { message: true }),
      '4xx': ErrorEnvelope,
      '5xx': ErrorEnvelope,
    },
  },
}

export const listChannelDeliveriesRoute = {
  config: { access },
  schema: {
    summary: "A notification channel's delivery log",
    description:
      "Deliveries to this channel, newest first, each with every attempt (status code: Slack's HTTP status, or the SMTP server's reply code; duration; error), as the webhooks' log. Scope manage:workspace.",
    tags,
    params: channelParams,
    querystring: Type.Object({ page: Page, per_page: PerPage(CHANNEL_DELIVERIES_PER_PAGE) }, { additionalProperties: false }),
    response: Responses(Envelope(Type.Object({ deliveries: Type.Array(Delivery), pagination: PaginationWithNav }, { additionalProperties: false }), { message: false })),
  },
}
