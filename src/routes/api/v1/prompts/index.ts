import { retryOnConflict } from '../../../../db/retry-conflicts.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { paginationPlain } from '../../../../core/pagination.js'
import { createPrompt, updatePrompt } from '../../../../manage/prompts.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getPromptDetail } from '../../../../queries/prompts/get-prompt-detail.js'
import { getPromptPerformance } from '../../../../queries/prompts/get-prompt-performance.js'
import { getPromptSchema, getPromptsSchema } from './read-schemas.js'
import { createPromptRoute, updatePromptRoute } from './write-schemas.js'

export const promptsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/prompts', { schema: getPromptsSchema }, async (request) => {
    const { query } = request
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(request.db, workspaceId, query)
    // docs/api-conventions.md: per_page given → pages of that size; absent → everything on one page.
    const paged = query.per_page !== undefined ? { page: query.page ?? 1, perPage: query.per_page } : undefined
    const { prompts, totalItems } = await getPromptPerformance(request.db, workspaceId, query.brand_id, filters, paged)
    if (paged) return { success: true as const, data: { prompts, pagination: paginationPlain(paged, totalItems) } }
    // One page holding everything: any later page is past the end.
    const page = { page: query.page ?? 1, perPage: Math.max(totalItems, 1) }
    return { success: true as const, data: { prompts: page.page === 1 ? prompts : [], pagination: paginationPlain(page, totalItems) } }
  })

  app.get('/prompts/:prompt_id', { schema: getPromptSchema }, async (request) => {
    const {
      params: { prompt_id },
      query,
    } = request
    const filters = await resolveAnalyticsFilters(request.db, request.auth.workspaceId, query)
    const data = await getPromptDetail(request.db, request.auth.workspaceId, prompt_id, filters)
    return { success: true as const, data }
  })

  app.post('/prompts', createPromptRoute, async (request, reply) => {
    const prompt = await retryOnConflict(request.db, (db) => createPrompt(db, request.auth.workspaceId, request.body))
    reply.status(201)
    return { success: true as const, data: prompt, message: 'Created prompt' }
  })

  app.patch('/prompts/:prompt_id', updatePromptRoute, async (request) => {
    const prompt = await retryOnConflict(request.db, (db) => updatePrompt(db, request.auth.workspaceId, request.params.prompt_id, request.body))
    return { success: true as const, data: prompt, message: 'Updated prompt' }
  })
}
