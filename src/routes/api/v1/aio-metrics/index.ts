import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { resolveDateRange } from '../../../../core/date-range.js'
import { getAioMetrics } from '../../../../queries/aio/get-aio-metrics.js'
import { getPromptAioMetrics } from '../../../../queries/aio/get-prompt-aio-metrics.js'
import { getAioMetricsSchema, getPromptAioMetricsSchema } from './schemas.js'

export const aioMetricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/aio-metrics', { schema: getAioMetricsSchema }, async (request) => {
    const { query } = request
    const range = resolveDateRange({ start: query.start_date, end: query.end_date })
    const data = await getAioMetrics(request.db, request.auth.workspaceId, {
      range,
      tags: query.tags ?? [],
      targetBrandId: query.target_brand_id,
      includeUncertainty: query.include_uncertainty,
    })
    return { success: true as const, data, message: `AIO coverage over ${data.total_queries} ${data.total_queries === 1 ? 'query' : 'queries'}` }
  })

  app.get('/aio-metrics/prompt/:prompt_id', { schema: getPromptAioMetricsSchema }, async (request) => {
    const {
      params: { prompt_id },
      query,
    } = request
    const range = resolveDateRange({ start: query.start_date, end: query.end_date })
    const data = await getPromptAioMetrics(request.db, request.auth.workspaceId, prompt_id, { range, targetBrandId: query.target_brand_id })
    return { success: true as const, data }
  })
}
