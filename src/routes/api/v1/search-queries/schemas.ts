import { Type } from 'typebox'
import { AnalyticsFilters, Envelope, IsoDateTime, Page, PaginationPlain, PerPage, ProviderName, Responses, UuidParam } from '../../../../http/schemas.js'

export const SEARCH_QUERIES_PER_PAGE = 20

export const SearchQueriesQuery = Type.Object(
  {
    ...AnalyticsFilters,
    prompt_template_id: Type.Optional(UuidParam('Only answers to this prompt template; an id that is not in this workspace gives 404.')),
    page: Page,
    per_page: PerPage(SEARCH_QUERIES_PER_PAGE),
  },
  { additionalProperties: false },
)

const SearchQueryRecord = Type.Object(
  {
    query: Type.String({ description: 'The search, in the spelling engines used most (queries differing only in case or spacing are one)' }),
    count: Type.Integer({ minimum: 1, description: 'Answers in the period that ran this search' }),
    prompts: Type.Integer({ minimum: 1, description: 'Distinct prompt templates whose answers ran it' }),
    providers: Type.Array(Type.Object({ provider: ProviderName, count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), {
      description: 'The providers whose answers ran it, by count',
    }),
    first_seen: IsoDateTime,
    last_seen: IsoDateTime,
  },
  { additionalProperties: false },
)

export const getSearchQueriesSchema = {
  summary: 'What the engines searched (query fan-out)',
  description:
    "The web searches the AI engines ran themselves while answering the workspace's prompts (OpenAI web_search_call actions, Anthropic web search inputs, Gemini webSearchQueries, Perplexity's searches), ranked by how many answers in the period matching the filters ran each (then alphabetically), with the providers that ran it and when it was first and last seen. page defaults to 1, per_page to 20 (at most 100).",
  tags: ['analytics'],
  querystring: SearchQueriesQuery,
  response: Responses(Envelope(Type.Object({ search_queries: Type.Array(SearchQueryRecord), pagination: PaginationPlain }, { additionalProperties: false }), { message: false })),
}
