import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { getFilterValues } from '../../../../queries/filters/get-filter-values.js'
import { getFiltersSchema } from './schema.js'

export const filtersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/filters', { schema: getFiltersSchema }, async (request) => {
    const data = await getFilterValues(request.db, request.auth.workspaceId)
    return {
      success: true as const,
      data,
      message: `Retrieved filter values: ${data.providers.length} providers, ${data.models.length} models, ${data.tags.length} tags, ${data.brands.length} brands`,
    }
  })
}
