import { Type } from 'typebox'
import { AnalyticsFilters, BooleanParam, Envelope, IsoDateTime, Page, PaginationMinimal, PerPage, Responses } from '../../../../http/schemas.js'

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
