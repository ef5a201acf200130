import { Type } from 'typebox'
import { BooleanParam, EndDate, Envelope, IsoDate, Responses, StartDate, Tags, UuidParam } from '../../../../http/schemas.js'
import { RatioCi } from '../../../../http/uncertainty-schemas.js'

const TargetBrand = Type.Optional(UuidParam('Report on this brand only (any brand of the workspace). Default: every active brand.'))

// The spec lists no provider/model filters here: AI overviews come from one search engine.
// include_uncertainty is Beacon's (docs/uncertainty-and-discovery.md): without it the answer is exactly the spec's.
export const AioMetricsQuery = Type.Object(
  {
    start_date: StartDate,
    end_date: EndDate,
    tags: Tags,
    target_brand_id: TargetBrand,
    include_uncertainty: Type.Optional(
      BooleanParam('Beacon extension: add Wilson 95% intervals (coverage_rate_ci, and appearance_rate_ci per brand). Absent or false: the spec fields only.'),
    ),
  },
  { additionalProperties: false },
)

export const PromptAioMetricsQuery = Type.Object({ start_date: StartDate, end_date: EndDate, target_brand_id: TargetBrand }, { additionalProperties: false })

const AioMetrics = Type.Object(
  {
    coverage_rate: Type.Number({ description: 'queries_with_aio / total_queries, 0 to 1; 0 when there are no queries' }),
    coverage_rate_ci: Type.Optional(RatioCi),
    total_queries: Type.Integer({ description: 'AI-overview observations in the period' }),
    queries_with_aio: Type.Integer({ description: 'Observations where an AI overview was shown' }),
    brand_coverage: Type.Record(
      Type.String(),
      Type.Object(
        {
          appearance_rate: Type.Number({ description: 'total_appearances / queries_with_aio, 0 to 1' }),
          avg_position: Type.Number({ description: 'Mean position in the overviews it appears in; 0 when none' }),
          total_appearances: Type.Integer({ description: 'Overviews the brand appears in' }),
          appearance_rate_ci: Type.Optional(RatioCi),
        },
        { additionalProperties: false },
      ),
      { description: 'Brand name → coverage; every active brand, or only target_brand_id' },
    ),
    trend: Type.Array(Type.Object({ date: IsoDate, coverage_rate: Type.Number() }, { additionalProperties: false }), {
      description: 'Per day that has observations, ascending',
    }),
  },
  { additionalProperties: false },
)

export const getAioMetricsSchema = {
  summary: 'AI-overview (AIO) coverage and brand appearances',
  description: 'Over the AI-overview observations in the period (prompts restricted by `tags`, OR-ed).',
  tags: ['analytics'],
  querystring: AioMetricsQuery,
  response: Responses(Envelope(AioMetrics, { message: true })),
}

const PromptAioMetrics = Type.Object(
  {
    prompt_id: Type.String({ format: 'uuid' }),
    prompt_text: Type.String(),
    coverage_rate: Type.Number({ description: 'queries_with_aio / total_queries, 0 to 1' }),
    total_queries: Type.Integer(),
    queries_with_aio: Type.Integer(),
    brand_appearances: Type.Record(Type.String(), Type.Integer(), { description: 'Brand name → overviews it appears in; every active brand, or only target_brand_id' }),
  },
  { additionalProperties: false },
)

export const getPromptAioMetricsSchema = {
  summary: 'AI-overview coverage of one prompt',
  tags: ['analytics'],
  params: Type.Object({ prompt_id: UuidParam('Prompt template id') }, { additionalProperties: false }),
  querystring: PromptAioMetricsQuery,
  response: Responses(Envelope(PromptAioMetrics, { message: false })),
}
