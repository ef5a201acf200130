import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ingestAio } from '../../../../ingest/ingest-aio.js'
import { ingestResponses } from '../../../../ingest/ingest-responses.js'
import { ingestAioRoute, ingestResponsesRoute } from './schemas.js'
import { retryOnConflict } from '../../../../db/retry-conflicts.js'

export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/ingest/responses', ingestResponsesRoute, async (request) => {
    // A deadlock with a concurrent writer is retried here, not answered with a 500.
    const data = await retryOnConflict(request.db, (db) => ingestResponses(db, request.auth.workspaceId, request.body.responses))
    return { success: true as const, data }
  })

  app.post('/ingest/aio', ingestAioRoute, async (request) => {
    const data = await retryOnConflict(request.db, (db) => ingestAio(db, request.auth.workspaceId, request.body.observations))
    return { success: true as const, data }
  })
}
