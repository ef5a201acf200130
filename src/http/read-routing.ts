// Sends analytics reads to a read replica (src/db/read-replicas.ts) when one has replayed
// the workspace's data version the request authenticated with. The request's primary
// transaction is committed (it only authenticated) before the handler runs on the
// replica, so a request holds one connection at a time. If the replica fails while the
// handler runs (terminated, cancelled by a recovery conflict), the handler runs again on
// the primary: the client sees an answer, not the replica's failure.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { AppError } from '../core/errors.js'
import { finishScopedTransaction } from '../auth/authenticate.js'
import type { DB } from '../db/database.js'
import type { ReadReplicas, Replica } from '../db/read-replicas.js'
import { beginScoped, setScope } from '../db/tenant-scope.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** set while the request reads on a replica */
    readReplica?: Replica
  }
}

// Routes whose state moves without a data-version bump (jobs, collection runs, webhook
// deliveries, API keys, notification channels) or that take the export quota are read on
// the primary, and not cached.
const PRIMARY_ONLY = ['/api/v1/exports', '/api/v1/jobs', '/api/v1/collection', '/api/v1/webhooks', '/api/v1/keys', '/api/v1/notifications']

/**
 * A GET whose answer is a function of the workspace's data version, the URL and the day:
 * the answer cache may keep it, and a replica at that version may compute it.
 */
export function isDataVersionRead(request: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  return request.method === 'GET' && !PRIMARY_ONLY.some((prefix) => request.url.startsWith(prefix))
}

export function routeReadsToReplicas(app: FastifyInstance, replicas: ReadReplicas, primary: DB): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.includes('GET')) return
    const handler = route.handler
    route.handler = async function (this: FastifyInstance, request, reply) {
      try {
        return await handler.call(this, request, reply)
      } catch (error) {
        const replica = request.readReplica
        if (!replica || error instanceof AppError || reply.sent) throw error
        // The replica failed under this request: leave it alone for a while and answer
        // from the primary, scoped as the request was.
        request.log.warn({ replica: replica.label, err: error }, 'read replica failed; answering from the primary')
        replica.markUnavailable()
        replicas.counts.failed++
        await finishScopedTransaction(request, false)
        request.readReplica = undefined
        const trx = await beginScoped(primary, { useRole: replicas.useRole })
        request.scopedTransaction = trx
        request.db = trx
        await setScope(trx, 'app.workspace_id', request.auth.workspaceId)
        return handler.call(this, request, reply)
      }
    }
  })

  // After the answer cache's hook: a cached answer needs no database at all.
  app.addHook('preHandler', async (request, reply) => {
    if (reply.sent || !request.auth || !request.scopedTransaction || !isDataVersionRead(request)) return
    const route = await replicas.beginRead(request.auth.workspaceId, request.auth.dataVersion)
    if (!route) return
    await finishScopedTransaction(request, true)
    request.scopedTransaction = route.trx
    request.db = route.trx
    request.readReplica = route.replica
  })
}
