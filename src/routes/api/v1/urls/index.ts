import type { FastifyInstance } from 'fastify'
import { paginationPlain, paginationWithNav } from '../../../../http/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getUrls } from '../../../../queries/urls/get-urls.js'
import { getUrlsDetailed } from '../../../../queries/urls/get-urls-detailed.js'
import { getUrlsDetailedSchema, getUrlsSchema, type UrlsDetailedQuery, type UrlsQuery } from './schemas.js'

export async function urlsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/urls', { schema: getUrlsSchema }, async (request) => {
    const query = request.query as UrlsQuery
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = { page: query.page, perPage: query.per_page }
    const { urls, totalItems } = await getUrls(db, workspaceId, filters, { ...page, sourceId: query.source_id })
    return {
      success: true as const,
      data: { urls, pagination: paginationWithNav(page, totalItems) },
      message: `Retrieved ${urls.length} ${urls.length === 1 ? 'URL' : 'URLs'}`,
    }
  })

  // Spec: urls-detailed has neither message nor has_next/has_prev.
  app.get('/urls-detailed', { schema: getUrlsDetailedSchema }, async (request) => {
    const query = request.query as UrlsDetailedQuery
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = { page: query.page, perPage: query.per_page }
    const { urls, totalItems } = await getUrlsDetailed(db, workspaceId, filters, { ...page, promptId: query.prompt_template_id })
    return { success: true as const, data: { urls, pagination: paginationPlain(page, totalItems) } }
  })
}
