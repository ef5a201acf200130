// Query fan-out storage (docs/collection.md): the searches an engine ran for an answer are
// stored with it, through the HTTP ingest and through a collection run, and come back in
// the engine's order on GET /api/v1/responses/{id}; repeats (by case and spacing) kept once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'
import { setAdapterOverride } from '../../src/collection/adapter-resolver.js'
import type { AnswerAdapter } from '../../src/collection/adapters/types.js'
import { cleanSearchQueries, searchQueryKey } from '../../src/ingest/search-queries.js'
import { addTarget, startRun, waitForRun } from '../collection/helpers.js'
import { generateDemoDataset } from '../../src/demo/generate-demo.js'
import { demoAnswerAdapter } from '../../src/collection/adapters/demo-adapter.js'

describe('search query cleaning', () => {
  it('groups by case, spacing and NFKC form; drops blanks and repeats; cuts long ones', () => {
    expect(searchQueryKey('  Best\tCRM  ２０２６ ')).toBe('best crm 2026')
    expect(cleanSearchQueries(['Best CRM 2026', '  ', 'best  crm 2026', 'crm pricing'])).toEqual(['Best CRM 2026', 'crm pricing'])
    expect(cleanSearchQueries([])).toBeUndefined()
    expect(cleanSearchQueries(['   '])).toBeUndefined()
    expect(cleanSearchQueries(['x'.repeat(1000)])?.[0]).toHaveLength(400)
    expect(cleanSearchQueries(Array.from({ length: 150 }, (_, i) => `q${i}`))).toHaveLength(100)
  })
})

describe('demo answers carry searches', () => {
  it('the demo dataset: answers that cite sources searched 1–4 times, the question first; the others not at all', () => {
    const dataset = generateDemoDataset({ today: '2026-05-10', days: 5 })
    const searched = dataset.responses.filter((r) => r.searchQueries)
    expect(searched.length).toBeGreaterThan(dataset.responses.length / 4)
    for (const r of dataset.responses) {
      if (r.citations.length === 0) expect(r.searchQueries).toBeUndefined()
      else {
        expect(r.searchQueries!.length).toBeGreaterThanOrEqual(1)
        expect(r.searchQueries!.length).toBeLessThanOrEqual(4)
        expect(r.searchQueries![0]).toMatch(/ 2026$|^how to /)
        expect(cleanSearchQueries(r.searchQueries)).toEqual(r.searchQueries)
      }
    }
  })

  it('the demo provider reports searches for a web-search target only', async () => {
    const adapter = demoAnswerAdapter({ latencyMs: 0 })
    const target = { provider: 'google' as const, model: 'gemini-2.5-flash', api: 'native' as const, web_search: true }
    const prompt = 'What is the best project management software for small teams?'
    const searching = await adapter.ask({ target, prompt, timeoutMs: 1000 })
    expect(searching.searchQueries?.[0]).toMatch(/^best project management software for small teams 20\d\d$/)
    expect(searching.webSearchCalls).toBe(searching.searchQueries?.length)
    const plain = await adapter.ask({ target: { ...target, web_search: false }, prompt, timeoutMs: 1000 })
    expect(plain.searchQueries).toBeUndefined()
  })
})

