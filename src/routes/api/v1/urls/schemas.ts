import { Type } from 'typebox'
import { AnalyticsFilters, Envelope, IsoDateTime, Page, PaginationPlain, PaginationWithNav, PerPage, ProviderName, Responses, UuidParam } from '../../../../http/schemas.js'
import { DailyChart } from '../sources/schemas.js'

const urlFields = {
  url: Type.String({ description: 'Normalized URL (no www., utm_* or fragment)' }),
  domain: Type.String({ description: 'Registrable domain of the URL' }),
  title: Type.String({ description: 'Last non-empty title seen in the period, else ""' }),
  citation_count: Type.Integer({ description: 'Responses in the period citing the URL' }),
  first_cited: IsoDateTime,
  last_cited: IsoDateTime,
}

export const UrlSchema = Type.Object(urlFields, { additionalProperties: false })
export const DetailedUrlSchema = Type.Object(
  {
    ...urlFields,
    daily_chart: DailyChart,
    providers_citing: Type.Array(ProviderName, { description: 'AI providers that cited the URL in the period, sorted' }),
  },
  { additionalProperties: false },
)

export const URLS_PER_PAGE = 20

export const UrlsQuery = Type.Object(
  {
    ...AnalyticsFilters,
    source_id: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'A source domain as /sources lists it (e.g. example.com); only URLs of that domain.' })),
    page: Page,
    per_page: PerPage(URLS_PER_PAGE),
  },
  { additionalProperties: false },
)

export const UrlsDetailedQuery = Type.Object(
  {
    ...AnalyticsFilters,
    prompt_template_id: Type.Optional(UuidParam('Only responses to this prompt template; an id that is not in this workspace gives 404.')),
    page: Page,
    per_page: PerPage(URLS_PER_PAGE),
  },
  { additionalProperties: false },
)

export const getUrlsSchema = {
  summary: 'Cited URLs',
  description: 'URLs cited by the responses of the period that match the filters, by citation count (then URL).',
  tags: ['analytics'],
  querystring: UrlsQuery,
  response: Responses(Envelope(Type.Object({ urls: Type.Array(UrlSchema), pagination: PaginationWithNav }, { additionalProperties: false }), { message: true })),
}

export const getUrlsDetailedSchema = {
  summary: 'Cited URLs with trends',
  description: 'As /urls, plus a zero-filled daily chart and the providers citing each URL.',
  tags: ['analytics'],
  querystring: UrlsDetailedQuery,
  response: Responses(Envelope(Type.Object({ urls: Type.Array(DetailedUrlSchema), pagination: PaginationPlain }, { additionalProperties: false }), { message: false })),
}
