// GET /api/v1/search-queries: the engines' own searches for the workspace's prompts, ranked
// (docs/collection.md, query fan-out). Scope read:analytics (the default access).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageRequest, paginationPlain } from '../../../../core/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { listSearchQueries } from '../../../../queries/list-search-queries.js'
import { getSearchQueriesSchema, SEARCH_QUERIES_PER_PAGE } from './schemas.js'

export const searchQueriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search-queries', { schema: getSearchQueriesSchema }, async (request) => {
    const { query } = request
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(request.db, workspaceId, query)
    const page = pageRequest(query, SEARCH_QUERIES_PER_PAGE)
    const { searchQueries, totalItems } = await listSearchQueries(request.db, workspaceId, filters, { ...page, promptId: query.prompt_template_id })
    return { success: true as const, data: { search_queries: searchQueries, pagination: paginationPlain(page, totalItems) } }
  })
}
