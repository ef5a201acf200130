// Adapters hold no shared lock or queue: concurrent asks overlap, so the run's own concurrency cap
// is what limits throughput. Uses the fakes' latencyMs.
import { afterEach, describe, expect, it } from 'vitest'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import type { AnswerTarget } from '../../../src/collection/adapters/types.js'
import { startAnthropicFake } from '../../fakes/anthropic-fake.js'
import { groundingRedirectFetch, startGoogleFake } from '../../fakes/google-fake.js'
import type { FakeOptions, ProviderFake } from '../../fakes/http-fake.js'
import { startOpenAIFake } from '../../fakes/openai-fake.js'
import { startPerplexityFake } from '../../fakes/perplexity-fake.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

const providers: Array<[AnswerTarget['provider'], string, (options?: FakeOptions) => Promise<ProviderFake>]> = [
  ['openai', 'gpt-5', startOpenAIFake],
  ['anthropic', 'claude-sonnet-4-6', startAnthropicFake],
  ['google', 'gemini-2.5-flash', startGoogleFake],
  ['perplexity', 'sonar', startPerplexityFake],
]

describe.each(providers)('%s adapter under concurrency', (provider, model, start) => {
  it('32 asks against a provider answering in 200 ms overlap instead of queueing', async () => {
    const latencyMs = 200
    const fake = await start({ latencyMs })
    fakes.push(fake)
    const target: AnswerTarget = { provider, model, api: 'native', web_search: true }
    // Gemini's grounding redirects stay on Google's host: routed to the fake.
    const adapter = createAnswerAdapter(target, { baseUrlOverride: fake.url, env: {}, ...(provider === 'google' ? { fetch: groundingRedirectFetch(fake.url) } : {}) })
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => adapter.ask({ target, prompt: `prompt ${i}`, apiKey: 'k', timeoutMs: 10_000 })))
    const elapsed = performance.now() - started
    expect(answers.map((a) => a.content.includes(`prompt ${answers.indexOf(a)}`))).not.toContain(false)
    expect(fake.requests).toHaveLength(32)
    // Serial would take 32 × 200 ms = 6.4 s.
    expect(elapsed).toBeLessThan(latencyMs * 8)
    console.log(`${provider}: 32 concurrent asks at ${latencyMs} ms latency in ${Math.round(elapsed)} ms`)
  })
})
