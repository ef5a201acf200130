// Collection runs end to end on every backend, with a scripted fake provider: planning,
// storing through the ingest path (visible in /dashboard and exports), retries honouring
// Retry-After, a refused key flagging the target after one request, the daily budget,
// cancel, duplicates and concurrent runs keeping exact counts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'
import { setAdapterOverride } from '../../src/collection/adapter-resolver.js'
import { ProviderError, type AskRequest } from '../../src/collection/adapters/types.js'
import { answerCostUsd, estimateAnswerCostUsd } from '../../src/collection/prices.js'
import { createWebhook } from '../../src/webhooks/webhooks.js'
import { SecretBox } from '../../src/security/secret-box.js'
import { addTarget, fakeAdapter, getRunBody, startRun, waitForRun, type FakeCall } from './helpers.js'

const TODAY = new Date().toISOString().slice(0, 10)
const BUDGET_TARGET = { provider: 'openai' as const, model: 'fake-budget', api: 'native' as const, base_url: null, web_search: false }
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe.each(testBackends)('collection runs (%s)', (backend) => {
  let ctx: TestContext
  const calls: FakeCall[] = []
  let behave: ((request: AskRequest, call: number) => Promise<void> | void) | undefined

  beforeAll(async () => {
    ctx = await createTestContext(backend, {
      jobsWorker: true,
      rateLimitPerMinute: 1_000_000,
      exportQuotaPerHour: 100_000,
      // Each request reserves the (high) estimate, then keeps what the answer really cost
      // (the fake's 10 + 50 tokens): room for one request in flight plus 1.5 answers
      // spent, so one or two fake-budget answers are asked, never three.
      collectionDailyBudgetUsd:
        estimateAnswerCostUsd(BUDGET_TARGET) + 1.5 * answerCostUsd(BUDGET_TARGET, { modelServed: 'fake-budget-2026-01-01', tokensIn: 10, tokensOut: 50, webSearchCalls: 0 }),
      collectionConcurrency: 4,
    })
    // Every target whose model starts with "fake" answers through the fake.
    setAdapterOverride({ answer: (target) => (target.model.startsWith('fake') ? fakeAdapter(calls, (request, n) => behave?.(request, n)) : undefined) })
  }, 120_000)
  afterEach(() => {
    behave = undefined
    calls.length = 0
  })
  afterAll(async () => {
    setAdapterOverride(undefined)
    await ctx.close()
  })

  async function workspace(prompts: number) {
    const tenant = await ctx.tenant()
    await createBrand(ctx, tenant.key, { name: 'Acme', domain: 'acme.example', is_primary: true })
    await createBrand(ctx, tenant.key, { name: 'Globex' })
    const promptIds: string[] = []
    for (let i = 0; i < prompts; i++) promptIds.push(await createPrompt(ctx, tenant.key, `Which tool number ${i}?`, ['tools']))
    return { ...tenant, promptIds }
  }

  const count = async (workspaceId: string, externalPrefix = 'run:') =>
    Number(
      (
        await ctx.database.db
          .selectFrom('response')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .where('external_id', 'like', `${externalPrefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('plans prompts × targets × samples, stores every answer analysed, visible in /dashboard and exports', async () => {
    const w = await workspace(3)
    const a = await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-a', api: 'demo', samples: 2 })
    const b = await addTarget(ctx, w.key, { provider: 'anthropic', model: 'fake-b', api: 'demo' })
    // The workspace's webhooks hear when the run ends.
    const webhook = await createWebhook(
      ctx.database.db,
      w.workspaceId,
      { url: 'https://hooks.example.com/beacon', events: ['collection.run.completed'] },
      SecretBox.fromSecretKey('collection-test-secret-key-0123456789abcdef'),
    )
    const started = await startRun(ctx, w.key)
    expect(started.state).toBe('queued')
    const run = await waitForRun(ctx, w.key, started.id)
    expect(run).toMatchObject({ state: 'succeeded', planned: 9, succeeded: 9, failed: 0, duplicates: 0, skipped: 0, tokens_in: 90, errors: [] })
    expect(calls).toHaveLength(9)
    expect(await count(w.workspaceId, `run:${run.id}:`)).toBe(9)
    const deliveries = await ctx.database.db
      .selectFrom('webhook_delivery')
      .select(['event', 'payload'])
      .where('workspace_id', '=', w.workspaceId)
      .where('webhook_id', '=', webhook.id)
      .execute()
    expect(deliveries.map((d) => d.event)).toEqual(['collection.run.completed'])
    expect(JSON.parse(deliveries[0].payload).data.run).toMatchObject({ id: run.id, state: 'succeeded', succeeded: 9 })
    const stored = await ctx.database.db.selectFrom('response').select(['external_id', 'provider', 'model']).where('workspace_id', '=', w.workspaceId).execute()
    expect(new Set(stored.map((r) => r.external_id)).size).toBe(9)
    expect(stored.filter((r) => r.provider === 'openai' && r.model === 'fake-a')).toHaveLength(6)
    expect(stored.filter((r) => r.external_id === `run:${run.id}:${a}:${w.promptIds[0]}:2`)).toHaveLength(1)
    expect(stored.filter((r) => r.external_id?.startsWith(`run:${run.id}:${b}:`))).toHaveLength(3)
    const meta = await ctx.database.db.selectFrom('collection_answer').selectAll().where('workspace_id', '=', w.workspaceId).execute()
    expect(meta).toHaveLength(9)
    expect(meta[0]).toMatchObject({ outcome: 'succeeded', model_served: expect.stringMatching(/^fake-.-2026-01-01$/), tokens_in: 10, tokens_out: 50 })
    expect(meta[0].raw).toMatchObject({ id: 'resp_fake' })

    const dashboard = await ctx.get(`/api/v1/dashboard?start_date=${TODAY}&end_date=${TODAY}`, w.key, { headers: { 'cache-control': 'no-cache' } })
    expect(dashboard.statusCode, dashboard.body).toBe(200)
    const data = dashboard.json().data
    expect(data.brands.Acme).toMatchObject({ visibility_score: 100, mention_count: 9 })
    expect(data.brands.Globex.mention_count).toBe(9)
    expect(data.total_sources).toBe(2) // acme.com from the content, reviewhub.com from the provider's citations
    const csv = await ctx.get(`/api/v1/exports/chat-responses?date_from=${TODAY}&date_to=${TODAY}`, w.key)
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.body.trim().split('\r\n')).toHaveLength(10)
    expect(csv.body).toContain('fake-a')
  }, 120_000)

  it('an AI-overview target writes observations through the AIO ingest path', async () => {
    const w = await workspace(3)
    const target = await addTarget(ctx, w.key, { kind: 'aio', serp: 'serpapi', api: 'demo', samples: 2 })
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(run).toMatchObject({ state: 'succeeded', planned: 6, succeeded: 6 })
    const observations = await ctx.database.db.selectFrom('aio_observation').select(['external_id', 'has_aio']).where('workspace_id', '=', w.workspaceId).execute()
    expect(observations).toHaveLength(6)
    expect(observations.every((o) => o.external_id?.startsWith(`run:${run.id}:${target}:`))).toBe(true)
    const metrics = await ctx.get(`/api/v1/aio-metrics?start_date=${TODAY}&end_date=${TODAY}`, w.key, { headers: { 'cache-control': 'no-cache' } })
    expect(metrics.statusCode, metrics.body).toBe(200)
    expect(metrics.json().data.total_queries).toBe(6)
  }, 60_000)

  it('retries a 429 no sooner than Retry-After, then stores the answer once', async () => {
    const w = await workspace(1)
    await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-retry', api: 'demo' })
    behave = (_request, n) => {
      if (n === 1) throw new ProviderError('rate_limited', '429 Too Many Requests', { status: 429, retryAfterMs: 3000 })
    }
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(run).toMatchObject({ state: 'succeeded', planned: 1, succeeded: 1, failed: 0 })
    expect(calls).toHaveLength(2)
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(3000)
    expect(await count(w.workspaceId)).toBe(1)
  }, 60_000)

  it('gives up after COLLECTION_MAX_ATTEMPTS on 5xx, and never retries a 400', async () => {
    const w = await workspace(1)
    const target = await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-400', api: 'demo' })
    behave = () => {
      throw new ProviderError('bad_request', 'model fake-400 does not exist', { status: 404 })
    }
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(run).toMatchObject({ state: 'failed', planned: 1, failed: 1, errors: [{ target_id: target, code: 'bad_request', message: 'model fake-400 does not exist', count: 1 }] })
    expect(calls).toHaveLength(1)
  }, 60_000)

  it('a refused key (401) flags the target after one provider request; the rest fail fast with the same error', async () => {
    const w = await workspace(3)
    const target = await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-401', api: 'demo', samples: 2 })
    behave = async () => {
      await sleep(200)
      throw new ProviderError('unauthorized', 'Incorrect API key provided', { status: 401 })
    }
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(run).toMatchObject({ state: 'failed', planned: 6, failed: 6, succeeded: 0 })
    expect(run.errors).toEqual([{ target_id: target, code: 'unauthorized', message: expect.stringContaining('Incorrect API key provided'), count: 6 }])
    expect(calls).toHaveLength(1)
    const flagged = (await ctx.get(`/api/v1/collection/targets/${target}`, w.key)).json().data
    expect(flagged).toMatchObject({ flagged: true, flag_reason: expect.stringContaining('Incorrect API key') })
    // A flagged target is not asked by later runs either, until it is edited.
    const again = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(again.failed).toBe(6)
    expect(calls).toHaveLength(1)
    const edited = await post(ctx, `/api/v1/collection/targets/${target}`, w.key, { samples: 1 }, 'PATCH')
    expect(edited.json().data.flagged).toBe(false)
  }, 60_000)

  it('stops at the daily budget: the remaining answers are skipped with budget_exceeded', async () => {
    const w = await workspace(3)
    const target = await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-budget', samples: 2 })
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id)
    expect(run.planned).toBe(6)
    expect(run.succeeded).toBeGreaterThanOrEqual(1)
    expect(run.succeeded).toBeLessThanOrEqual(2)
    expect(run).toMatchObject({ state: 'failed', skipped: 6 - run.succeeded })
    expect(run.errors).toEqual([{ target_id: target, code: 'budget_exceeded', message: expect.stringContaining('COLLECTION_DAILY_BUDGET_USD'), count: 6 - run.succeeded }])
    expect(calls).toHaveLength(run.succeeded)
    expect(run.cost_usd).toBeGreaterThan(0)
    expect(await count(w.workspaceId)).toBe(run.succeeded)
  }, 60_000)

  it('cancel: queued answers are skipped and the run ends cancelled', async () => {
    const w = await workspace(6)
    await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-slow', api: 'demo', samples: 2 })
    behave = () => sleep(700)
    const started = await startRun(ctx, w.key)
    await (async () => {
      for (let i = 0; i < 200 && calls.length === 0; i++) await sleep(50)
    })()
    const cancelled = await post(ctx, `/api/v1/collection/runs/${started.id}/cancel`, w.key, {})
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(cancelled.json().data.state).toBe('cancelled')
    const run = await waitForRun(ctx, w.key, started.id)
    expect(run.state).toBe('cancelled')
    expect(run.planned).toBe(12)
    expect(run.skipped).toBeGreaterThan(0)
    expect(run.succeeded + run.skipped).toBe(12)
    expect(calls.length).toBe(run.succeeded)
    expect(await count(w.workspaceId)).toBe(run.succeeded)
  }, 60_000)

  it('an answer someone already ingested under its external id counts as a duplicate and is not stored twice', async () => {
    const w = await workspace(2)
    await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-dup', api: 'demo' })
    let runId = ''
    // While the first answer is being asked, a client ingests the same external id.
    behave = async (request, n) => {
      if (n !== 1) return
      const prompt = w.promptIds.find((id) => request.prompt.endsWith(`${w.promptIds.indexOf(id)}?`)) ?? w.promptIds[0]
      const target = (await ctx.database.db.selectFrom('collection_target').select('id').where('workspace_id', '=', w.workspaceId).executeTakeFirstOrThrow()).id
      await ingest(ctx, w.key, [
        { external_id: `run:${runId}:${target}:${prompt}:1`, prompt_id: prompt, provider: 'openai', model: 'fake-dup', content: 'Acme', created_at: new Date().toISOString() },
      ])
    }
    const started = await startRun(ctx, w.key)
    runId = started.id
    const run = await waitForRun(ctx, w.key, started.id)
    expect(run).toMatchObject({ state: 'succeeded', planned: 2, succeeded: 1, duplicates: 1 })
    expect(await count(w.workspaceId)).toBe(2)
  }, 60_000)

  it('concurrent runs and ingestion keep every count exact', async () => {
    const w = await workspace(4)
    await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-c1', api: 'demo', samples: 2 })
    await addTarget(ctx, w.key, { provider: 'google', model: 'fake-c2', api: 'demo' })
    behave = () => sleep(20)
    const runs = await Promise.all([startRun(ctx, w.key), startRun(ctx, w.key), startRun(ctx, w.key)])
    const writes = Array.from({ length: 5 }, (_, i) =>
      ingest(ctx, w.key, [
        { external_id: `manual-${i}`, prompt_id: w.promptIds[0], provider: 'openai', model: 'fake-c1', content: 'Globex and Acme', created_at: new Date().toISOString() },
      ]),
    )
    const finished = await Promise.all(runs.map((r) => waitForRun(ctx, w.key, r.id)))
    await Promise.all(writes)
    for (const run of finished) expect(run).toMatchObject({ state: 'succeeded', planned: 12, succeeded: 12, duplicates: 0 })
    expect(await count(w.workspaceId)).toBe(36)
    expect(await count(w.workspaceId, 'manual-')).toBe(5)
    const answers = await ctx.database.db.selectFrom('collection_answer').select('external_id').where('workspace_id', '=', w.workspaceId).execute()
    expect(answers).toHaveLength(36)
    const list = (await ctx.get('/api/v1/collection/runs?per_page=2', w.key)).json().data
    expect(list.runs).toHaveLength(2)
    expect(list.pagination).toMatchObject({ total_items: 3, total_pages: 2, has_next: true })
    expect(await getRunBody(ctx, w.key, runs[0].id)).toMatchObject({ succeeded: 12 })
  }, 120_000)
})
