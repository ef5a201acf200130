// GET /collection/runs/{id}/non-answers[/{non_answer_id}] on every backend: a run over the real
// SDKs against the provider fakes (test/fakes/non-answers.ts, shapes from the SDK type
// definitions) refuses, cuts and runs out of quota; the routes list those attempts with the
// provider's reason, page through them, return the raw JSON only on the single item (never the
// key the request carried), answer 404 for another workspace's run and 400 for bad parameters.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'
import { anthropicRefusal, OPENAI_INSUFFICIENT_QUOTA, openAIIncomplete, promptOf, startProviderFakes, type ProviderFakes, type RecordedRequest } from '../fakes/index.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

const SECRET = 'non-answers-test-secret-key-0123456789abcdef'
const STORED_KEY = 'sk-never-returned-0123456789-abcd'
const which = (request: RecordedRequest) => promptOf(request.body).slice(0, 2)

interface NonAnswerBody {
  id: string
  run_id: string
  target_id: string
  prompt_id: string
  prompt: string | null
  outcome: string
  reason: string
  provider: string | null
  model: string | null
  attempt: number
  has_raw: boolean
  created_at: string
  raw?: unknown
}

describe.each(testBackends)('collection run non-answers (%s)', (backend) => {
  let ctx: TestContext
  let providers: ProviderFakes
  // One run, shared by the tests: Q1 answered; Q2 refused by Anthropic; Q3 cut twice by OpenAI
  // (the retry with a larger cap is a second attempt); Q4 out of OpenAI quota.
  let w: { key: string; workspaceId: string }
  let runId: string
  let targets: { openai: string; anthropic: string }
  const prompts: Record<string, string> = {}

  beforeAll(async () => {
    providers = await startProviderFakes({
      openai: {
        latencyMs: 5,
        script: (request) => {
          const q = which(request)
          if (q === 'Q3') return { type: 'ok', body: openAIIncomplete('max_output_tokens') }
          if (q === 'Q4') return { type: 'error', status: 429, body: OPENAI_INSUFFICIENT_QUOTA }
          return undefined
        },
      },
      anthropic: { latencyMs: 5, script: (request) => (which(request) === 'Q2' ? { type: 'ok', body: anthropicRefusal() } : undefined) },
    })
    for (const name of ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL']) vi.stubEnv(name, providers.env[name])
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, secretKey: SECRET, collectionMaxAttempts: 1 })
    w = await ctx.tenant()
    for (const text of ['Q1 which board?', 'Q2 which risky thing?', 'Q3 which long list?', 'Q4 which quota?']) prompts[text.slice(0, 2)] = await createPrompt(ctx, w.key, text)
    for (const provider of ['openai', 'anthropic']) {
      const stored = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v1/collection/credentials/${provider}-key`,
        headers: { authorization: `Bearer ${w.key}` },
        payload: { provider, api_key: STORED_KEY },
      })
      expect(stored.statusCode, stored.body).toBeLessThan(300)
    }
    targets = {
      openai: await addTarget(ctx, w.key, { provider: 'openai', model: 'gpt-5', credential: 'openai-key' }),
      anthropic: await addTarget(ctx, w.key, { provider: 'anthropic', model: 'claude-sonnet-4-6', credential: 'anthropic-key' }),
    }
    // Only the Anthropic target is asked Q2 and only OpenAI Q3/Q4, so the expected rows are few and exact.
    runId = (await startRun(ctx, w.key, { target_ids: [targets.openai, targets.anthropic] })).id
    await waitForRun(ctx, w.key, runId, 90_000)
  }, 180_000)
  afterAll(async () => {
    await ctx?.close()
    await providers?.close()
    vi.unstubAllEnvs()
  })

  const list = (query = '', key = w.key, run = runId) => ctx.get(`/api/v1/collection/runs/${run}/non-answers${query}`, key)

  it('lists every attempt the providers did not complete, with reason, prompt and target, oldest first', async () => {
    const run = (await ctx.get(`/api/v1/collection/runs/${runId}`, w.key)).json().data
    // The server adds the counters up, so the dashboard need not.
    expect(run.answers_counted).toBe(run.planned)
    const response = await list()
    expect(response.statusCode, response.body).toBe(200)
    const { non_answers: rows, pagination } = response.json().data as { non_answers: NonAnswerBody[]; pagination: Record<string, unknown> }
    // The quota flags the OpenAI target, so whichever of Q3/Q4 OpenAI was asked after it is not asked at all;
    // every row there is must be one the providers sent.
    const seen = rows.map((r) => `${r.provider}:${r.prompt?.slice(0, 2)}:${r.outcome}:${r.attempt}`)
    expect(seen).toContain('anthropic:Q2:refused:0')
    expect(seen).toContain('openai:Q4:quota_exhausted:0')
    expect(seen.every((s) => ['anthropic:Q2:refused:0', 'openai:Q4:quota_exhausted:0', 'openai:Q3:incomplete:0', 'openai:Q3:incomplete:1'].includes(s))).toBe(true)
    expect(pagination).toEqual({ page: 1, per_page: 50, total_items: rows.length, total_pages: 1, has_next: false, has_prev: false })
    const refusal = rows.find((r) => r.outcome === 'refused')!
    expect(refusal).toMatchObject({
      run_id: runId,
      target_id: targets.anthropic,
      prompt_id: prompts.Q2,
      prompt: 'Q2 which risky thing?',
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      reason: expect.stringContaining('refusal'),
      has_raw: true,
    })
    // The list never carries the raw JSON (large; one item at a time).
    expect(rows.every((r) => !('raw' in r))).toBe(true)
    const times = rows.map((r) => Date.parse(r.created_at))
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it("returns one non-answer with the provider's JSON as received, and never the key the request carried", async () => {
    const rows = (await list()).json().data.non_answers as NonAnswerBody[]
    const refusal = rows.find((r) => r.outcome === 'refused')!
    const one = await ctx.get(`/api/v1/collection/runs/${runId}/non-answers/${refusal.id}`, w.key)
    expect(one.statusCode, one.body).toBe(200)
    expect(one.json().data).toMatchObject({ ...refusal, raw: anthropicRefusal() })
    const quota = rows.find((r) => r.outcome === 'quota_exhausted')!
    const quotaBody = await ctx.get(`/api/v1/collection/runs/${runId}/non-answers/${quota.id}`, w.key)
    // An exhausted quota came as an HTTP error: its error body, not the request.
    expect(quotaBody.json().data.raw).toEqual({ error: OPENAI_INSUFFICIENT_QUOTA.error })
    for (const body of [one.body, quotaBody.body]) {
      expect(body).not.toContain(STORED_KEY)
      expect(body.toLowerCase()).not.toMatch(/authorization|x-api-key|bearer/)
    }
    // The requests did carry it: the check above could fail.
    expect(providers.fakes.anthropic.requests.some((r) => JSON.stringify(r.headers).includes(STORED_KEY))).toBe(true)
    // Another run's id with this item: 404.
    const otherRun = (await startRun(ctx, w.key, { target_ids: [targets.anthropic], prompt_ids: [prompts.Q1] })).id
    await waitForRun(ctx, w.key, otherRun)
    expect((await ctx.get(`/api/v1/collection/runs/${otherRun}/non-answers/${refusal.id}`, w.key)).statusCode).toBe(404)
    // A run without non-answers: an empty page, not a 404.
    const empty = await list('', w.key, otherRun)
    expect(empty.statusCode).toBe(200)
    expect(empty.json().data).toEqual({ non_answers: [], pagination: { page: 1, per_page: 50, total_items: 0, total_pages: 0, has_next: false, has_prev: false } })
  })

  it('pages through the rows and filters by outcome', async () => {
    const all = (await list()).json().data.non_answers as NonAnswerBody[]
    expect(all.length).toBeGreaterThanOrEqual(2)
    const first = (await list('?per_page=1')).json().data
    const second = (await list('?per_page=1&page=2')).json().data
    expect(first.non_answers.map((r: NonAnswerBody) => r.id)).toEqual([all[0].id])
    expect(second.non_answers.map((r: NonAnswerBody) => r.id)).toEqual([all[1].id])
    expect(first.pagination).toEqual({ page: 1, per_page: 1, total_items: all.length, total_pages: all.length, has_next: true, has_prev: false })
    expect(second.pagination).toMatchObject({ page: 2, has_prev: true })
    const past = await list(`?per_page=1&page=${all.length + 1}`)
    expect(past.statusCode).toBe(200)
    expect(past.json().data.non_answers).toEqual([])
    const refused = (await list('?outcome=refused')).json().data
    expect(refused.non_answers.map((r: NonAnswerBody) => r.outcome)).toEqual(['refused'])
    expect(refused.pagination.total_items).toBe(1)
  })

  it("answers 404 for another workspace's run or item and 400 for bad parameters, saying what to do", async () => {
    const other = await ctx.tenant()
    const rows = (await list()).json().data.non_answers as NonAnswerBody[]
    for (const url of [`/api/v1/collection/runs/${runId}/non-answers`, `/api/v1/collection/runs/${runId}/non-answers/${rows[0].id}`]) {
      const response = await ctx.get(url, other.key)
      expect(response.statusCode, url).toBe(404)
      expect(response.json().error.code).toBe('not_found')
      expect(response.body).not.toContain(rows[0].reason)
    }
    const cases: [string, string, RegExp][] = [
      ['?per_page=0', 'per_page', /./],
      ['?per_page=101', 'per_page', /./],
      ['?page=0', 'page', /./],
      ['?outcome=shrugged', 'outcome', /refused/],
      ['?colour=red', 'colour', /./],
    ]
    for (const [query, param, message] of cases) {
      const response = await list(query)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error, query).toMatchObject({ param })
      expect(response.json().error.message, query).toMatch(message)
    }
    const malformed = await ctx.get('/api/v1/collection/runs/not-a-uuid/non-answers', w.key)
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error).toMatchObject({ param: 'run_id' })
    expect((await ctx.get(`/api/v1/collection/runs/${runId}/non-answers/nope`, w.key)).json().error).toMatchObject({ param: 'non_answer_id' })
  })
})
