import { Type } from 'typebox'
import { PeriodChangeTest, SampleSize, VisibilityCi } from '../../../../http/uncertainty-schemas.js'
import { AnalyticsFilters, Envelope, IsoDate, IsoDateTime, Page, PaginationPlain, Responses, UuidParam } from '../../../../http/schemas.js'

// No default here on purpose: an absent per_page means "every prompt on one page" (docs/api-conventions.md).
const OptionalPerPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page, 1 to 100. Without it every prompt comes on one page.' }))

export const PromptListQuery = Type.Object(
  {
    brand_id: UuidParam('The brand whose visibility is measured per prompt (required).'),
    ...AnalyticsFilters,
    page: Page,
    per_page: OptionalPerPage,
  },
  { additionalProperties: false },
)

const PromptRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    text: Type.String(),
    tags: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    performance: Type.Object(
      {
        response_count: Type.Integer({ description: 'Responses in the period to this prompt, after the filters' }),
        avg_visibility: Type.Number({ description: '100 × responses mentioning brand_id / response_count; 0 when there are none' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

export const getPromptsSchema = {
  summary: 'Prompt templates and how they perform for a brand',
  description:
    'Every active prompt of the workspace (restricted to prompts having any of `tags`), with the responses to it in the period and the share of them that mention `brand_id`. Sorted by response_count descending, then text. Without page/per_page every prompt comes on one page.',
  tags: ['analytics'],
  querystring: PromptListQuery,
  response: Responses(Envelope(Type.Object({ prompts: Type.Array(PromptRecord), pagination: PaginationPlain }, { additionalProperties: false }), { message: false })),
}

export const PromptDetailQuery = Type.Object({ ...AnalyticsFilters }, { additionalProperties: false })

const PeriodMetrics = Type.Object(
  {
    response_count: Type.Integer(),
    responses_with_mentions: Type.Integer({ description: 'Responses mentioning at least one active brand' }),
    brands_mentioned: Type.Integer({ description: 'Distinct active brands mentioned' }),
    avg_sentiment: Type.Number({ description: 'Mean response sentiment (-1 to 1), empty responses skipped; 0 when none' }),
  },
  { additionalProperties: false },
)

const Period = { start: IsoDate, end: IsoDate }

const PromptDetail = Type.Object(
  {
    prompt: Type.Object(
      { id: Type.String({ format: 'uuid' }), text: Type.String(), tags: Type.Array(Type.String()), is_active: Type.Boolean(), created_at: IsoDateTime },
      { additionalProperties: false },
    ),
    period: Type.Object(Period, { additionalProperties: false }),
    metrics: PeriodMetrics,
    previous_period: Type.Object(
      { ...Period, metrics: PeriodMetrics },
      { additionalProperties: false, description: 'The period of equal length just before `period`, same filters' },
    ),
    change: Type.Object(
      {
        response_count: Type.Integer(),
        responses_with_mentions: Type.Integer(),
        avg_sentiment: Type.Number(),
      },
      { additionalProperties: false, description: 'metrics minus previous_period.metrics (absolute differences)' },
    ),
    brands: Type.Array(
      Type.Object(
        {
          brand_id: Type.String({ format: 'uuid' }),
          name: Type.String(),
          is_primary: Type.Boolean(),
          visibility_score: Type.Number({ description: '0-100: responses to this prompt mentioning the brand / response_count' }),
          visibility_ci: VisibilityCi,
          responses: SampleSize,
          visibility_change: PeriodChangeTest,
          mention_count: Type.Integer({ description: 'Occurrences of the brand over those responses' }),
          share_of_voice: Type.Number({ description: '0-100: the brand’s mentions / all active brands’ mentions' }),
          sentiment_avg: Type.Number(),
          position_avg: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { description: 'Every active brand, sorted by visibility_score descending, then name' },
    ),
    by_provider: Type.Array(
      Type.Object(
        {
          provider: Type.String(),
          response_count: Type.Integer(),
          brands: Type.Record(Type.String(), Type.Number(), { description: 'Brand name → visibility_score among this provider’s responses' }),
        },
        { additionalProperties: false },
      ),
      { description: 'All four providers, zero-filled' },
    ),
    daily_trend: Type.Array(Type.Object({ date: IsoDate, response_count: Type.Integer() }, { additionalProperties: false }), {
      description: 'Every day of the period, zero-filled',
    }),
    top_sources: Type.Array(Type.Object({ domain: Type.String(), citation_count: Type.Integer() }, { additionalProperties: false }), {
      description: 'The 10 most cited domains in responses to this prompt',
    }),
  },
  { additionalProperties: false },
)

export const getPromptSchema = {
  summary: 'One prompt template in detail',
  description:
    'Metrics of the responses to one prompt for the period (same filters as the other analytics endpoints), the previous period of equal length and the change, every active brand’s visibility, per-provider visibility, a daily response trend and the top cited domains. Prompts of any state are shown; an id of another workspace is 404.',
  tags: ['analytics'],
  params: Type.Object({ prompt_id: UuidParam('Prompt template id') }, { additionalProperties: false }),
  querystring: PromptDetailQuery,
  response: Responses(Envelope(PromptDetail, { message: false })),
}
