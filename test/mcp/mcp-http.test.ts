// MCP over Streamable HTTP with the SDK's own client, against the app listening on a
// random port: the tools, their numbers against the HTTP routes, scopes, errors and
// workspace isolation.
import { READ_TOOLS, WRITE_TOOLS } from './expected-tools.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createApiKey, revokeApiKey } from '../../src/admin/api-key-store.js'
import { TOOL_DEFINITIONS } from '../../src/mcp/tools.js'
import { BrandDetailSchema, getBrandSchema } from '../../src/routes/api/v1/brands/read-schemas.js'
import { getPromptsSchema } from '../../src/routes/api/v1/prompts/read-schemas.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, post } from '../helpers/requests.js'
import { DAY1, DAY2, seedDashboardFixture, type DashboardFixture } from '../analytics/fixtures/dashboard-fixture.js'

const RANGE = { start_date: DAY1, end_date: DAY2 }
const RANGE_QUERY = `start_date=${DAY1}&end_date=${DAY2}`

describe.each(testBackends)('MCP over Streamable HTTP (%s)', (backend) => {
  let ctx: TestContext
  let fx: DashboardFixture
  let baseUrl: string
  let otherBrand: string
  const clients: Client[] = []

  const connect = async (key: string) => {
    const client = new Client({ name: 'beacon-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }))
    clients.push(client)
    return client
  }
  const routeData = async (url: string, key = fx.key) => {
    const response = await ctx.get(url, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    fx = await seedDashboardFixture(ctx)
    const aio = await post(ctx, '/api/v1/ingest/aio', fx.key, {
      observations: [
        { prompt_id: fx.prompts.crm, observed_at: `${DAY1}T08:00:00Z`, has_aio: true, overview_text: 'Acme and Globex lead the CRM market.' },
        { prompt_id: fx.prompts.pm, observed_at: `${DAY2}T08:00:00Z`, has_aio: false },
      ],
    })
    expect(aio.statusCode, aio.body).toBe(200)
    const other = await ctx.tenant({ name: 'Other workspace' })
    otherBrand = await createBrand(ctx, other.key, { name: 'Elsewhere' })
    baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    for (const client of clients) await client.close()
    await ctx.close()
  })

  it('lists a tool for every §16 route this build registered, with the route’s parameters as input schema', async () => {
    const client = await connect(fx.key)
    const { tools } = await client.listTools()
    // Fastify's own route table decides which tools must be there (get_response and
    // start_collection_run arrive with their routes).
    const expected = TOOL_DEFINITIONS.filter((d) => ctx.app.hasRoute({ method: d.method, url: d.url })).map((d) => d.name)
    expect(expected).toEqual(expect.arrayContaining([...READ_TOOLS, ...WRITE_TOOLS]))
    expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort())
    for (const tool of tools) expect(tool.description!.length, tool.name).toBeGreaterThan(60)

    // The schema is the route's: params + querystring, same properties and constraints.
    const getBrand = tools.find((t) => t.name === 'get_brand')!
    expect(getBrand.inputSchema.properties).toEqual(JSON.parse(JSON.stringify({ ...getBrandSchema.params.properties, ...getBrandSchema.querystring.properties })))
    expect(getBrand.inputSchema.required).toEqual(['brand_id'])
    const listPrompts = tools.find((t) => t.name === 'list_prompts')!
    expect(Object.keys(listPrompts.inputSchema.properties!).sort()).toEqual(Object.keys(getPromptsSchema.querystring.properties).sort())
    expect(listPrompts.inputSchema.required).toEqual(['brand_id'])
    expect(getBrand.annotations?.readOnlyHint).toBe(true)
    // The output schema is the route's `data` schema; the SDK client checks every result against it.
    expect(getBrand.outputSchema).toEqual(JSON.parse(JSON.stringify(BrandDetailSchema)))
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object')
  })

  it('every tool returns the same data as its HTTP route', async () => {
    const client = await connect(fx.key)
    const firstResponse = (await routeData(`/api/v1/responses?${RANGE_QUERY}`)).responses[0]
    const cases: { name: string; args: Record<string, unknown>; url: string }[] = [
      { name: 'get_filters', args: {}, url: '/api/v1/filters' },
      { name: 'get_dashboard', args: { ...RANGE, models: ['openai', 'anthropic'] }, url: `/api/v1/dashboard?${RANGE_QUERY}&models=openai,anthropic` },
      { name: 'list_brands', args: { per_page: 2 }, url: '/api/v1/brands?per_page=2' },
      { name: 'get_brand', args: { brand_id: fx.brands.acme, ...RANGE }, url: `/api/v1/brands/${fx.brands.acme}?${RANGE_QUERY}` },
      { name: 'list_prompts', args: { brand_id: fx.brands.globex, ...RANGE, tags: ['crm'] }, url: `/api/v1/prompts?brand_id=${fx.brands.globex}&${RANGE_QUERY}&tags=crm` },
      { name: 'get_prompt', args: { prompt_id: fx.prompts.crm, ...RANGE }, url: `/api/v1/prompts/${fx.prompts.crm}?${RANGE_QUERY}` },
      { name: 'list_sources', args: { ...RANGE, per_page: 3 }, url: `/api/v1/sources?${RANGE_QUERY}&per_page=3` },
      { name: 'list_urls', args: { ...RANGE }, url: `/api/v1/urls?${RANGE_QUERY}` },
      { name: 'list_responses', args: { ...RANGE, has_content: true, model_ids: ['gpt-4o'] }, url: `/api/v1/responses?${RANGE_QUERY}&has_content=true&model_ids=gpt-4o` },
      { name: 'get_aio_metrics', args: { ...RANGE, target_brand_id: fx.brands.acme }, url: `/api/v1/aio-metrics?${RANGE_QUERY}&target_brand_id=${fx.brands.acme}` },
      { name: 'get_response', args: { response_id: firstResponse.id }, url: `/api/v1/responses/${firstResponse.id}` },
      { name: 'list_search_queries', args: { ...RANGE, per_page: 5 }, url: `/api/v1/search-queries?${RANGE_QUERY}&per_page=5` },
    ]
    const listed = new Set((await client.listTools()).tools.map((t) => t.name))
    let called = 0
    for (const { name, args, url } of cases) {
      // A tool of a route from another branch is tested once its route is in the build.
      if (!listed.has(name)) continue
      const result = await call(client, name, args)
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy()
      const data = await routeData(url)
      expect(result.structuredContent, name).toEqual(data)
      expect(JSON.parse((result.content[0] as { text: string }).text), name).toEqual(data)
      called += 1
    }
    expect(called).toBeGreaterThanOrEqual(10)
    // The numbers are real ones, not two empty answers agreeing.
    const dashboard = await call(client, 'get_dashboard', RANGE)
    expect((dashboard.structuredContent as { brands: Record<string, { visibility_score: number }> }).brands.Acme.visibility_score).toBe(62.5)
    const aio = await call(client, 'get_aio_metrics', RANGE)
    expect(aio.structuredContent).toMatchObject({ total_queries: 2, queries_with_aio: 1 })
  })

  it('route errors come back as tool errors with the API’s message', async () => {
    const client = await connect(fx.key)
    const cases: { name: string; args: Record<string, unknown>; url: string }[] = [
      { name: 'get_dashboard', args: { start_date: '2025-02-30' }, url: '/api/v1/dashboard?start_date=2025-02-30' },
      { name: 'list_sources', args: { per_page: 500 }, url: '/api/v1/sources?per_page=500' },
      { name: 'get_dashboard', args: { colour: 'blue' }, url: '/api/v1/dashboard?colour=blue' },
      { name: 'get_dashboard', args: { models: ['altavista'] }, url: '/api/v1/dashboard?models=altavista' },
      { name: 'get_brand', args: { brand_id: 'not-a-uuid' }, url: '/api/v1/brands/not-a-uuid' },
      { name: 'list_prompts', args: {}, url: '/api/v1/prompts' },
    ]
    for (const { name, args, url } of cases) {
      const result = await call(client, name, args)
      const http = await ctx.get(url, fx.key)
      expect(http.statusCode, url).toBeGreaterThanOrEqual(400)
      expect(result.isError, url).toBe(true)
      expect((result.content[0] as { text: string }).text, url).toBe(http.json().error.message)
      expect(JSON.parse((result.content[1] as { text: string }).text)).toMatchObject({ status: http.statusCode, code: http.json().error.code })
    }
    const missing = await call(client, 'get_brand', {})
    expect(missing.isError).toBe(true)
    expect((missing.content[0] as { text: string }).text).toMatch(/brand_id is required/)
    const unknown = await call(client, 'drop_tables', {})
    expect(unknown.isError).toBe(true)
    expect((unknown.content[0] as { text: string }).text).toMatch(/No tool "drop_tables"/)
  })

  it('workspace isolation: another workspace’s brand is not found', async () => {
    const client = await connect(fx.key)
    const result = await call(client, 'get_brand', { brand_id: otherBrand, ...RANGE })
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toMatch(/not found/i)
    expect(JSON.parse((result.content[1] as { text: string }).text)).toMatchObject({ status: 404, code: 'not_found' })
    const brands = await call(client, 'list_brands', { is_active: false })
    expect(JSON.stringify(brands.structuredContent)).not.toContain('Elsewhere')
  })

  it('keys and scopes: 401 and 403 with the API envelope; GET and DELETE are 405', async () => {
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const none = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: rpc })
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(await none.json()).toMatchObject({ success: false, error: { code: 'invalid_api_key' } })
    const bogus = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer bvk_nope' }, body: rpc })
    expect(bogus.status).toBe(401)

    const writeOnly = await createApiKey(ctx.database.db, { workspaceId: fx.workspaceId, scopes: ['write:data'] })
    const refused = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${writeOnly.key}` }, body: rpc })
    expect(refused.status).toBe(403)
    const body = (await refused.json()) as { error: { message: string } }
    expect(body).toMatchObject({ success: false, error: { code: 'insufficient_scope' } })
    expect(body.error.message).toContain('read:analytics')
    // The SDK client sees the refusal as an error when connecting.
    await expect(connect(writeOnly.key)).rejects.toThrow(/403|insufficient_scope|read:analytics/)

    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${fx.key}` } })
      expect(answer.status).toBe(405)
      expect(answer.headers.get('allow')).toBe('POST')
      expect(await answer.json()).toMatchObject({ success: false, error: { code: 'method_not_allowed' } })
    }
  })

  it('a read-only key gets no write tools; a revoked key is refused', async () => {
    const readOnly = await createApiKey(ctx.database.db, { workspaceId: fx.workspaceId, scopes: ['read:analytics'] })
    const client = await connect(readOnly.key)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).not.toContain('start_collection_run')
    expect(names).toContain('get_dashboard')
    const result = await call(client, 'start_collection_run', {})
    expect(result.isError).toBe(true)
    // Without the route in this build the tool does not exist; with it, the key lacks write:data.
    expect((result.content[0] as { text: string }).text).toMatch(/No tool "start_collection_run"|write:data/)

    await revokeApiKey(ctx.database.db, readOnly.id)
    await expect(client.listTools()).rejects.toThrow(/401|revoked/)
  })
})
