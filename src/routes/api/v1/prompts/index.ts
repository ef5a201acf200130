import type { FastifyInstance } from 'fastify'
import { createPrompt, updatePrompt } from '../../../../manage/prompts.js'
import { createPromptRoute, updatePromptRoute } from './write-schemas.js'

export async function promptsRoutes(app: FastifyInstance): Promise<void> {
  app.post('/prompts', createPromptRoute, async (request, reply) => {
    const prompt = await createPrompt(app.database.db, request.auth.workspaceId, request.body as never)
    reply.status(201)
    return { success: true as const, data: prompt, message: 'Created prompt' }
  })

  app.patch('/prompts/:prompt_id', updatePromptRoute, async (request) => {
    const { prompt_id } = request.params as { prompt_id: string }
    const prompt = await updatePrompt(app.database.db, request.auth.workspaceId, prompt_id, request.body as never)
    return { success: true as const, data: prompt, message: 'Updated prompt' }
  })
}
