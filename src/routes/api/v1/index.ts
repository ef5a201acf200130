// The /api/v1 subtree: authentication and the per-key limiter are applied here once,
// for every route below; routes only declare what access they need (config.access).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { ResponseCache } from '../../../http/response-cache.js'
import { todayUtc } from '../../../core/date-range.js'
import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import { createAuthHook, finishScopedTransaction, type AuthOptions } from '../../../auth/authenticate.js'
import type { AuthFailureLimiter } from '../../../auth/auth-failure-limiter.js'
import { AppError } from '../../../core/errors.js'
import { refreshPlannerStatistics } from '../../../db/dialect.js'
import { createFallbackLimiterStore } from '../../../http/limiter-store.js'
import { isDataVersionRead, routeReadsToReplicas } from '../../../http/read-routing.js'
import { aioMetricsRoutes } from './aio-metrics/index.js'
import { brandsRoutes } from './brands/index.js'
import { collectionRoutes } from './collection/index.js'
import { dashboardRoutes } from './dashboard/index.js'
import { exportsRoutes } from './exports/index.js'
import { filtersRoutes } from './filters/index.js'
import { ingestRoutes } from './ingest/index.js'
import { jobsRoutes } from './jobs/index.js'
import { promptsRoutes } from './prompts/index.js'
import { responsesRoutes } from './responses/index.js'
import { sourcesRoutes } from './sources/index.js'
import { urlsRoutes } from './urls/index.js'
import { webhooksRoutes } from './webhooks/index.js'
import { keysRoutes } from './keys/index.js'
import { notificationsRoutes } from './notifications/index.js'
import { searchQueriesRoutes } from './search-queries/index.js'

export interface ApiV1Options {
  redis?: Redis
  rowLevelSecurity: AuthOptions
  /** requests without a valid key, limited per address before the lookup (shared with /mcp) */
  authFailures?: AuthFailureLimiter
}

export const apiV1Routes: FastifyPluginAsyncTypebox<ApiV1Options> = async (app, options) => {
  // Set per request by the auth hook; null until then (the (name, null, deps) form types it).
  app.decorateRequest('db', null, [])
  app.addHook('onRequest', createAuthHook(app.database.db, options.rowLevelSecurity, options.authFailures))
  // The request's transaction ends before the answer leaves: committed for successes,
  // rolled back otherwise; an aborted request rolls back too.
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      await finishScopedTransaction(request, reply.statusCode < 400)
    } catch (error) {
      // A read-only transaction on a replica that went away after the handler read its
      // snapshot: the answer stands (its commit changes nothing); only the replica is set aside.
      if (!request.readReplica) throw error
      request.log.warn({ replica: request.readReplica.label, err: error }, 'read replica went away after answering')
      request.readReplica.markUnavailable()
    }
    const key = cacheKeys.get(request)
    if (key && reply.statusCode === 200 && typeof payload === 'string' && !reply.getHeader('x-cache')) cache.set(key, payload)
    return payload
  })

  // Analytics answers are cached by (workspace data version, URL, day); exports, jobs,
  // webhooks and collection (whose state moves without a data change) are not.
  const cache = new ResponseCache(app.config.responseCacheEntries)
  const cacheKeys = new WeakMap<FastifyRequest, string>()
  app.addHook('preHandler', async (request, reply) => {
    if (!isDataVersionRead(request) || !request.auth) return
    const key = ResponseCache.key(request.auth.workspaceId, request.auth.dataVersion, request.url, todayUtc())
    // `Cache-Control: no-cache` asks for a fresh computation (the answer is still stored).
    const hit = /no-cache/i.test(String(request.headers['cache-control'] ?? '')) ? undefined : cache.get(key)
    if (hit !== undefined) return reply.header('content-type', 'application/json; charset=utf-8').header('x-cache', 'hit').send(hit)
    cacheKeys.set(request, key)
  })
  // Reads the cache did not answer go to a read replica that has the request's data version.
  if (app.readReplicas) routeReadsToReplicas(app, app.readReplicas, app.database.db)
  app.addHook('onResponse', async (request) => finishScopedTransaction(request, false))
  app.addHook('onRequestAbort', async (request) => finishScopedTransaction(request, false))
  // PGlite has no autovacuum: writes are followed by a look at the planner statistics,
  // after the answer has left.
  if (app.database.backend === 'pglite') {
    app.addHook('onResponse', async (request) => {
      if (request.method === 'GET') return
      await refreshPlannerStatistics(app.database, { throttle: true }).catch((error: unknown) => request.log.warn({ err: error }, 'could not refresh planner statistics'))
    })
  }

  await app.register(rateLimit, {
    max: app.config.rateLimitPerMinute,
    timeWindow: 60_000,
    hook: 'onRequest',
    keyGenerator: (request) => request.auth?.keyId ?? request.ip,
    // Shared through Redis when it answers, per instance when it does not.
    store: createFallbackLimiterStore(options.redis, app.log, 'beacon-rl-'),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', `Too many requests for this API key: the limit is ${context.max} per minute; retry in ${Math.ceil(context.ttl / 1000)} s`),
  })

  await app.register(filtersRoutes)
  await app.register(brandsRoutes)
  await app.register(promptsRoutes)
  await app.register(ingestRoutes)
  await app.register(dashboardRoutes)
  await app.register(sourcesRoutes)
  await app.register(urlsRoutes)
  await app.register(responsesRoutes)
  await app.register(aioMetricsRoutes)
  await app.register(exportsRoutes, { useRole: options.rowLevelSecurity.useRole })
  await app.register(jobsRoutes)
  await app.register(collectionRoutes)
  await app.register(webhooksRoutes)
  await app.register(keysRoutes)
  await app.register(notificationsRoutes)
  await app.register(searchQueriesRoutes)
}
