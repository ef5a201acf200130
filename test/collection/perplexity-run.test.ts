// A run over a native Perplexity target through the real SDK and the Agent API fake, on both
// backends: only the completed answer is stored (with the cost the answer states), a refusal and
// a cut answer are not, and an account out of credit (HTTP 402) flags the target after one request.
// Non-answer bodies are the fixture test/fixtures/providers/perplexity-agent-response.json changed
// as the SDK's types allow (ResponsesResponseOutput.status, content part type `refusal`).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startPerplexityFake, perplexityAgentAnswer } from '../fakes/perplexity-fake.js'
import type { FakeStep, ProviderFake, RecordedRequest } from '../fakes/http-fake.js'
import { promptOf } from '../fakes/http-fake.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

/** What the fake answers: a normal answer, except for prompts that ask for a non-answer. */
function script(request: RecordedRequest): FakeStep | undefined {
  const prompt = promptOf(request.body)
  if (/out of credit/.test(prompt)) return { type: 'error', status: 402, body: { error: { message: 'Insufficient credits', type: 'payment_required' } } }
  const body = perplexityAgentAnswer(request)
  const message = (body.output as Array<Record<string, unknown>>).find((item) => item.type === 'message') as { content: unknown[] }
  if (/refuse/.test(prompt)) message.content = [{ type: 'refusal', refusal: 'I can’t help with that.' }]
  else if (/cut short/.test(prompt)) Object.assign(body, { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
  else return undefined
  return { type: 'ok', body }
}

describe.each(testBackends)('a native Perplexity target in a run (%s)', (backend) => {
  let ctx: TestContext
  let fake: ProviderFake

  beforeAll(async () => {
    fake = await startPerplexityFake({ script, latencyMs: 10 })
    vi.stubEnv('PERPLEXITY_BASE_URL', fake.url)
    vi.stubEnv('PERPLEXITY_API_KEY', 'pplx-from-environment')
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000 })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await fake?.close()
    vi.unstubAllEnvs()
  })

  const stored = async (workspaceId: string) =>
    Number(
      (
        await ctx.database.db
          .selectFrom('response')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('stores the completed answer only; a refusal and a cut answer are outcomes, not answers', async () => {
    const w = await ctx.tenant()
    await createBrand(ctx, w.key, { name: 'Acme', aliases: ['Acme Boards'], is_primary: true })
    await createPrompt(ctx, w.key, 'Best project tool for small teams?')
    await createPrompt(ctx, w.key, 'Please refuse this one')
    await createPrompt(ctx, w.key, 'This answer is cut short')
    await addTarget(ctx, w.key, { provider: 'perplexity', model: 'perplexity/sonar', web_search: true })
    const before = fake.requests.length
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    expect(run).toMatchObject({ planned: 3, succeeded: 1 })
    expect(await stored(w.workspaceId)).toBe(1)
    // The answer's own usage.cost (0.00511 in the fixture) is what it cost.
    expect(run.cost_usd).toBeGreaterThanOrEqual(0.00511)
    const sent = fake.requests.slice(before)
    expect(sent.every((request) => request.path === '/v1/responses' && request.headers.authorization === 'Bearer pplx-from-environment')).toBe(true)
    // The refusal is not asked again; the cut answer is asked once more with a larger output cap
    // (docs/collection.md, outcomes), and is cut again by the fake, so it stays an outcome.
    expect(sent).toHaveLength(4)
    const caps = sent.map((request) => (request.body as { max_output_tokens?: number }).max_output_tokens)
    expect(Math.max(...caps.map(Number))).toBeGreaterThan(Math.min(...caps.map(Number)))
  })

  it('an account out of credit flags the target after one request and stores nothing', async () => {
    const w = await ctx.tenant()
    await createPrompt(ctx, w.key, 'We are out of credit')
    const target = await addTarget(ctx, w.key, { provider: 'perplexity', model: 'perplexity/sonar', web_search: true })
    const before = fake.requests.length
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
    expect(run).toMatchObject({ planned: 1, succeeded: 0 })
    expect(await stored(w.workspaceId)).toBe(0)
    expect(fake.requests.length - before).toBe(1)
    expect((await ctx.get(`/api/v1/collection/targets/${target}`, w.key)).json().data).toMatchObject({ flagged: true })
  })
})
