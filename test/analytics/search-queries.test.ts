// GET /api/v1/search-queries and the MCP tool list_search_queries (docs/collection.md, query
// fan-out): the engines' own searches for the workspace's prompts, ranked by answers, with
// providers and first/last seen; the analytics filters, the spec's pagination, another
// workspace's searches never visible, bad parameters a 400 that says what to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, ingest } from '../helpers/requests.js'

interface Ranked {
  query: string
  count: number
  prompts: number
  providers: { provider: string; count: number }[]
  first_seen: string
  last_seen: string
}

describe.each(testBackends)('GET /api/v1/search-queries (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  let crm: string
  let hr: string
  let otherPrompt: string

  const answer = (prompt: string, provider: string, model: string, createdAt: string, searchQueries: string[]) => ({
    prompt_id: prompt,
    provider,
    model,
    content: 'An answer.',
    created_at: createdAt,
    search_queries: searchQueries,
  })

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant({ name: 'A' })
    b = await ctx.tenant({ name: 'B' })
    crm = await createPrompt(ctx, a.key, 'Best CRM for startups?', ['crm'])
    hr = await createPrompt(ctx, a.key, 'Best HR software?', ['hr'])
    await ingest(ctx, a.key, [
      answer(crm, 'openai', 'gpt-5', '2026-05-01T08:00:00Z', ['best crm for startups 2026', 'acme crm pricing']),
      answer(crm, 'google', 'gemini-2.5-flash', '2026-05-02T09:00:00Z', ['Best CRM for startups 2026', 'crm comparison']),
      answer(crm, 'anthropic', 'claude-sonnet-4-5', '2026-05-03T10:00:00Z', ['best crm  for startups 2026']),
      answer(hr, 'google', 'gemini-2.5-flash', '2026-05-04T11:00:00Z', ['best hr software', 'best crm for startups 2026']),
      // Outside the period asked for below.
      answer(hr, 'openai', 'gpt-5', '2026-04-01T12:00:00Z', ['old search']),
    ])
    // Another workspace's searches, one of them the same text as A's most frequent.
    otherPrompt = await createPrompt(ctx, b.key, 'Which CRM?', ['crm'])
    await ingest(ctx, b.key, [
      answer(otherPrompt, 'openai', 'gpt-5', '2026-05-02T08:00:00Z', ['best crm for startups 2026', 'b-only secret search']),
      answer(otherPrompt, 'openai', 'gpt-5', '2026-05-02T09:00:00Z', ['b-only secret search']),
    ])
  })
  afterAll(() => ctx.close())

  const PERIOD = 'start_date=2026-05-01&end_date=2026-05-31'
  const list = async (query: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/search-queries?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data as { search_queries: Ranked[]; pagination: Record<string, number> }
  }

  it('ranks the searches by answers, with providers, prompts and first/last seen', async () => {
    const data = await list(PERIOD)
    expect(data.search_queries.map((q) => [q.query, q.count])).toEqual([
      ['best crm for startups 2026', 4],
      ['acme crm pricing', 1],
      ['best hr software', 1],
      ['crm comparison', 1],
    ])
    const top = data.search_queries[0]
    expect(top.prompts).toBe(2)
    expect(top.providers).toEqual([
      { provider: 'google', count: 2 },
      { provider: 'anthropic', count: 1 },
      { provider: 'openai', count: 1 },
    ])
    expect(new Date(top.first_seen).toISOString()).toBe('2026-05-01T08:00:00.000Z')
    expect(new Date(top.last_seen).toISOString()).toBe('2026-05-04T11:00:00.000Z')
    expect(data.pagination).toEqual({ page: 1, per_page: 20, total_items: 4, total_pages: 1 })
  })

  it('takes the analytics filters: providers, model ids, tags, prompt template and dates', async () => {
    const names = async (query: string) => (await list(`${PERIOD}&${query}`)).search_queries.map((q) => `${q.query}:${q.count}`)
    // Google's two spellings tie: the first in sort order is shown.
    expect(await names('models=google')).toEqual(['Best CRM for startups 2026:2', 'best hr software:1', 'crm comparison:1'])
    expect(await names('models=openai,anthropic')).toEqual(['best crm for startups 2026:2', 'acme crm pricing:1'])
    expect(await names('model_ids=claude-sonnet-4-5')).toEqual(['best crm for startups 2026:1'])
    expect(await names('tags=hr')).toEqual(['best crm for startups 2026:1', 'best hr software:1'])
    expect(await names('tags=nothing-tagged-so')).toEqual([])
    expect(await names(`prompt_template_id=${crm}`)).toEqual(['best crm for startups 2026:3', 'acme crm pricing:1', 'crm comparison:1'])
    expect((await list('start_date=2026-04-01&end_date=2026-04-01')).search_queries.map((q) => q.query)).toEqual(['old search'])
  })

  it('pages with page/per_page; a page past the end is empty with the totals', async () => {
    const second = await list(`${PERIOD}&per_page=2&page=2`)
    expect(second.search_queries.map((q) => q.query)).toEqual(['best hr software', 'crm comparison'])
    expect(second.pagination).toEqual({ page: 2, per_page: 2, total_items: 4, total_pages: 2 })
    const past = await list(`${PERIOD}&per_page=2&page=9`)
    expect(past).toEqual({ search_queries: [], pagination: { page: 9, per_page: 2, total_items: 4, total_pages: 2 } })
  })

  it("never shows another workspace's searches; its prompt id is a 404", async () => {
    const mine = await list(PERIOD)
    expect(JSON.stringify(mine)).not.toContain('b-only')
    expect(mine.search_queries[0].count).toBe(4)
    const theirs = await list(PERIOD, b.key)
    expect(theirs.search_queries.map((q) => [q.query, q.count])).toEqual([
      ['b-only secret search', 2],
      ['best crm for startups 2026', 1],
    ])
    const foreign = await ctx.get(`/api/v1/search-queries?${PERIOD}&prompt_template_id=${otherPrompt}`, a.key)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().error).toMatchObject({ code: 'not_found', param: 'prompt_template_id' })
    expect(foreign.body).not.toContain('Which CRM')
  })

  it('answers bad parameters with 400 and a message that says what to send', async () => {
    const cases: [string, string, RegExp][] = [
      ['per_page=0', 'per_page', /1|100/],
      ['per_page=101', 'per_page', /100/],
      ['page=0', 'page', /1/],
      ['start_date=2026-02-30', 'start_date', /YYYY-MM-DD|date/i],
      ['start_date=2026-05-10&end_date=2026-05-01', 'start_date', /before|after|end_date/],
      ['models=bing', 'models', /openai/],
      ['model_ids=no-such-model', 'model_ids', /\/api\/v1\/filters/],
      ['prompt_template_id=crm', 'prompt_template_id', /UUID|uuid/],
      ['promt_template_id=x', 'promt_template_id', /prompt_template_id|allowed|Unknown/i],
    ]
    for (const [query, param, says] of cases) {
      const response = await ctx.get(`/api/v1/search-queries?${query}`, a.key)
      expect(response.statusCode, query).toBe(400)
      const error = response.json().error
      expect(error.param, query).toBe(param)
      expect(error.message, query).toMatch(says)
    }
  })

  it('needs read:analytics', async () => {
    const writer = await ctx.tenant({ scopes: ['write:data'] })
    const response = await ctx.get('/api/v1/search-queries', writer.key)
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('insufficient_scope')
  })

  it('is in the OpenAPI document with its parameters and record', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const operation = doc.paths['/api/v1/search-queries'].get
    const names = operation.parameters.map((p: { name: string }) => p.name)
    expect(names).toEqual(expect.arrayContaining(['start_date', 'end_date', 'models', 'model_ids', 'tags', 'prompt_template_id', 'page', 'per_page']))
    const record = operation.responses['200'].content['application/json'].schema.properties.data.properties.search_queries.items
    expect(Object.keys(record.properties).sort()).toEqual(['count', 'first_seen', 'last_seen', 'prompts', 'providers', 'query'])
  })

  it('the MCP tool list_search_queries takes the route parameters and returns its data', async () => {
    const baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    const client = new Client({ name: 'beacon-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${a.key}` } } }))
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'list_search_queries')
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(
        ['end_date', 'model_ids', 'models', 'page', 'per_page', 'prompt_template_id', 'start_date', 'tags'].sort(),
      )
      const args = { start_date: '2026-05-01', end_date: '2026-05-31', models: ['google'], per_page: 2 }
      const result = (await client.callTool({ name: 'list_search_queries', arguments: args })) as CallToolResult
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
      const route = await list(`${PERIOD}&models=google&per_page=2`)
      expect(result.structuredContent).toEqual(route)
      expect(route.search_queries).toHaveLength(2)
      const bad = (await client.callTool({ name: 'list_search_queries', arguments: { per_page: 500 } })) as CallToolResult
      expect(bad.isError).toBe(true)
      expect(JSON.stringify(bad.content)).toMatch(/per_page/)
    } finally {
      await client.close()
    }
  })
})
