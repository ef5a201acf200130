import { Type } from 'typebox'
import { Envelope, PROVIDERS, Responses } from '../../../../http/schemas.js'
import { MAX_BATCH_ITEMS } from '../../../../ingest/validate-items.js'

const externalId = Type.String({ minLength: 1, maxLength: 200, description: 'Your id for the item; a second item with the same id is a duplicate, not an error (safe retries)' })

export const ResponseItemSchema = Type.Object(
  {
    external_id: Type.Optional(externalId),
    prompt_id: Type.String({ format: 'uuid', description: 'A prompt of this workspace' }),
    provider: Type.Enum([...PROVIDERS]),
    model: Type.String({ minLength: 1, maxLength: 200, description: 'Model id; added to the catalogue on first sight' }),
    content: Type.String({ description: 'The answer text; may be empty (then sentiment is null)' }),
    created_at: Type.String({ format: 'date-time', description: 'When the answer was produced, ISO 8601 with time zone' }),
    citations: Type.Optional(
      Type.Array(Type.Object({ url: Type.String(), title: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, { additionalProperties: false }), {
        description: "The provider's cited sources; URLs in the content are added too",
      }),
    ),
  },
  { additionalProperties: false },
)

export const AioItemSchema = Type.Object(
  {
    external_id: Type.Optional(externalId),
    prompt_id: Type.String({ format: 'uuid' }),
    observed_at: Type.String({ format: 'date-time' }),
    has_aio: Type.Boolean({ description: 'Whether the search result showed an AI overview' }),
    overview_text: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
)

const IngestResult = Envelope(Type.Object({ accepted: Type.Integer(), duplicates: Type.Integer() }, { additionalProperties: false }), { message: false })
const access = { scopes: ['write:data' as const] }

// The handler validates items itself so one 400 lists every bad item (Ajv would stop at
// the first); the schema still documents the body.
export const ingestResponsesRoute = {
  config: { access },
  attachValidation: true,
  schema: {
    summary: 'Ingest AI responses',
    description: `At most ${MAX_BATCH_ITEMS} items per call, all-or-nothing: any invalid item gives 400 listing every bad index and why, and nothing is stored. Each new response is analysed (mentions, positions, sentiment, citations). Scope write:data.`,
    tags: ['ingestion'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ responses: Type.Array(ResponseItemSchema, { maxItems: MAX_BATCH_ITEMS }) }, { additionalProperties: false }),
    response: Responses(IngestResult),
  },
}

export const ingestAioRoute = {
  config: { access },
  attachValidation: true,
  schema: {
    summary: 'Ingest AI-overview observations',
    description: `Same rules as responses. Brands are found in overview_text, in order. Scope write:data.`,
    tags: ['ingestion'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ observations: Type.Array(AioItemSchema, { maxItems: MAX_BATCH_ITEMS }) }, { additionalProperties: false }),
    response: Responses(IngestResult),
  },
}
