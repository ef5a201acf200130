import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageRequest, paginationPlain, paginationWithNav } from '../../../../core/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getUrls } from '../../../../queries/urls/get-urls.js'
import { getUrlsDetailed } from '../../../../queries/urls/get-urls-detailed.js'
import { getUrlsDetailedSchema, getUrlsSchema, URLS_PER_PAGE } from './schemas.js'

export const urlsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/urls', { schema: getUrlsSchema }, async (request) => {
    const { query } = request
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = pageRequest(query, URLS_PER_PAGE)
    const { urls, totalItems } = await getUrls(db, workspaceId, filters, { ...page, sourceId: query.source_id })
    return {
      success: true as const,
      data: { urls, pagination: paginationWithNav(page, totalItems) },
      message: `Retrieved ${urls.length} ${urls.length === 1 ? 'URL' : 'URLs'}`,
    }
  })

  // Spec: urls-detailed has neither message nor has_next/has_prev.
  app.get('/urls-detailed', { schema: getUrlsDetailedSchema }, async (request) => {
    const { query } = request
    const db = request.db
    const workspaceId = request.auth.workspaceId
    const filters = await resolveAnalyticsFilters(db, workspaceId, query)
    const page = pageRequest(query, URLS_PER_PAGE)
    const { urls, totalItems } = await getUrlsDetailed(db, workspaceId, filters, { ...page, promptId: query.prompt_template_id })
    return { success: true as const, data: { urls, pagination: paginationPlain(page, totalItems) } }
  })
}
