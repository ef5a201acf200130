// Builds the whole application. server.ts only listens; tests build the same app.
import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Redis } from 'ioredis'
import type { Config } from './config.js'
import type { DatabaseHandle } from './db/database.js'
import { errorHandler } from './http/error-handler.js'
import { registerStrictJsonParser } from './http/json-body.js'
import { AppError, errorBody } from './core/errors.js'
import { normalizeParams } from './http/normalize-params.js'
import { parseQueryString } from './http/query-values.js'
import { REDACTED, redactUrl } from './http/redact.js'
import { apiV1Routes } from './routes/api/v1/index.js'
import { healthRoutes } from './routes/health.js'
import { bypassesRowSecurity, canUseAppRole } from './db/tenant-scope.js'
import { ReadReplicas } from './db/read-replicas.js'
import { startJobs } from './start-jobs.js'
import type { JobRuntime } from './jobs/job-runtime.js'
import { checkStoredSecrets } from './security/sealed-secrets.js'
import { AuthFailureLimiter } from './auth/auth-failure-limiter.js'
import { registerApiDocs } from './http/api-docs.js'
import { startScheduler } from './collection/scheduler.js'
import { startDigestScheduler } from './notifications/digest-scheduler.js'
import { registerDashboard } from './web/dashboard.js'
import { registerDemoStatus } from './web/demo-status.js'
import type { DemoProgress } from './demo/demo-progress.js'
import { RouteCatalog } from './mcp/route-catalog.js'
import { mcpRoutes } from './mcp/mcp-routes.js'
import { configureAnalysisMemory, sharedAnalysisPool } from './analysis/analysis-pool.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    database: DatabaseHandle
    /** background jobs: queue them from any instance, run them where config.jobsWorker */
    jobs: JobRuntime
    /** DATABASE_READ_URLS: read replicas for analytics reads and exports (PostgreSQL only) */
    readReplicas?: ReadReplicas
  }
}

export interface BuildAppOptions {
  config: Config
  database: DatabaseHandle
  /** shared limiter store; when absent the limiter is per process */
  redis?: Redis
  /** pino options or false; tests pass a stream to capture logs */
  logger?: boolean | Record<string, unknown>
  /** a job runtime started by the caller (tests with their own handlers); stopped with the app either way */
  jobs?: JobRuntime
  /** the demo being built after listening (`beacon serve --demo`): served at /demo-status */
  demo?: DemoProgress
}

// Errors Node's HTTP parser raises before Fastify sees a request (oversized headers or
// URL, garbage, timeouts): answer with the envelope when the socket can still take it.
function rawClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy()
    return
  }
  const [status, reason, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Headers or URL are too large; send at most 16 KB of them']
        : [400, 'Bad Request', 'The request could not be parsed as HTTP']
  const body = JSON.stringify({ success: false, error: { code: 'invalid_parameter', message, request_id: randomUUID() } })
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
}

