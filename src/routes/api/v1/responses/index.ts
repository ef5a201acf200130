import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageRequest, paginationMinimal } from '../../../../core/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getResponseDetail } from '../../../../queries/responses/get-response-detail.js'
import { getResponsePreviews } from '../../../../queries/responses/get-response-previews.js'
import { getResponseSchema, getResponsesSchema, RESPONSES_PER_PAGE } from './schemas.js'

export const responsesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/responses', { schema: getResponsesSchema }, async (request) => {
    const { query } = request
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(request.db, workspaceId, query)
    const page = pageRequest(query, RESPONSES_PER_PAGE)
    const { responses, totalItems } = await getResponsePreviews(request.db, workspaceId, filters, { hasContent: query.has_content, page })
    return { success: true as const, data: { responses, pagination: paginationMinimal(page, totalItems) } }
  })

  app.get('/responses/:response_id', { schema: getResponseSchema }, async (request) => {
    const data = await getResponseDetail(request.db, request.auth.workspaceId, request.params.response_id)
    return { success: true as const, data }
  })
}
