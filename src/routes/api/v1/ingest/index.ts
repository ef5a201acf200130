import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ingestAio } from '../../../../ingest/ingest-aio.js'
import { ingestResponses } from '../../../../ingest/ingest-responses.js'
import { ingestAioRoute, ingestResponsesRoute } from './schemas.js'

export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/ingest/responses', ingestResponsesRoute, async (request) => {
    const data = await ingestResponses(request.db, request.auth.workspaceId, request.body.responses)
    return { success: true as const, data }
  })

  app.post('/ingest/aio', ingestAioRoute, async (request) => {
    const data = await ingestAio(request.db, request.auth.workspaceId, request.body.observations)
    return { success: true as const, data }
  })
}
