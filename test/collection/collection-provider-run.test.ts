// A run end to end through the REAL adapters and SDKs against local fakes of the providers'
// wire formats (no adapter override): a stored credential reaches the provider, the
// provider's cited sources become citations, answers are analysed and counted in
// /dashboard, and an openai_compatible target on a local server needs COLLECTION_ALLOW_PRIVATE.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { startProviderFakes, type ProviderFakes } from '../fakes/index.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

const TODAY = new Date().toISOString().slice(0, 10)
const SECRET = 'provider-run-test-secret-key-0123456789abcdef'

describe.each(testBackends)('collection through the provider SDKs (%s)', (backend) => {
  let ctx: TestContext
  let providers: ProviderFakes

  beforeAll(async () => {
    const fast = { latencyMs: 20 }
    providers = await startProviderFakes({
      // OpenAI refuses one key, as the real API does with 401 and its error JSON.
      openai: {
        ...fast,
        script: (request) =>
          request.headers.authorization === 'Bearer sk-fake-invalid' ? { type: 'error', status: 401, message: 'Incorrect API key provided: sk-fake-*****alid' } : undefined,
      },
      anthropic: fast,
      perplexity: fast,
    })
    // The adapters read base URLs from the environment, as in production; keys only from the credential.
    vi.stubEnv('OPENAI_BASE_URL', providers.env.OPENAI_BASE_URL)
    vi.stubEnv('ANTHROPIC_BASE_URL', providers.env.ANTHROPIC_BASE_URL)
    vi.stubEnv('OPENAI_API_KEY', undefined)
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-environment')
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, secretKey: SECRET, collectionAllowPrivate: true })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await providers?.close()
    vi.unstubAllEnvs()
  })

  it('asks OpenAI (stored key, web search) and Anthropic (environment key); citations and mentions land in /dashboard', async () => {
    const w = await ctx.tenant()
    await createBrand(ctx, w.key, { name: 'Acme', aliases: ['Acme Boards'], domain: 'acme.example', is_primary: true })
    await createBrand(ctx, w.key, { name: 'Globex', aliases: ['Globex Tasks'] })
    const prompts = [await createPrompt(ctx, w.key, 'Best project tool for small teams?'), await createPrompt(ctx, w.key, 'Cheapest kanban board?')]
    const stored = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/collection/credentials/openai-main',
      headers: { authorization: `Bearer ${w.key}` },
      payload: { provider: 'openai', api_key: 'sk-stored-openai-key-1234' },
    })
    expect(stored.statusCode, stored.body).toBeLessThan(300)
    const openai = await addTarget(ctx, w.key, { provider: 'openai', model: 'gpt-5', web_search: true, samples: 2, credential: 'openai-main' })
    const anthropic = await addTarget(ctx, w.key, { provider: 'anthropic', model: 'claude-sonnet-4-5', web_search: true })

    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    // planned = prompts × (2 samples of OpenAI + 1 of Anthropic)
    expect(run).toMatchObject({ state: 'succeeded', planned: 6, succeeded: 6, failed: 0, duplicates: 0, skipped: 0, errors: [] })
    expect(run.cost_usd).toBeGreaterThan(0)

    const openaiRequests = providers.fakes.openai.requests.filter((r) => r.path.endsWith('/responses'))
    expect(openaiRequests).toHaveLength(4)
    expect(openaiRequests.every((r) => r.headers.authorization === 'Bearer sk-stored-openai-key-1234')).toBe(true)
    expect(openaiRequests.every((r) => JSON.stringify(r.body).includes('web_search'))).toBe(true)
    const anthropicRequests = providers.fakes.anthropic.requests.filter((r) => r.path.endsWith('/messages'))
    expect(anthropicRequests).toHaveLength(2)
    // The SDK (1.x) sends the key as a bearer token; older ones used x-api-key.
    expect(anthropicRequests[0].headers['x-api-key'] ?? anthropicRequests[0].headers.authorization).toMatch(/^(Bearer )?sk-ant-from-environment$/)

    const responses = await ctx.database.db.selectFrom('response').select(['id', 'external_id', 'provider', 'model']).where('workspace_id', '=', w.workspaceId).execute()
    expect(responses).toHaveLength(6)
    expect(responses.filter((r) => r.external_id?.startsWith(`run:${run.id}:${openai}:`))).toHaveLength(4)
    expect(responses.filter((r) => r.external_id?.startsWith(`run:${run.id}:${anthropic}:`))).toHaveLength(2)
    expect(new Set(responses.map((r) => r.external_id))).toEqual(
      new Set([...prompts.flatMap((p) => [`run:${run.id}:${openai}:${p}:1`, `run:${run.id}:${openai}:${p}:2`]), ...prompts.map((p) => `run:${run.id}:${anthropic}:${p}:1`)]),
    )
    // The OpenAI answers' url_citation annotations are stored as the response's citations
    // (normalised: no www.; the fixture's acme.example is a reserved name, not a site, and is dropped).
    const openaiResponse = responses.find((r) => r.provider === 'openai')
    const citations = await ctx.database.db.selectFrom('citation').select('url').where('workspace_id', '=', w.workspaceId).where('response_id', '=', openaiResponse!.id).execute()
    expect(citations.map((c) => c.url)).toEqual(['https://example-reviews.com/pm-tools'])
    const meta = await ctx.database.db.selectFrom('collection_answer').selectAll().where('workspace_id', '=', w.workspaceId).execute()
    expect(meta).toHaveLength(6)
    expect(meta.find((m) => m.model_served?.startsWith('gpt-5'))).toMatchObject({ outcome: 'succeeded' })

    const dashboard = await ctx.get(`/api/v1/dashboard?start_date=${TODAY}&end_date=${TODAY}`, w.key, { headers: { 'cache-control': 'no-cache' } })
    expect(dashboard.statusCode, dashboard.body).toBe(200)
    expect(dashboard.json().data.brands.Acme.visibility_score).toBeGreaterThan(0)
    expect(dashboard.json().data.total_sources).toBeGreaterThan(0)
  })

  it('an openai_compatible target on a local server answers through chat completions; a refused key flags the target after one request', async () => {
    const w = await ctx.tenant()
    await createBrand(ctx, w.key, { name: 'Acme', is_primary: true })
    await createPrompt(ctx, w.key, 'Which kanban tool?')
    await createPrompt(ctx, w.key, 'Which roadmap tool?')
    // Perplexity's fake speaks chat completions, as any OpenAI-compatible server does.
    const before = providers.fakes.perplexity.requests.length
    await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3.1:8b', api: 'openai_compatible', base_url: providers.env.PERPLEXITY_BASE_URL })
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
    expect(run).toMatchObject({ state: 'succeeded', planned: 2, succeeded: 2 })
    expect(providers.fakes.perplexity.requests.length - before).toBe(2)

    // A 401 from the provider: the target is flagged, the run records the error, no retry storm.
    const refused = await ctx.tenant()
    await createPrompt(ctx, refused.key, 'One?')
    await createPrompt(ctx, refused.key, 'Two?')
    await createPrompt(ctx, refused.key, 'Three?')
    const openaiBefore = providers.fakes.openai.requests.length
    const stored = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/collection/credentials/bad',
      headers: { authorization: `Bearer ${refused.key}` },
      payload: { provider: 'openai', api_key: 'sk-fake-invalid' },
    })
    expect(stored.statusCode, stored.body).toBeLessThan(300)
    const target = await addTarget(ctx, refused.key, { provider: 'openai', model: 'gpt-5', credential: 'bad' })
    const failed = await waitForRun(ctx, refused.key, (await startRun(ctx, refused.key)).id, 60_000)
    expect(failed).toMatchObject({ state: 'failed', planned: 3, succeeded: 0, failed: 3 })
    expect(failed.errors).toEqual([{ target_id: target, code: 'unauthorized', message: expect.stringContaining('Incorrect API key'), count: 3 }])
    // The provider's message quotes the key: it must not reach the run record.
    expect(JSON.stringify(failed)).not.toContain('sk-fake-invalid')
    expect(providers.fakes.openai.requests.length - openaiBefore).toBe(1)
    expect((await ctx.get(`/api/v1/collection/targets/${target}`, refused.key)).json().data.flagged).toBe(true)
  })
})
