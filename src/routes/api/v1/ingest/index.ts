import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ingestAio } from '../../../../ingest/ingest-aio.js'
import { ingestResponses } from '../../../../ingest/ingest-responses.js'
import { ingestAioRoute, ingestResponsesRoute } from './schemas.js'
import { retryOnConflict } from '../../../../db/retry-conflicts.js'
import { sharedAnalysisPool } from '../../../../analysis/analysis-pool.js'

export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/ingest/responses', ingestResponsesRoute, async (request) => {
    // ingestResponses retries a deadlock itself: its analysis runs before the transaction.
    const data = await ingestResponses(request.db, request.auth.workspaceId, request.body.responses, { pool: sharedAnalysisPool(app.config.analysisThreads) })
    return { success: true as const, data }
  })

  app.post('/ingest/aio', ingestAioRoute, async (request) => {
    const data = await retryOnConflict(request.db, (db) => ingestAio(db, request.auth.workspaceId, request.body.observations))
    return { success: true as const, data }
  })
}