/** Path of the first string (or key) in a JSON value that holds a NUL character. Iterative: bodies may nest deeply. */
export function findNulString(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length) {
    const [current, path] = stack.pop()!
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${path}[${i}]`]))
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const child = path ? `${path}.${key}` : key
        if (key.includes('\u0000')) return child
        stack.push([item, child])
      }
    }
  }
  return undefined
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options
  configureAnalysisMemory(config)
  // Keys must never reach the logs: not from the Authorization header, whatever serializer a
  // plugin uses, nor from a URL where a client put one (?api_key=bvk_…). Applied to a logger
  // a caller passes too.
  const logging = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: REDACTED },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  }
  const app = Fastify({
    logger: options.logger === false ? false : options.logger === true || options.logger === undefined ? logging : { ...logging, ...options.logger },
    bodyLimit: config.bodyLimitBytes,
    // Behind a reverse proxy, client addresses (the per-address limiter) come from X-Forwarded-For.
    trustProxy: config.trustProxy,
    // Slow clients cannot hold connections: the whole request must arrive within
    // requestTimeoutMs (headers within half of it, at most 20 s), idle sockets close.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs * 2,
    keepAliveTimeout: 10_000,
    http: {
      headersTimeout: Math.min(20_000, Math.ceil(config.requestTimeoutMs / 2)),
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.ceil(config.requestTimeoutMs / 4))),
      maxHeaderSize: 16 * 1024,
    },
    // genReqId decides: a sane incoming X-Request-Id is kept, anything else replaced.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID()
    },
    // Malformed URLs and over-long path values get the same envelope as every other error.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      const appError = new AppError(
        tooLong ? 414 : 400,
        'invalid_parameter',
        tooLong ? 'A path value is too long; ids are at most 200 characters' : 'The URL is not validly percent-encoded',
      )
      void (reply as import('fastify').FastifyReply).status(appError.statusCode).header('X-Request-Id', request.id).send(errorBody(appError, request.id))
    },
    clientErrorHandler: rawClientError,
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: {
      // Values arrive already typed by normalizeParams; Ajv checks, it does not guess.
      // (Fastify adds ajv-formats itself: uuid, date, date-time are checked.)
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  registerStrictJsonParser(app)
  // Collects every route registered from here on; MCP tools are derived from it (§16).
  const routeCatalog = RouteCatalog.attach(app)
  app.decorate('config', config)
  app.decorate('database', database)
  // Stored secrets need the key they were sealed with: refuse to start without it rather
  // than fail every collection request and webhook delivery later.
  const secrets = await checkStoredSecrets(database, config)
  if (!secrets.checked) app.log.warn('stored secrets not checked: this database role is subject to row-level security and cannot read every workspace')
  if (secrets.previous > 0) app.log.warn({ previous: secrets.previous }, 'stored secrets still sealed with BEACON_SECRET_KEY_PREVIOUS: run `beacon secrets rekey`')
  const jobs = options.jobs ?? (await startJobs(config, database, { log: app.log }))
  app.decorate('jobs', jobs)
  // Collection schedules fire where jobs run.
  const scheduler = config.jobsWorker
    ? startScheduler(database.db, jobs.tasks, { log: app.log, intervalMs: config.collectionSchedulerMs, minIntervalMinutes: config.collectionMinIntervalMinutes })
    : undefined
  // Closing the app lets a running job finish its batch and stops the worker, before the
  // caller closes the database.
  // Weekly digests of notification channels fire where jobs run too.
  const digests = config.jobsWorker ? startDigestScheduler(database.db, jobs.tasks, { log: app.log, publicUrl: config.publicUrl }) : undefined
  app.addHook('onClose', async () => {
    await digests?.stop()
    await scheduler?.stop()
    await jobs.stop()
  })

  // A listening server starts its analysis threads now rather than in its first ingest
  // request, which would otherwise wait seconds for them. Tests that inject requests
  // without listening start none.
  app.addHook('onListen', async () => {
    sharedAnalysisPool(config.analysisThreads)
      .warmUp()
      .catch((error) => app.log.warn({ err: error }, 'analysis threads did not start; ingestion analyses on the main thread'))
  })

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id)
  })

  // Query and path values are typed and checked against the route's schema here, with
  // messages that say what to send, before Ajv validates the result.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema
    if (!schema) return
    // API routes without a query schema take no query parameters: any one is unknown.
    if (schema.querystring || request.routeOptions.url?.startsWith('/api/')) {
      request.query = normalizeParams(request.query ?? {}, schema.querystring, 'query')
    }
    if (schema.params) request.params = normalizeParams(request.params, schema.params, 'path')
    const nul = findNulString(request.body)
    if (nul !== undefined)
      throw new AppError(400, 'invalid_parameter', `${nul || 'the body'} contains a NUL (\\u0000) character, which text fields cannot store`, { param: nul || undefined })
  })

  app.setErrorHandler(errorHandler)
  // The dashboard (when built) answers page paths outside the API with its index.html.
  let dashboardFallback: Awaited<ReturnType<typeof registerDashboard>> = null
  app.setNotFoundHandler((request, reply) => {
    if (dashboardFallback?.(request, reply)) return
    const error = new AppError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}; see /docs for the API`)
    reply.status(404).send(errorBody(error, request.id))
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Beacon API',
        version: '1.0.0',
        description: 'AI brand visibility analytics: how brands appear in answers from AI providers and AI overviews.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A Beacon API key: bvk_…' } },
      },
      security: [{ bearerAuth: [] }],
    },
  })
  await registerApiDocs(app)
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(healthRoutes)
  if (options.demo) registerDemoStatus(app, options.demo)
  dashboardFallback = await registerDashboard(app)
  // Row-level security applies on PostgreSQL: each request runs in a workspace-scoped
  // transaction, as the unprivileged service role when this connection may switch to it.
  const scoped = database.backend === 'postgres'
  const useRole = scoped && (await canUseAppRole(database.db))
  if (scoped && !useRole) app.log.warn('service role beacon_app is not usable: row-level security applies only if the connecting role is not a superuser')
  const rowLevelSecurity = { scoped, useRole, lookupFirst: scoped && (await bypassesRowSecurity(database.db)) }
  if (scoped && config.databaseReadUrls.length) {
    const replicas = await ReadReplicas.open(config.databaseReadUrls, { poolSize: config.databasePoolSize, searchPath: database.searchPath, useRole })
    app.decorate('readReplicas', replicas)
    app.addHook('onClose', () => replicas.close())
  }
  // Requests without a valid key, limited per address before the key lookup, on /api/v1 and /mcp alike.
  const authFailures = new AuthFailureLimiter({ max: config.authFailuresPerMinute, redis: options.redis, log: app.log })
  await app.register(apiV1Routes, { prefix: '/api/v1', redis: options.redis, rowLevelSecurity, authFailures })
  await app.register(mcpRoutes, { catalog: routeCatalog, rowLevelSecurity, authFailures })
  return app
}
