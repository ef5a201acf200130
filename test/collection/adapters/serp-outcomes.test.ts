// SerpApi and DataForSEO: uncached first searches, billed follow-ups, the whole overview
// (expanded sections and tables) and running out of money as the quota_exhausted outcome.
// Shapes: SerpApi's error JSON and statuses from https://serpapi.com/api-status-and-error-codes
// (429 `{"error": "Your account has run out of searches."}`); DataForSEO's HTTP 402 and internal
// codes from https://docs.dataforseo.com/v3/appendix/errors, overview elements from its
// TypeScript client's types (SerpApiAiOverviewExpandedElementItem, AiOverviewExpandedComponent,
// SerpApiAiOverviewTableElementItem) in test/fixtures/providers/dataforseo-ai-overview-expanded.json.
import { afterEach, describe, expect, it } from 'vitest'
import { parseDataForSeo } from '../../../src/collection/adapters/dataforseo-adapter.js'
import { createAioAdapter } from '../../../src/collection/adapters/index.js'
import { ProviderError } from '../../../src/collection/adapters/types.js'
import { fixture, ok, rateLimited, type FakeStep, type ProviderFake } from '../../fakes/http-fake.js'
import { startDataForSeoFake, startSerpApiFake } from '../../fakes/serp-fakes.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

const observe = { locale: 'en-US', apiKey: 'serp-key', timeoutMs: 5000 }

async function outcomeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  )
}

describe('SerpApi', () => {
  async function serpApi(script?: FakeStep[]) {
    const fake = await startSerpApiFake({ script })
    fakes.push(fake)
    return { fake, adapter: createAioAdapter('serpapi', { baseUrlOverride: fake.url, env: {} }) }
  }

  it('the first search bypasses SerpApi’s cache; the page_token follow-up is a second billed request', async () => {
    const { fake, adapter } = await serpApi()
    const direct = await adapter.observe({ ...observe, query: 'best pm software' })
    expect(fake.requests[0].query).toMatchObject({ engine: 'google', no_cache: 'true' })
    expect(direct.requests).toBe(1)
    const lazy = await adapter.observe({ ...observe, query: 'lazy: acme boards vs globex tasks' })
    expect(fake.requests[1].query).toMatchObject({ engine: 'google', no_cache: 'true' })
    expect(fake.requests[2].query).toMatchObject({ engine: 'google_ai_overview', page_token: 'KIVu-nictZPdjqM2FMdv5SlYtR' })
    expect(lazy.requests).toBe(2)
  })

  it('429 "run out of searches" is quota_exhausted (flags, no retry); 429 for throughput stays rate_limited', async () => {
    const { adapter } = await serpApi([{ type: 'error', status: 429, body: { error: 'Your account has run out of searches.' } }, rateLimited('2')])
    const spent = await outcomeOf(adapter.observe({ ...observe, query: 'q' }))
    expect(spent).toBeInstanceOf(ProviderError)
    expect(spent).toMatchObject({ kind: 'quota_exhausted', status: 429, flagsTarget: true, retryable: false })
    expect(await outcomeOf(adapter.observe({ ...observe, query: 'q' }))).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 2000 })
  })

  it('running out between the search and its follow-up is quota_exhausted too', async () => {
    const { fake, adapter } = await serpApi([ok(fixture('serpapi-page-token.json')), { type: 'error', status: 429, body: { error: 'Your account has run out of searches.' } }])
    expect(await outcomeOf(adapter.observe({ ...observe, query: 'lazy: q' }))).toMatchObject({ kind: 'quota_exhausted' })
    expect(fake.requests).toHaveLength(2)
  })
})

describe('DataForSEO', () => {
  it('expanded sections and tables are part of the overview text, their sources part of its citations', () => {
    const parsed = parseDataForSeo(fixture('dataforseo-ai-overview-expanded.json'))
    expect(parsed.hasAio).toBe(true)
    expect(parsed.overviewText.split('\n')).toEqual([
      'For small teams, Acme Boards and Globex Tasks are the usual picks.',
      'Compare the top tools',
      'Acme Boards',
      'Free for up to 10 users, simple boards.',
      'Globex Tasks',
      'Strong reporting; Gantt charts on paid plans.',
      'Tool | Free plan',
      'Acme Boards | Yes',
      'Globex Tasks | No',
    ])
    expect(parsed.citations.map((c) => c.url)).toEqual([
      'https://acme.example/pricing',
      'https://docs.acme.example/limits',
      'https://globex.example/blog/why-globex',
      'https://compare.example/acme-vs-globex',
      'https://www.example-reviews.com/pm-tools',
    ])
  })

  async function dataForSeo(script: FakeStep[]) {
    const fake = await startDataForSeoFake({ script })
    fakes.push(fake)
    return createAioAdapter('dataforseo', { baseUrlOverride: fake.url, env: { DATAFORSEO_LOGIN: 'me@example.com', DATAFORSEO_PASSWORD: 'pw' } })
  }

  it('HTTP 402, and a task or request status 40203, are quota_exhausted with the JSON kept', async () => {
    const taskSpent = { version: '0.1', status_code: 20000, status_message: 'Ok.', tasks: [{ status_code: 40203, status_message: 'Money limit per day exceeded.' }] }
    const requestSpent = { version: '0.1', status_code: 40203, status_message: 'Money limit per day exceeded.', tasks: [] }
    const adapter = await dataForSeo([
      { type: 'error', status: 402, body: { status_code: 40200, status_message: 'Payment Required.' } },
      ok(taskSpent),
      ok(requestSpent),
      ok({ version: '0.1', status_code: 20000, tasks: [{ status_code: 40202, status_message: 'Rate limit per minute exceeded.' }] }),
    ])
    const ask = { query: 'q', locale: 'en-US', timeoutMs: 5000 }
    expect(await outcomeOf(adapter.observe(ask))).toMatchObject({ kind: 'quota_exhausted', status: 402, flagsTarget: true })
    const task = await outcomeOf(adapter.observe(ask))
    expect(task).toMatchObject({ kind: 'quota_exhausted', flagsTarget: true, retryable: false })
    expect((task as ProviderError).nonAnswer?.raw).toEqual(taskSpent)
    expect(await outcomeOf(adapter.observe(ask))).toMatchObject({ kind: 'quota_exhausted' })
    // 40202 is DataForSEO's rate limit: retried, not an empty account.
    expect(await outcomeOf(adapter.observe(ask))).toMatchObject({ kind: 'rate_limited', retryable: true })
  })
})
