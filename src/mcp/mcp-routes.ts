// POST /mcp: MCP over Streamable HTTP, stateless (a fresh server and transport per
// request, so any instance behind a load balancer can answer). The same bearer keys as
// /api/v1: the key is checked here with the API's own hook (401/403 with its envelope),
// then every tool call is an in-process request to the API with that key.
import type { FastifyPluginAsync } from 'fastify'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createAuthHook, finishScopedTransaction, type AuthOptions } from '../auth/authenticate.js'
import type { AuthFailureLimiter } from '../auth/auth-failure-limiter.js'
import { AppError, errorBody } from '../core/errors.js'
import { allowedHosts, batchTooLarge, hostGuard, jsonRpcError } from './mcp-guard.js'
import { createMcpServer } from './mcp-server.js'
import type { RouteCatalog } from './route-catalog.js'

export interface McpRoutesOptions {
  catalog: RouteCatalog
  rowLevelSecurity: AuthOptions
  /** requests without a valid key, limited per address before the lookup (shared with /api/v1) */
  authFailures?: AuthFailureLimiter
}

export const MCP_PATH = '/mcp'

export const mcpRoutes: FastifyPluginAsync<McpRoutesOptions> = async (app, options) => {
  const authenticate = createAuthHook(app.database.db, options.rowLevelSecurity, options.authFailures)
  // Host and Origin first: a DNS-rebinding request is refused before its key is looked at.
  app.addHook('onRequest', hostGuard(allowedHosts(app.config.mcpAllowedHosts, app.config.host)))
  // Only POST carries MCP messages here; GET (a server-to-client stream) and DELETE (end a
  // session) mean nothing to a stateless server and get 405 without a key check.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'POST') await authenticate(request, reply)
  })
  app.addHook('onSend', async (request, _reply, payload) => {
    await finishScopedTransaction(request, false)
    return payload
  })
  app.addHook('onResponse', async (request) => finishScopedTransaction(request, false))
  app.addHook('onRequestAbort', async (request) => finishScopedTransaction(request, false))

  app.post(MCP_PATH, { schema: { hide: true }, config: { access: { scopes: ['read:analytics'] } } }, async (request, reply) => {
    const tooLarge = batchTooLarge(request.body)
    if (tooLarge) return jsonRpcError(reply, 400, -32600, tooLarge)
    // The key is known; its transaction (row-level security on PostgreSQL) is not needed
    // while tools run, each through its own API request.
    await finishScopedTransaction(request, true)
    const authorization = request.headers.authorization ?? ''
    // `Cache-Control: no-cache` on the MCP request asks the tools for fresh numbers, as on the API.
    const cacheControl = request.headers['cache-control']
    const { scopes, tier } = request.auth
    const server = createMcpServer(options.catalog, {
      scopes,
      tier,
      call: async ({ method, url, payload }) => {
        const answer = await app.inject({
          method: method === 'POST' ? 'POST' : 'GET',
          url,
          headers: { authorization, ...(cacheControl ? { 'cache-control': cacheControl } : {}), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(payload !== undefined ? { payload } : {}),
        })
        return { statusCode: answer.statusCode, body: answer.body }
      },
    })
    // JSON answers, not an event stream: every tool answers once.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
    reply.raw.setHeader('X-Request-Id', request.id)
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    try {
      await server.connect(transport)
      await transport.handleRequest(request.raw, reply.raw, request.body)
    } catch (error) {
      // The reply is ours now (hijacked): answer here, never leave the client hanging.
      request.log.error({ err: error }, 'MCP request failed')
      if (!reply.raw.headersSent) {
        const body = errorBody(new AppError(500, 'internal_error', 'The MCP request failed; try again, and report it with this request id if it persists'), request.id)
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
      } else reply.raw.end()
    }
  })

  const notAllowed = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const error = new AppError(405, 'method_not_allowed', `${request.method} ${MCP_PATH} is not supported: this MCP server is stateless, send JSON-RPC messages with POST`)
    return reply.status(405).header('Allow', 'POST').send(errorBody(error, request.id))
  }
  app.get(MCP_PATH, { schema: { hide: true } }, notAllowed)
  app.delete(MCP_PATH, { schema: { hide: true } }, notAllowed)
}
