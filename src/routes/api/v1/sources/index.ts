import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageRequest, paginationWithNav } from '../../../../core/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getSources } from '../../../../queries/sources/get-sources.js'
import { getSourcesSchema, SOURCES_PER_PAGE } from './schemas.js'

export const sourcesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/sources', { schema: getSourcesSchema }, async (request) => {
    const { query } = request
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = pageRequest(query, SOURCES_PER_PAGE)
    const { sources, totalItems } = await getSources(db, workspaceId, filters, { ...page, promptId: query.prompt_template_id })
    return {
      success: true as const,
      data: { sources, pagination: paginationWithNav(page, totalItems) },
      message: `Retrieved ${sources.length} ${sources.length === 1 ? 'source' : 'sources'}`,
    }
  })
}
