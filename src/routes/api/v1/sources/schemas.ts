import { Type } from 'typebox'
import { AnalyticsFilters, Envelope, IsoDate, IsoDateTime, Page, PaginationWithNav, PerPage, Responses, UuidParam } from '../../../../http/schemas.js'

export const SOURCE_TYPES = ['owned', 'competitor', 'ugc', 'reference', 'institutional', 'editorial', 'other'] as const

export const DailyChart = Type.Array(Type.Object({ date: IsoDate, count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), {
  description: 'Every day of the range in order, zero-filled',
})

export const SourceSchema = Type.Object(
  {
    domain: Type.String({ description: 'Registrable domain; the source_id of /urls' }),
    source_type: Type.Enum([...SOURCE_TYPES], { description: 'owned: your primary brand; competitor: another tracked brand; the rest from rules and a shipped domain list' }),
    citation_count: Type.Integer({ description: 'Citations (response, URL pairs) of this domain in the period' }),
    authority_score: Type.Number({ description: '0–100: 100 × √(share of providers citing it × share of prompts citing it)' }),
    usage_percentage: Type.Number({ description: '0–100: share of responses in the period that cite the domain' }),
    last_cited: IsoDateTime,
    daily_chart: DailyChart,
  },
  { additionalProperties: false },
)

export const SOURCES_PER_PAGE = 20

export const SourcesQuery = Type.Object(
  {
    ...AnalyticsFilters,
    prompt_template_id: Type.Optional(UuidParam('Only responses to this prompt template; an id that is not in this workspace gives 404.')),
    page: Page,
    per_page: PerPage(SOURCES_PER_PAGE),
  },
  { additionalProperties: false },
)

export const getSourcesSchema = {
  summary: 'Cited domains',
  description: 'Domains cited by the responses of the period that match the filters, by citation count (then domain), with a zero-filled daily chart.',
  tags: ['analytics'],
  querystring: SourcesQuery,
  response: Responses(Envelope(Type.Object({ sources: Type.Array(SourceSchema), pagination: PaginationWithNav }, { additionalProperties: false }), { message: true })),
}