describe.each(testBackends)('search queries stored per answer (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let prompt: string

  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000 })
    a = await ctx.tenant({ name: 'A' })
    await createBrand(ctx, a.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    prompt = await createPrompt(ctx, a.key, 'Best CRM for startups?', ['crm'])
  }, 120_000)
  afterAll(async () => {
    setAdapterOverride(undefined)
    await ctx.close()
  })

  const detail = async (id: string) => {
    const response = await ctx.get(`/api/v1/responses/${id}`, a.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data as { search_queries: string[]; provider: string }
  }
  const idOf = async (externalId: string) =>
    (await ctx.database.db.selectFrom('response').select('id').where('workspace_id', '=', a.workspaceId).where('external_id', '=', externalId).executeTakeFirstOrThrow()).id

  it('keeps the searches of an ingested answer in order, repeats once; none is an empty list', async () => {
    await ingest(ctx, a.key, [
      {
        external_id: 'with-searches',
        prompt_id: prompt,
        provider: 'google',
        model: 'gemini-2.5-flash',
        content: 'Acme is a good CRM.',
        created_at: '2026-05-01T10:00:00Z',
        search_queries: ['best CRM for startups 2026', 'Acme CRM pricing', 'Best  crm for startups 2026'],
      },
      { external_id: 'without', prompt_id: prompt, provider: 'openai', model: 'gpt-4o', content: 'Acme.', created_at: '2026-05-01T11:00:00Z' },
    ])
    expect((await detail(await idOf('with-searches'))).search_queries).toEqual(['best CRM for startups 2026', 'Acme CRM pricing'])
    expect((await detail(await idOf('without'))).search_queries).toEqual([])
  })

  it('refuses blank, too long or too many searches with a message saying which and the limit; nothing stored', async () => {
    const base = { prompt_id: prompt, provider: 'openai', model: 'gpt-4o', content: 'x', created_at: '2026-05-01T10:00:00Z' }
    const response = await post(ctx, '/api/v1/ingest/responses', a.key, {
      responses: [
        { ...base, external_id: 'bad-1', search_queries: ['ok', ' '] },
        { ...base, external_id: 'bad-2', search_queries: ['y'.repeat(401)] },
        { ...base, external_id: 'bad-3', search_queries: Array.from({ length: 101 }, (_, i) => `q${i}`) },
        { ...base, external_id: 'bad-4', search_queries: 'one query' },
      ],
    })
    expect(response.statusCode).toBe(400)
    const fields = (response.json().error.details as { index: number; field: string; message: string }[]).map((d) => `${d.index} ${d.field}: ${d.message}`)
    expect(fields).toEqual(
      expect.arrayContaining([
        '0 search_queries[1]: search_queries[1] must not be empty or blank',
        '1 search_queries[0]: search_queries[0] must be at most 400 characters',
        '2 search_queries: search_queries must hold at most 100 items',
        '3 search_queries: search_queries must be an array or null',
      ]),
    )
    const stored = await ctx.database.db.selectFrom('response').select('id').where('workspace_id', '=', a.workspaceId).where('external_id', 'like', 'bad-%').execute()
    expect(stored).toEqual([])
  })

  it("stores a collection answer's searches (the adapter's searchQueries) with the answer", async () => {
    const searched: AnswerAdapter = {
      kind: 'openai',
      async ask(request) {
        return {
          content: `Acme answers "${request.prompt}".`,
          citations: [],
          modelServed: request.target.model,
          tokensIn: 1,
          tokensOut: 1,
          webSearchCalls: 2,
          // Cleaned on the way in: the blank one dropped, the long one cut.
          searchQueries: ['acme crm review', ' ', `long ${'z'.repeat(600)}`],
          latencyMs: 1,
          raw: {},
        }
      },
    }
    setAdapterOverride({ answer: () => searched })
    await addTarget(ctx, a.key, { provider: 'openai', model: 'fake-searching', web_search: true })
    const run = await waitForRun(ctx, a.key, (await startRun(ctx, a.key)).id)
    expect(run).toMatchObject({ state: 'succeeded', succeeded: 1 })
    const row = await ctx.database.db
      .selectFrom('response')
      .select('id')
      .where('workspace_id', '=', a.workspaceId)
      .where('external_id', 'like', `run:${run.id}:%`)
      .executeTakeFirstOrThrow()
    const queries = (await detail(row.id)).search_queries
    expect(queries[0]).toBe('acme crm review')
    expect(queries).toHaveLength(2)
    expect(queries[1]).toHaveLength(400)
  })

  it('deletes the searches with their answer', async () => {
    const id = await idOf('with-searches')
    await ctx.database.db.deleteFrom('response').where('workspace_id', '=', a.workspaceId).where('id', '=', id).execute()
    const left = await ctx.database.db.selectFrom('search_query').select('query').where('workspace_id', '=', a.workspaceId).where('response_id', '=', id).execute()
    expect(left).toEqual([])
  })
})
