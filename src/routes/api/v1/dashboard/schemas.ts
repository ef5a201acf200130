import { Type } from 'typebox'
import { AnalyticsFilters, BooleanParam, Envelope, IsoDate, Responses } from '../../../../http/schemas.js'
import { PeriodChangeTest, SampleSize, VisibilityCi } from '../../../../http/uncertainty-schemas.js'

export const BrandMetricsSchema = Type.Object(
  {
    visibility_score: Type.Number({ description: '100 × responses in the period mentioning the brand / all responses in the period (0–100)' }),
    sentiment_avg: Type.Number({ description: 'Mean brand sentiment over the responses mentioning it (-1 to 1); 0 when not mentioned' }),
    position_avg: Type.Number({ description: 'Mean position (1 = named first) over the responses mentioning it; 0 when not mentioned' }),
    mention_count: Type.Integer({ description: 'Occurrences of the brand summed over the responses' }),
    // Beacon's extension (docs/uncertainty-and-discovery.md), present only with include_uncertainty=true.
    visibility_ci: Type.Optional(VisibilityCi),
    responses: Type.Optional(SampleSize),
    visibility_test: Type.Optional(PeriodChangeTest),
  },
  { additionalProperties: false },
)

export const DateRangeSchema = Type.Object({ start: IsoDate, end: IsoDate }, { additionalProperties: false })

export const DashboardSchema = Type.Object(
  {
    brands: Type.Record(Type.String(), BrandMetricsSchema, { description: 'Every active brand, keyed by name; zeros when not mentioned' }),
    total_mentions: Type.Integer({ description: 'Sum of mention_count over the brands' }),
    total_sources: Type.Integer({ description: 'Distinct domains cited by the responses in the period' }),
    date_range: DateRangeSchema,
  },
  { additionalProperties: false },
)

export const getDashboardSchema = {
  summary: 'Brand visibility overview',
  description: 'Visibility, sentiment, position and mentions of every active brand over the responses in the period that match the filters.',
  tags: ['analytics'],
  querystring: Type.Object(
    {
      ...AnalyticsFilters,
      include_uncertainty: Type.Optional(
        BooleanParam(
          'Beacon extension: add to each brand its Wilson 95% interval (visibility_ci), the sample size (responses) and the tested change against the previous period of equal length (visibility_test: {delta, p_value, significant}). Absent or false: the spec fields only.',
        ),
      ),
    },
    { additionalProperties: false },
  ),
  response: Responses(Envelope(DashboardSchema, { message: true })),
}
