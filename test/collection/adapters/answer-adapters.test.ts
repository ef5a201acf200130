// Every answer adapter through its real SDK against a local fake of the provider's wire format:
// the answer parsed, the request as the provider expects it, and each failure mapped to the
// ProviderError kind the run acts on (retry, back off, flag the target).
import { afterEach, describe, expect, it } from 'vitest'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import { ProviderError, type AnswerTarget } from '../../../src/collection/adapters/types.js'
import { startAnthropicFake } from '../../fakes/anthropic-fake.js'
import { groundingRedirectFetch, startGoogleFake } from '../../fakes/google-fake.js'
import { hang, malformedJson, rateLimited, serverError, unauthorized, type FakeOptions, type ProviderFake } from '../../fakes/http-fake.js'
import { startOpenAIFake } from '../../fakes/openai-fake.js'
import { startOpenAICompatibleFake, startPerplexityFake } from '../../fakes/perplexity-fake.js'

interface Case {
  name: string
  start: (options?: FakeOptions) => Promise<ProviderFake>
  target: AnswerTarget
  /** what the successful web-search answer must contain */
  expected: { citations: string[]; webSearchCalls: number; modelServed: string; tokensIn: number; tokensOut: number }
  /** how the API key reaches the provider */
  keyHeader: (fake: ProviderFake) => string | undefined
}

const bearer = (fake: ProviderFake) => fake.requests[0]?.headers.authorization

const cases: Case[] = [
  {
    name: 'openai',
    start: startOpenAIFake,
    target: { provider: 'openai', model: 'gpt-5', api: 'native', web_search: true },
    expected: {
      citations: ['https://www.example-reviews.com/pm-tools', 'https://acme.example/pricing'],
      // one `search` action billed; the `open_page` action is not
      webSearchCalls: 1,
      modelServed: 'gpt-5-2025-08-07',
      tokensIn: 12840,
      tokensOut: 612,
    },
    keyHeader: bearer,
  },
  {
    name: 'anthropic',
    start: startAnthropicFake,
    target: { provider: 'anthropic', model: 'claude-sonnet-4-6', api: 'native', web_search: true },
    expected: {
      citations: ['https://acme.example/pricing', 'https://www.example-reviews.com/pm-tools', 'https://globex.example/blog/why-globex'],
      webSearchCalls: 1,
      modelServed: 'claude-sonnet-4-6',
      tokensIn: 10682,
      tokensOut: 510,
    },
    // The SDK decides the header (x-api-key in older versions, a bearer token in 1.x).
    keyHeader: (fake) => (fake.requests[0]?.headers['x-api-key'] as string | undefined) ?? fake.requests[0]?.headers.authorization,
  },
  {
    name: 'google',
    start: startGoogleFake,
    target: { provider: 'google', model: 'gemini-2.5-flash', api: 'native', web_search: true },
    expected: {
      // The grounding redirects resolved to the pages they lead to.
      citations: ['https://www.example-reviews.com/pm-tools', 'https://acme.example/pricing'],
      webSearchCalls: 2,
      modelServed: 'gemini-2.5-flash',
      tokensIn: 12 + 3200,
      tokensOut: 180 + 420,
    },
    keyHeader: (fake) => fake.requests[0]?.headers['x-goog-api-key'] as string | undefined,
  },
  {
    name: 'perplexity',
    start: startPerplexityFake,
    target: { provider: 'perplexity', model: 'sonar-pro', api: 'native', web_search: true },
    expected: {
      citations: ['https://www.example-reviews.com/pm-tools', 'https://acme.example/pricing', 'https://globex.example/blog/why-globex'],
      webSearchCalls: 2,
      modelServed: 'sonar-pro',
      tokensIn: 14,
      tokensOut: 96,
    },
    keyHeader: bearer,
  },
  {
    name: 'openai_compatible',
    start: startOpenAICompatibleFake,
    target: { provider: 'openai', model: 'llama3.1:8b', api: 'openai_compatible', base_url: 'http://unused.invalid/v1', web_search: false },
    expected: { citations: [], webSearchCalls: 0, modelServed: 'llama3.1:8b', tokensIn: 12, tokensOut: 8 },
    keyHeader: bearer,
  },
]

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

