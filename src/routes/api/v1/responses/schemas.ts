import { Type } from 'typebox'
import { AnalyticsFilters, BooleanParam, Envelope, IsoDateTime, Page, PaginationMinimal, PerPage, Responses, UuidParam } from '../../../../http/schemas.js'
import { SOURCE_TYPES } from '../sources/schemas.js'

export const RESPONSES_PER_PAGE = 20

export const ResponsesQuery = Type.Object(
  {
    ...AnalyticsFilters,
    has_content: Type.Optional(BooleanParam('true: only responses with text; false: only empty ones. Absent: both.')),
    page: Page,
    per_page: PerPage(RESPONSES_PER_PAGE),
  },
  { additionalProperties: false },
)

const ResponseRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    provider: Type.String(),
    model: Type.String(),
    content_preview: Type.String({ description: 'The first 200 characters (Unicode code points) of the content; the full text is in the chat-responses export' }),
    created_at: IsoDateTime,
  },
  { additionalProperties: false },
)

export const getResponsesSchema = {
  summary: 'Stored AI responses',
  description: 'Responses in the period matching the filters, newest first (then by id), with a 200-character preview. page defaults to 1, per_page to 20 (at most 100).',
  tags: ['analytics'],
  querystring: ResponsesQuery,
  response: Responses(Envelope(Type.Object({ responses: Type.Array(ResponseRecord), pagination: PaginationMinimal }, { additionalProperties: false }), { message: false })),
}

const Span = Type.Object(
  {
    start: Type.Integer({ minimum: 0, description: 'UTF-16 code unit offset into content (inclusive)' }),
    end: Type.Integer({ minimum: 0, description: 'UTF-16 code unit offset into content (exclusive)' }),
  },
  { additionalProperties: false },
)

const ResponseDetail = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    prompt_id: Type.String({ format: 'uuid' }),
    prompt: Type.String({ description: 'The prompt template text' }),
    provider: Type.String(),
    model: Type.String(),
    content: Type.String({ description: 'The full answer' }),
    created_at: IsoDateTime,
    sentiment: Type.Union([Type.Number(), Type.Null()], { description: 'Sentiment of the whole answer, -1..1 (3 decimals); null for an empty answer' }),
    mentions: Type.Array(
      Type.Object(
        {
          brand_id: Type.String({ format: 'uuid' }),
          name: Type.String(),
          occurrences: Type.Integer(),
          position: Type.Integer({ description: '1 = named first' }),
          sentiment: Type.Union([Type.Number(), Type.Null()]),
          spans: Type.Array(Span, { description: 'Where the brand is named, from the same matcher as analysis' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Brands named in the answer, by position' },
    ),
    citations: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          domain: Type.String(),
          title: Type.String(),
          source_type: Type.Enum([...SOURCE_TYPES]),
        },
        { additionalProperties: false },
      ),
    ),
    search_queries: Type.Array(Type.String(), {
      description:
        'The web searches the engine ran itself for this answer (query fan-out), in its order, as it sent them; empty when it searched nothing or the source did not say',
    }),
  },
  { additionalProperties: false },
)

export const getResponseSchema = {
  summary: 'One stored AI response in full',
  description:
    'An extension (docs/dashboard.md): the full answer with its prompt, the brands it mentions with their spans (UTF-16 offsets into content) and its citations with source types and the web searches the engine ran for it (search_queries). An id of another workspace is 404.',
  tags: ['analytics'],
  params: Type.Object({ response_id: UuidParam('Response id (see GET /api/v1/responses)') }, { additionalProperties: false }),
  response: Responses(Envelope(ResponseDetail, { message: false })),
}
