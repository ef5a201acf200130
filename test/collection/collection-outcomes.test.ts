// A run over the three native providers whose fakes (through the real SDKs, by base URL) answer
// 2 prompts of 5 and send what the real APIs send when they do not answer for the other 3
// (test/fakes/non-answers.ts, shapes from the SDK type definitions). Only completed answers are
// stored, so the primary brand's visibility is what the real answers say (100), and every
// planned answer is counted once in one of the run's counters (docs/collection.md, "outcomes").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import {
  anthropicMaxTokens,
  anthropicPaused,
  anthropicRefusal,
  anthropicSearchError,
  geminiBlockedPrompt,
  geminiMaxTokens,
  geminiQuotaError,
  geminiSafety,
  OPENAI_INSUFFICIENT_QUOTA,
  openAIIncomplete,
  openAIRefusal,
  promptOf,
  startProviderFakes,
  type FakeStep,
  type ProviderFakes,
  type RecordedRequest,
} from '../fakes/index.js'
import { RETRY_OUTPUT_TOKENS } from '../../src/collection/adapters/parse-helpers.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

const TODAY = new Date().toISOString().slice(0, 10)
const SECRET = 'outcomes-test-secret-key-0123456789abcdef'
const PROMPTS = ['Q1 best project tool?', 'Q2 cheapest kanban board?', 'Q3 first hard one?', 'Q4 second hard one?', 'Q5 third hard one?']
const COUNTERS = ['succeeded', 'failed', 'duplicates', 'skipped', 'refused', 'incomplete', 'search_failed', 'quota_exhausted'] as const

const which = (request: RecordedRequest) => promptOf(request.body).slice(0, 2)
const ok = (body: unknown): FakeStep => ({ type: 'ok', body })