async function setUp(testCase: Case, options: FakeOptions = {}) {
  const fake = await testCase.start(options)
  fakes.push(fake)
  const adapter = createAnswerAdapter(testCase.target, {
    baseUrlOverride: testCase.name === 'openai' || testCase.name === 'openai_compatible' ? `${fake.url}/v1` : fake.url,
    env: {},
    // Gemini's grounding redirects stay on Google's host; this routes them to the fake.
    ...(testCase.name === 'google' ? { fetch: groundingRedirectFetch(fake.url) } : {}),
  })
  return { fake, adapter }
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

describe.each(cases)('$name adapter against its fake', (testCase) => {
  const ask = { prompt: 'best project management software for small teams', apiKey: 'sk-test-123', timeoutMs: 5000 }

  it('asks once and parses the answer, its sources, model, tokens and searches', async () => {
    const { fake, adapter } = await setUp(testCase)
    const answer = await adapter.ask({ ...ask, target: testCase.target })
    expect(answer.content).toContain('Answer to: best project management software for small teams')
    expect(answer.citations.map((c) => c.url)).toEqual(testCase.expected.citations)
    expect(answer.modelServed).toBe(testCase.expected.modelServed)
    expect(answer.tokensIn).toBe(testCase.expected.tokensIn)
    expect(answer.tokensOut).toBe(testCase.expected.tokensOut)
    expect(answer.webSearchCalls).toBe(testCase.expected.webSearchCalls)
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0)
    // raw is the provider's JSON as received, so answers can be re-parsed later.
    expect(JSON.stringify(answer.raw)).toContain(`"${testCase.expected.modelServed}"`)
    expect(fake.requests).toHaveLength(1)
    expect(testCase.keyHeader(fake)).toContain('sk-test-123')
  })

  it('429 with Retry-After in seconds is rate_limited, retryable, with the wait in ms', async () => {
    const { fake, adapter } = await setUp(testCase, { script: [rateLimited('7')] })
    const error = await failure(adapter.ask({ ...ask, target: testCase.target }))
    expect(error.kind).toBe('rate_limited')
    expect(error.status).toBe(429)
    expect(error.retryAfterMs).toBe(7000)
    expect(error.retryable).toBe(true)
    expect(error.flagsTarget).toBe(false)
    // SDK retries are off: the adapter made exactly one request.
    expect(fake.requests).toHaveLength(1)
  })

  it('500 is a retryable server error, asked once', async () => {
    const { fake, adapter } = await setUp(testCase, { script: [serverError(500)] })
    const error = await failure(adapter.ask({ ...ask, target: testCase.target }))
    expect(error.kind).toBe('server')
    expect(error.retryable).toBe(true)
    expect(fake.requests).toHaveLength(1)
  })

  it('401 is unauthorized: never retried, flags the target, and says what to do', async () => {
    const { adapter } = await setUp(testCase, { script: [unauthorized()] })
    const error = await failure(adapter.ask({ ...ask, target: testCase.target }))
    expect(error.kind).toBe('unauthorized')
    expect(error.retryable).toBe(false)
    expect(error.flagsTarget).toBe(true)
    expect(error.message).toMatch(/API key/)
    // The provider quotes the key in its message; it never reaches ours.
    expect(error.message).not.toMatch(/sk-tes/)
  })

  it('a provider that hangs past the timeout is a timeout, on time', async () => {
    const { adapter } = await setUp(testCase, { script: [hang()] })
    const started = Date.now()
    const error = await failure(adapter.ask({ ...ask, target: testCase.target, timeoutMs: 300 }))
    expect(error.kind).toBe('timeout')
    expect(error.retryable).toBe(true)
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('a 2xx body that is not JSON is malformed (retried)', async () => {
    const { adapter } = await setUp(testCase, { script: [malformedJson()] })
    const error = await failure(adapter.ask({ ...ask, target: testCase.target }))
    expect(error.kind).toBe('malformed')
    expect(error.retryable).toBe(true)
  })

  it("the caller's abort rejects with the caller's reason, not a ProviderError", async () => {
    const { adapter } = await setUp(testCase, { script: [hang()] })
    const controller = new AbortController()
    const reason = new Error('run cancelled')
    setTimeout(() => controller.abort(reason), 100)
    await expect(adapter.ask({ ...ask, target: testCase.target, signal: controller.signal })).rejects.toBe(reason)
  })

  it('a refused connection is a network error', async () => {
    const { fake, adapter } = await setUp(testCase)
    await fake.close()
    fakes.splice(fakes.indexOf(fake), 1)
    const error = await failure(adapter.ask({ ...ask, target: testCase.target }))
    expect(error.kind).toBe('network')
    expect(error.retryable).toBe(true)
  })
})
