import type { FastifyInstance } from 'fastify'
import { paginationWithNav } from '../../../../http/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getSources } from '../../../../queries/sources/get-sources.js'
import { getSourcesSchema, type SourcesQuery } from './schemas.js'

export async function sourcesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/sources', { schema: getSourcesSchema }, async (request) => {
    const query = request.query as SourcesQuery
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = { page: query.page, perPage: query.per_page }
    const { sources, totalItems } = await getSources(db, workspaceId, filters, { ...page, promptId: query.prompt_template_id })
    return {
      success: true as const,
      data: { sources, pagination: paginationWithNav(page, totalItems) },
      message: `Retrieved ${sources.length} ${sources.length === 1 ? 'source' : 'sources'}`,
    }
  })
}
