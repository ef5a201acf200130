// Shared TypeBox building blocks. Route schemas compose these so validation, response
// serialization and the OpenAPI document all come from one definition.
import { Type, type TSchema } from 'typebox'
import { FIRST_PAGE } from '../core/pagination.js'
import { PROVIDERS } from '../core/providers.js'

/** A provider name in a response: documented as the enum, typed as the text the database holds. */
export const ProviderName = Type.Unsafe<string>(Type.Enum([...PROVIDERS]))

export const DateParam = (description: string) => Type.String({ format: 'date', description })
export const UuidParam = (description: string) => Type.String({ format: 'uuid', description })
export const BooleanParam = (description: string, defaultValue?: boolean) => Type.Boolean(defaultValue === undefined ? { description } : { description, default: defaultValue })

export const StartDate = Type.Optional(DateParam('First day included (YYYY-MM-DD, UTC). Default: 30 days before end_date.'))
export const EndDate = Type.Optional(DateParam('Last day included (YYYY-MM-DD, UTC). Default: today.'))
export const Models = Type.Optional(
  Type.Array(Type.Enum([...PROVIDERS]), {
    description: 'AI provider names (see /filters `providers`). Repeat the key, use a comma list or `models[]=`; values are OR-ed.',
  }),
)
export const ModelIds = Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { description: 'Model ids (see /filters `models[].id`); OR-ed.' }))
export const Tags = Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { description: 'Prompt template tags; OR-ed. Unknown tags match nothing.' }))
export const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: FIRST_PAGE, description: 'Page number, from 1.' }))
export const PerPage = (defaultValue: number, maximum = 100) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum, default: defaultValue, description: `Items per page, 1 to ${maximum}.` }))

/** Common analytics filters: the period plus provider/model/tag filters. */
export const AnalyticsFilters = { start_date: StartDate, end_date: EndDate, models: Models, model_ids: ModelIds, tags: Tags }

// Response fields: fast-json-stringify writes a Date held in a `date-time` field as its
// ISO 8601 string, so handlers may return the Date a query gives (typed here as such).
export const IsoDateTime = Type.Unsafe<Date | string>(Type.String({ format: 'date-time' }))
export const IsoDate = Type.String({ format: 'date' })

/** `{success, data}` or, where the spec lists it, `{success, data, message}`. */
export function Envelope<T extends TSchema>(data: T, options: { message: boolean }) {
  return options.message
    ? Type.Object({ success: Type.Literal(true), data, message: Type.String() }, { additionalProperties: false })
    : Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false })
}

/** The background job a write queued (GET /api/v1/jobs/{id} follows it). */
export const QueuedJob = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Follow it with GET /api/v1/jobs/{id}' }),
    state: Type.Literal('queued'),
  },
  { additionalProperties: false, description: 'Present when the write queued a background job (e.g. re-analysis of stored history)' },
)

/** `{success, data, job?, message}`: a write that may queue a background job. */
export function EnvelopeWithJob<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data, job: Type.Optional(QueuedJob), message: Type.String() }, { additionalProperties: false })
}

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable code, e.g. invalid_parameter, not_found, insufficient_scope' }),
      message: Type.String({ description: 'What went wrong and what to do about it' }),
      param: Type.Optional(Type.String({ description: 'The parameter at fault, when there is one' })),
      request_id: Type.String(),
      details: Type.Optional(Type.Unknown()),
    }),
  },
  { description: 'Every error has this shape.' },
)

/** Pagination objects differ per endpoint in the spec; each endpoint picks its fields. */
export const PaginationWithNav = Type.Object(
  {
    page: Type.Integer(),
    per_page: Type.Integer(),
    total_items: Type.Integer(),
    total_pages: Type.Integer(),
    has_next: Type.Boolean(),
    has_prev: Type.Boolean(),
  },
  { additionalProperties: false },
)
export const PaginationPlain = Type.Object(
  { page: Type.Integer(), per_page: Type.Integer(), total_items: Type.Integer(), total_pages: Type.Integer() },
  { additionalProperties: false },
)
export const PaginationMinimal = Type.Object({ page: Type.Integer(), per_page: Type.Integer(), total_items: Type.Integer() }, { additionalProperties: false })

/** Response map for a route: its success schema plus the shared error envelope. */
export function Responses<T extends TSchema>(ok: T, status: 200 | 201 | 202 = 200) {
  return { [status]: ok, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope } as { 200: T; '4xx': typeof ErrorEnvelope; '5xx': typeof ErrorEnvelope }
}
