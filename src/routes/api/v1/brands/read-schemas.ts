import { Type } from 'typebox'
import { PeriodChangeTest, SampleSize, VisibilityCi } from '../../../../http/uncertainty-schemas.js'
import { DiscoveryEvidenceSchema } from './discover-schemas.js'
import { AnalyticsFilters, BooleanParam, Envelope, IsoDate, Page, PaginationWithNav, PerPage, ProviderName, Responses, UuidParam } from '../../../../http/schemas.js'

/** Spec 2.3. */
export const BrandRecordSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    domain: Type.String({ description: 'Hostname such as acme.com; "" when none is set' }),
    icon_url: Type.String({ description: 'Icon URL; "" when none is set' }),
    is_primary: Type.Boolean({ description: "true for the workspace's own brand" }),
    is_active: Type.Boolean(),
  },
  { additionalProperties: false },
)

export const BRANDS_PER_PAGE = 50
export const IS_ACTIVE_DEFAULT = true

export const listBrandsSchema = {
  summary: 'List brands',
  description: "The workspace's brands matching the filters: its own (is_primary, listed first) and its competitors, then by name.",
  tags: ['analytics'],
  querystring: Type.Object(
    {
      page: Page,
      per_page: PerPage(BRANDS_PER_PAGE),
      discovery_status: Type.Optional(Type.Enum(['confirmed', 'suggested', 'rejected'], { description: 'Only brands with this discovery status' })),
      is_active: Type.Optional(BooleanParam('Active (true, the default) or inactive (false) brands', IS_ACTIVE_DEFAULT)),
    },
    { additionalProperties: false },
  ),
  response: Responses(Envelope(Type.Object({ competitors: Type.Array(BrandRecordSchema), pagination: PaginationWithNav }, { additionalProperties: false }), { message: true })),
}

const Metric = {
  visibility_score: Type.Number({ description: '100 × responses mentioning the brand / responses (0–100)' }),
  mention_count: Type.Integer({ description: 'Occurrences of the brand summed over the responses' }),
  sentiment_avg: Type.Number({ description: 'Mean brand sentiment over responses mentioning it (-1 to 1); 0 when none' }),
  position_avg: Type.Number({ description: 'Mean position (1 = named first) over responses mentioning it; 0 when none' }),
  share_of_voice: Type.Number({ description: "100 × the brand's mention_count / mention_count of all active brands (0–100)" }),
}

const PeriodMetricsSchema = Type.Object(
  {
    ...Metric,
    response_count: Type.Integer({ description: 'Responses in the period matching the filters' }),
    responses_mentioning: Type.Integer({ description: 'Of those, responses mentioning the brand' }),
    visibility_ci: VisibilityCi,
    responses: SampleSize,
  },
  { additionalProperties: false },
)

export const BrandDetailSchema = Type.Object(
  {
    brand: BrandRecordSchema,
    aliases: Type.Array(Type.String(), { description: 'Names besides `name` that count as mentions of the brand' }),
    period: Type.Object({ start: IsoDate, end: IsoDate }, { additionalProperties: false }),
    metrics: PeriodMetricsSchema,
    previous_period: Type.Object(
      { start: IsoDate, end: IsoDate, metrics: PeriodMetricsSchema },
      { additionalProperties: false, description: 'The same number of days immediately before the period, same filters' },
    ),
    change: Type.Object(
      {
        visibility_score: Metric.visibility_score,
        mention_count: Metric.mention_count,
        sentiment_avg: Metric.sentiment_avg,
        position_avg: Metric.position_avg,
        share_of_voice: Metric.share_of_voice,
        visibility_test: PeriodChangeTest,
      },
      { additionalProperties: false, description: 'metrics minus previous_period.metrics, as shown (rounded like the field), and whether the visibility change is significant' },
    ),
    by_provider: Type.Array(
      Type.Object(
        {
          provider: ProviderName,
          visibility_score: Metric.visibility_score,
          mention_count: Metric.mention_count,
          sentiment_avg: Metric.sentiment_avg,
          position_avg: Metric.position_avg,
          response_count: Type.Integer(),
          visibility_ci: VisibilityCi,
        },
        { additionalProperties: false },
      ),
      { description: 'Every provider, sorted by name; zeros where none of the responses came from it' },
    ),
    daily_trend: Type.Array(Type.Object({ date: IsoDate, visibility_score: Metric.visibility_score, mention_count: Metric.mention_count }, { additionalProperties: false }), {
      description: 'Every day of the period, zero-filled',
    }),
    top_prompts: Type.Array(
      Type.Object(
        {
          prompt_id: Type.String({ format: 'uuid' }),
          text: Type.String(),
          visibility_score: Metric.visibility_score,
          visibility_ci: VisibilityCi,
          mention_count: Metric.mention_count,
          response_count: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      { description: 'Up to 10 prompts with responses in the period, by visibility_score, then mention_count' },
    ),
    top_sources: Type.Array(Type.Object({ domain: Type.String(), citation_count: Type.Integer() }, { additionalProperties: false }), {
      description: 'Up to 10 domains cited by responses that mention the brand, by citation_count, then domain',
    }),
    discovery: Type.Optional(DiscoveryEvidenceSchema),
  },
  { additionalProperties: false },
)

export const getBrandSchema = {
  summary: 'Brand detail',
  description:
    'Visibility metrics of one brand for the period, with share of voice, the previous period of equal length and the change, a per-provider split, a daily trend, and its top prompts and sources.',
  tags: ['analytics'],
  params: Type.Object({ brand_id: UuidParam('Brand id') }, { additionalProperties: false }),
  querystring: Type.Object({ ...AnalyticsFilters }, { additionalProperties: false }),
  response: Responses(Envelope(BrandDetailSchema, { message: false })),
}
