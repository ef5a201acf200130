// Tools come from the routes an app registered: a route added (here: the ones other
// modules bring, get_response and start_collection_run) makes its tool appear, with the
// route's schema and access, without any MCP code changing.
import { describe, expect, it } from 'vitest'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { RouteCatalog } from '../../src/mcp/route-catalog.js'
import { createMcpServer, type McpCaller } from '../../src/mcp/mcp-server.js'
import { resolveTools, toRouteRequest } from '../../src/mcp/tools.js'
import type { RouteRequest } from '../../src/mcp/tools.js'

const RunBody = Type.Object(
  {
    target_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { description: 'Targets to run; default every enabled one' })),
    prompt_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }))),
  },
  { additionalProperties: false },
)

async function appWith(extraRoutes: boolean) {
  const app = Fastify()
  const catalog = RouteCatalog.attach(app)
  await app.register(
    async (api) => {
      api.get('/filters', { schema: { summary: 'Filter values' } }, async () => ({ success: true, data: {} }))
      if (!extraRoutes) return
      api.get(
        '/responses/:response_id',
        { schema: { summary: 'One response', params: Type.Object({ response_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }) } },
        async () => ({ success: true, data: {} }),
      )
      api.post('/collection/runs', { schema: { summary: 'Start a run', body: RunBody }, config: { access: { scopes: ['write:data'] } } }, async () => ({ success: true, data: {} }))
    },
    { prefix: '/api/v1' },
  )
  await app.ready()
  return { app, catalog }
}

const READ = { scopes: ['read:analytics' as const], tier: 'basic' as const }
const WRITE = { scopes: ['read:analytics' as const, 'write:data' as const], tier: 'basic' as const }

describe('tools from the route catalog', () => {
  it('a tool exists exactly when its route does, and only for keys with the route’s scopes', async () => {
    const without = await appWith(false)
    expect(resolveTools(without.catalog, WRITE).map((t) => t.definition.name)).toEqual(['get_filters'])
    const withRoutes = await appWith(true)
    expect(resolveTools(withRoutes.catalog, READ).map((t) => t.definition.name)).toEqual(['get_filters', 'get_response'])
    expect(resolveTools(withRoutes.catalog, WRITE).map((t) => t.definition.name)).toEqual(['get_filters', 'get_response', 'start_collection_run'])
    await without.app.close()
    await withRoutes.app.close()
  })

  it('input schemas are the route’s params and body; requests are rebuilt from the arguments', async () => {
    const { app, catalog } = await appWith(true)
    const [, response, run] = resolveTools(catalog, WRITE)
    expect(response.inputSchema).toEqual({
      type: 'object',
      properties: { response_id: { type: 'string', format: 'uuid' } },
      required: ['response_id'],
      additionalProperties: false,
    })
    expect(run.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(RunBody.properties)))
    expect(toRouteRequest(response, { response_id: 'a b/c' })).toEqual({ method: 'GET', url: '/api/v1/responses/a%20b%2Fc' })
    expect(toRouteRequest(run, { target_ids: ['t1'], extra: [1, 'x'] })).toEqual({
      method: 'POST',
      url: '/api/v1/collection/runs?extra=1&extra=x',
      payload: '{"target_ids":["t1"]}',
    })
    await app.close()
  })

  it('an MCP client sees the new tools and its calls reach the routes', async () => {
    const { app, catalog } = await appWith(true)
    const sent: RouteRequest[] = []
    const caller: McpCaller = {
      ...WRITE,
      async call(request) {
        sent.push(request)
        return { statusCode: 202, body: JSON.stringify({ success: true, data: { id: 'run-1', state: 'queued' } }) }
      },
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const server = createMcpServer(catalog, caller)
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(clientSide)
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_filters', 'get_response', 'start_collection_run'])
    const result = (await client.callTool({ name: 'start_collection_run', arguments: { prompt_ids: ['p1'] } })) as CallToolResult
    expect(result.structuredContent).toEqual({ id: 'run-1', state: 'queued' })
    expect(sent).toEqual([{ method: 'POST', url: '/api/v1/collection/runs', payload: '{"prompt_ids":["p1"]}' }])
    await client.close()
    await app.close()
  })
})
