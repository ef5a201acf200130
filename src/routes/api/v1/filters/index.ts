import type { FastifyInstance } from 'fastify'
import { getFilterValues } from '../../../../queries/filters/get-filter-values.js'
import { getFiltersSchema } from './schema.js'

export async function filtersRoutes(app: FastifyInstance): Promise<void> {
  app.get('/filters', { schema: getFiltersSchema }, async (request) => {
    const data = await getFilterValues(request.db, request.auth.workspaceId)
    return {
      success: true as const,
      data,
      message: `Retrieved filter values: ${data.providers.length} providers, ${data.models.length} models, ${data.tags.length} tags, ${data.brands.length} brands`,
    }
  })
}
