import type { FastifyInstance } from 'fastify'
import { paginationMinimal } from '../../../../http/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getResponsePreviews } from '../../../../queries/responses/get-response-previews.js'
import { getResponsesSchema, type ResponsesQuery } from './schemas.js'

export async function responsesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/responses', { schema: getResponsesSchema }, async (request) => {
    const query = request.query as ResponsesQuery
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(request.db, workspaceId, query)
    // Ajv has applied the schema defaults.
    const page = { page: query.page!, perPage: query.per_page! }
    const { responses, totalItems } = await getResponsePreviews(request.db, workspaceId, filters, { hasContent: query.has_content, page })
    return { success: true as const, data: { responses, pagination: paginationMinimal(page, totalItems) } }
  })
}
