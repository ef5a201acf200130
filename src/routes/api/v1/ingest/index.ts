import type { FastifyInstance } from 'fastify'
import { AppError } from '../../../../http/errors.js'
import { ingestAio } from '../../../../ingest/ingest-aio.js'
import { ingestResponses } from '../../../../ingest/ingest-responses.js'
import { MAX_BATCH_ITEMS } from '../../../../ingest/validate-items.js'
import { ingestAioRoute, ingestResponsesRoute } from './schemas.js'

/** The batch list itself must be right before items are looked at. */
function batchItems(body: unknown, listName: string): unknown[] {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
  const items = record?.[listName]
  if (!Array.isArray(items)) {
    throw new AppError(400, 'missing_parameter', `The body must be a JSON object {"${listName}": [...]}`, { param: listName })
  }
  const extra = Object.keys(record!).filter((k) => k !== listName)
  if (extra.length) throw new AppError(400, 'invalid_parameter', `Unknown field "${extra[0]}"; the body holds only "${listName}"`, { param: extra[0] })
  if (items.length > MAX_BATCH_ITEMS) {
    throw new AppError(400, 'invalid_parameter', `${listName} holds ${items.length} items; send at most ${MAX_BATCH_ITEMS} per request`, { param: listName })
  }
  return items
}

export async function ingestRoutes(app: FastifyInstance): Promise<void> {
  app.post('/ingest/responses', ingestResponsesRoute, async (request) => {
    const data = await ingestResponses(request.db, request.auth.workspaceId, batchItems(request.body, 'responses'))
    return { success: true as const, data }
  })

  app.post('/ingest/aio', ingestAioRoute, async (request) => {
    const data = await ingestAio(request.db, request.auth.workspaceId, batchItems(request.body, 'observations'))
    return { success: true as const, data }
  })
}
