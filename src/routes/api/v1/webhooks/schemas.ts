import { Type } from 'typebox'
import { Envelope, ErrorEnvelope, IsoDateTime, Page, PaginationWithNav, PerPage, Responses, UuidParam } from '../../../../http/schemas.js'
import { MAX_WEBHOOKS_PER_WORKSPACE, TEST_EVENT, WEBHOOK_EVENTS } from '../../../../webhooks/events.js'

export const DELIVERIES_PER_PAGE = 20

const access = { scopes: ['manage:workspace' as const] }
const tags = ['webhooks']
const noQuery = Type.Object({}, { additionalProperties: false })
const webhookParams = Type.Object({ webhook_id: UuidParam('Webhook id') })

const webhookFields = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  created_at: IsoDateTime,
}

export const Webhook = Type.Object(webhookFields, { additionalProperties: false })

const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({
      description: 'Signing secret (`whsec_…`) for verifying deliveries with any Standard Webhooks library. Shown only in this answer: store it now.',
    }),
  },
  { additionalProperties: false },
)

const DeliveryAttempt = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when it did not answer" }),
    duration_ms: Type.Integer({ minimum: 0 }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed (e.g. "receiver answered 500", "connection refused"); null on success' }),
    at: IsoDateTime,
  },
  { additionalProperties: false },
)

export const Delivery = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Sent as the `webhook-id` header on every attempt: the same across retries' }),
    event: Type.String(),
    state: Type.Enum(['pending', 'delivered', 'failed']),
    payload: Type.Unknown({ description: 'The body sent: {type, timestamp, data}' }),
    created_at: IsoDateTime,
    next_attempt_at: Type.Union([IsoDateTime, Type.Null()], { description: 'When the next attempt is due while pending; null once finished' }),
    finished_at: Type.Union([IsoDateTime, Type.Null()]),
    last_status: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    attempts: Type.Array(DeliveryAttempt, { description: 'Every attempt made so far, oldest first' }),
  },
  { additionalProperties: false },
)

export const createWebhookRoute = {
  config: { access },
  schema: {
    summary: 'Create a webhook',
    description: `Subscribes a URL to events; deliveries are signed per Standard Webhooks. The answer carries the signing secret, shown only this once. The URL must be http(s) and may not point at private, loopback or link-local addresses (private ones are allowed when the server sets WEBHOOK_ALLOW_PRIVATE=true). At most ${MAX_WEBHOOKS_PER_WORKSPACE} per workspace. Needs BEACON_SECRET_KEY on the server (503 without it). Scope manage:workspace.`,
    tags,
    querystring: noQuery,
    body: Type.Object(
      {
        url: Type.String({ minLength: 1, maxLength: 2000, description: 'Where to POST events: an absolute http:// or https:// URL' }),
        events: Type.Array(Type.Enum([...WEBHOOK_EVENTS]), { minItems: 1, maxItems: WEBHOOK_EVENTS.length * 4, description: 'Events to receive' }),
      },
      { additionalProperties: false },
    ),
    response: Responses(Envelope(CreatedWebhook, { message: true }), 201),
  },
}

export const listWebhooksRoute = {
  config: { access },
  schema: {
    summary: 'List webhooks',
    description: 'Every webhook of the workspace, oldest first; secrets are never shown. Scope manage:workspace.',
    tags,
    querystring: noQuery,
    response: Responses(Envelope(Type.Object({ webhooks: Type.Array(Webhook) }, { additionalProperties: false }), { message: false })),
  },
}

export const getWebhookRoute = {
  config: { access },
  schema: {
    summary: 'A webhook',
    description: 'One webhook (no secret). Scope manage:workspace.',
    tags,
    params: webhookParams,
    querystring: noQuery,
    response: Responses(Envelope(Webhook, { message: false })),
  },
}

export const deleteWebhookRoute = {
  config: { access },
  schema: {
    summary: 'Delete a webhook',
    description: 'Stops deliveries to it (pending retries included) and deletes its delivery log. Scope manage:workspace.',
    tags,
    params: webhookParams,
    querystring: noQuery,
    response: Responses(Envelope(Type.Object({ id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) }, { additionalProperties: false }), { message: true })),
  },
}

export const testWebhookRoute = {
  config: { access },
  schema: {
    summary: 'Send a test event',
    description: `Queues a \`${TEST_EVENT}\` delivery to this webhook (whatever events it subscribes to), delivered and retried like any other; follow it in GET /api/v1/webhooks/{webhook_id}/deliveries. Scope manage:workspace.`,
    tags,
    params: webhookParams,
    querystring: noQuery,
    response: {
      202: Envelope(Type.Object({ delivery_id: Type.String({ format: 'uuid' }), state: Type.Literal('pending') }, { additionalProperties: false }), { message: true }),
      '4xx': ErrorEnvelope,
      '5xx': ErrorEnvelope,
    },
  },
}

export const listDeliveriesRoute = {
  config: { access },
  schema: {
    summary: "A webhook's delivery log",
    description: 'Deliveries to this webhook, newest first, each with every attempt (status code, duration, error). Scope manage:workspace.',
    tags,
    params: webhookParams,
    querystring: Type.Object({ page: Page, per_page: PerPage(DELIVERIES_PER_PAGE) }, { additionalProperties: false }),
    response: Responses(Envelope(Type.Object({ deliveries: Type.Array(Delivery), pagination: PaginationWithNav }, { additionalProperties: false }), { message: false })),
  },
}