describe.each(testBackends)('collection outcomes over the native providers (%s)', (backend) => {
  let ctx: TestContext
  let providers: ProviderFakes

  beforeAll(async () => {
    providers = await startProviderFakes({
      openai: {
        latencyMs: 10,
        script: (request) => {
          const q = which(request)
          if (q === 'Q3') return ok(openAIRefusal())
          if (q === 'Q4') return ok(openAIIncomplete('content_filter'))
          if (q === 'Q5') return ok(openAIIncomplete('max_output_tokens'))
          // Q6: the quota test's prompts.
          if (q === 'Q6') return { type: 'error', status: 429, body: OPENAI_INSUFFICIENT_QUOTA }
          return undefined
        },
      },
      anthropic: {
        latencyMs: 10,
        script: (request) => {
          const q = which(request)
          const continued = ((request.body as { messages?: unknown[] }).messages ?? []).length > 1
          if (q === 'Q1' && !continued) return ok(anthropicPaused('best project tool'))
          if (q === 'Q3') return ok(anthropicRefusal())
          if (q === 'Q4') return ok(anthropicMaxTokens())
          if (q === 'Q5') return ok(anthropicSearchError('third hard one'))
          return undefined
        },
      },
      google: {
        latencyMs: 10,
        script: (request) => {
          const q = which(request)
          if (q === 'Q3') return ok(geminiSafety())
          if (q === 'Q4') return ok(geminiMaxTokens())
          if (q === 'Q5') return ok(geminiBlockedPrompt())
          if (q === 'Q6') return { type: 'error', status: 429, body: geminiQuotaError('PerDay') }
          return undefined
        },
      },
    })
    for (const name of ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'GEMINI_BASE_URL']) vi.stubEnv(name, providers.env[name])
    // One retry of a failed search, soon: the test waits for it.
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, secretKey: SECRET, collectionMaxAttempts: 2 })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await providers?.close()
    vi.unstubAllEnvs()
  })

  async function credential(key: string, provider: string): Promise<string> {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/collection/credentials/${provider}-key`,
      headers: { authorization: `Bearer ${key}` },
      payload: { provider, api_key: `sk-${provider}-stored-key-1234` },
    })
    expect(response.statusCode, response.body).toBeLessThan(300)
    return `${provider}-key`
  }

  it('5 prompts × 3 targets, 3 prompts not answered: only the 6 answers are stored, visibility 100, counters add up to planned', async () => {
    const w = await ctx.tenant()
    await createBrand(ctx, w.key, { name: 'Acme', aliases: ['Acme Boards'], domain: 'acme.example', is_primary: true })
    const prompts: string[] = []
    for (const text of PROMPTS) prompts.push(await createPrompt(ctx, w.key, text))
    const openai = await addTarget(ctx, w.key, { provider: 'openai', model: 'gpt-5', web_search: true, credential: await credential(w.key, 'openai') })
    const anthropic = await addTarget(ctx, w.key, { provider: 'anthropic', model: 'claude-sonnet-4-6', web_search: true, credential: await credential(w.key, 'anthropic') })
    // Without search: Gemini's grounding redirects would lead to Google, which this test never asks.
    const google = await addTarget(ctx, w.key, { provider: 'google', model: 'gemini-2.5-flash', web_search: false, credential: await credential(w.key, 'google') })
    const before = { openai: providers.fakes.openai.requests.length, anthropic: providers.fakes.anthropic.requests.length }

    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    expect(run).toMatchObject({ planned: 15, succeeded: 6, failed: 0, duplicates: 0, skipped: 0, refused: 5, incomplete: 3, search_failed: 1, quota_exhausted: 0 })
    expect(COUNTERS.reduce((sum, counter) => sum + run[counter], 0)).toBe(run.planned)
    // A failed engine search is a problem to look at; refusals and cut answers are what the engines did.
    expect(run.state).toBe('failed')
    expect(run.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target_id: openai, code: 'refused', count: 2 }),
        expect.objectContaining({ target_id: openai, code: 'incomplete', count: 1 }),
        expect.objectContaining({ target_id: anthropic, code: 'search_failed', count: 1 }),
        expect.objectContaining({ target_id: google, code: 'refused', count: 2 }),
      ]),
    )

    const db = ctx.database.db
    const responses = await db.selectFrom('response').select(['external_id', 'content']).where('workspace_id', '=', w.workspaceId).execute()
    expect(responses).toHaveLength(6)
    const answered = new Set(prompts.slice(0, 2))
    expect(responses.every((r) => answered.has(r.external_id!.split(':')[3]))).toBe(true)
    // The paused Anthropic answer was continued and stored whole.
    expect(responses.find((r) => r.external_id!.startsWith(`run:${run.id}:${anthropic}:${prompts[0]}`))?.content).toContain('Acme Boards is the top pick')

    // Each attempt that was not an answer is kept with its raw JSON: the cut ones twice (the retry with a
    // larger cap), the failed search twice (COLLECTION_MAX_ATTEMPTS=2).
    const audit = await db.selectFrom('collection_non_answer').selectAll().where('workspace_id', '=', w.workspaceId).where('run_id', '=', run.id).execute()
    const tally = (target: string) =>
      audit
        .filter((a) => a.target_id === target)
        .map((a) => a.outcome)
        .sort()
    expect(tally(openai)).toEqual(['incomplete', 'incomplete', 'refused', 'refused'])
    expect(tally(anthropic)).toEqual(['incomplete', 'incomplete', 'refused', 'search_failed', 'search_failed'])
    expect(tally(google)).toEqual(['incomplete', 'incomplete', 'refused', 'refused'])
    const blocked = audit.find((a) => a.reason === 'promptFeedback.blockReason: PROHIBITED_CONTENT')
    expect(blocked?.raw).toEqual(geminiBlockedPrompt())
    const outcomes = await db.selectFrom('collection_answer').select(['outcome']).where('workspace_id', '=', w.workspaceId).where('run_id', '=', run.id).execute()
    expect(outcomes).toHaveLength(15)

    // The retry of a cut answer asked for the larger cap; the paused turn was continued once.
    const openaiRequests = providers.fakes.openai.requests.slice(before.openai).filter((r) => which(r) === 'Q5')
    expect(openaiRequests.map((r) => (r.body as { max_output_tokens: number }).max_output_tokens).sort((a, b) => a - b)).toEqual([8192, RETRY_OUTPUT_TOKENS])
    expect(providers.fakes.anthropic.requests.slice(before.anthropic).filter((r) => which(r) === 'Q1')).toHaveLength(2)

    // Non-answers are billed: the run is charged for them, and every budget reservation was settled to
    // what the provider billed, so today's spend is exactly the run's cost.
    expect(run.cost_usd).toBeGreaterThan(0)
    const spend = await db.selectFrom('collection_spend').select('usd').where('workspace_id', '=', w.workspaceId).executeTakeFirstOrThrow()
    expect(Number(spend.usd)).toBeCloseTo(run.cost_usd, 5)
    expect(audit.reduce((sum, a) => sum + Number(a.cost_usd), 0)).toBeGreaterThan(0)

    const dashboard = await ctx.get(`/api/v1/dashboard?start_date=${TODAY}&end_date=${TODAY}`, w.key, { headers: { 'cache-control': 'no-cache' } })
    expect(dashboard.statusCode, dashboard.body).toBe(200)
    expect(dashboard.json().data.brands.Acme.visibility_score).toBe(100)
  })

  it('an exhausted quota (OpenAI insufficient_quota, Gemini daily RESOURCE_EXHAUSTED) flags the target and is never retried', async () => {
    const w = await ctx.tenant()
    for (const text of ['Q6 one?', 'Q6 two?', 'Q6 three?']) await createPrompt(ctx, w.key, text)
    const openai = await addTarget(ctx, w.key, { provider: 'openai', model: 'gpt-5', credential: await credential(w.key, 'openai') })
    const google = await addTarget(ctx, w.key, { provider: 'google', model: 'gemini-2.5-flash', credential: await credential(w.key, 'google') })
    const before = { openai: providers.fakes.openai.requests.length, google: providers.fakes.google.requests.length }
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
    expect(run).toMatchObject({ state: 'failed', planned: 6, succeeded: 0, failed: 0, quota_exhausted: 6 })
    expect(providers.fakes.openai.requests.length - before.openai).toBe(1)
    expect(providers.fakes.google.requests.length - before.google).toBe(1)
    for (const target of [openai, google]) {
      const shown = (await ctx.get(`/api/v1/collection/targets/${target}`, w.key)).json().data
      expect(shown).toMatchObject({ flagged: true })
    }
    const audit = await ctx.database.db.selectFrom('collection_non_answer').select(['outcome', 'reason']).where('workspace_id', '=', w.workspaceId).execute()
    expect(audit.map((a) => a.reason).sort()).toEqual(['QuotaFailure.quotaId: GenerateRequestsPerDayPerProjectPerModel-FreeTier', 'error.code: insufficient_quota'])
  })
})
