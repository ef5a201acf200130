// startProviderFakes: one call gives every fake and the environment that points the factory at
// them, which is how run and integration tests reach the adapters without network or keys.
import { describe, expect, it } from 'vitest'
import { createAioAdapter, createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import type { AnswerTarget } from '../../../src/collection/adapters/types.js'
import { rateLimited, startProviderFakes } from '../../fakes/index.js'

describe('startProviderFakes', () => {
  it('every adapter answers through the environment it returns; scripts apply per fake', async () => {
    const providers = await startProviderFakes({ anthropic: { script: [rateLimited('2')] } })
    try {
      for (const [provider, model] of [
        ['openai', 'gpt-5'],
        ['google', 'gemini-2.5-flash'],
        ['perplexity', 'sonar'],
      ] as const) {
        const target: AnswerTarget = { provider, model, api: 'native', web_search: true }
        const answer = await createAnswerAdapter(target, { env: providers.env }).ask({ target, prompt: 'best crm', timeoutMs: 5000 })
        expect(answer.citations.length).toBeGreaterThan(0)
        expect(providers.fakes[provider].requests).toHaveLength(1)
      }
      const claude: AnswerTarget = { provider: 'anthropic', model: 'claude-sonnet-4-6', api: 'native', web_search: true }
      await expect(createAnswerAdapter(claude, { env: providers.env }).ask({ target: claude, prompt: 'best crm', timeoutMs: 5000 })).rejects.toMatchObject({
        kind: 'rate_limited',
        retryAfterMs: 2000,
      })
      for (const serp of ['serpapi', 'dataforseo'] as const) {
        const aio = await createAioAdapter(serp, { env: providers.env }).observe({ query: 'best crm', locale: 'en-US', timeoutMs: 5000 })
        expect(aio.hasAio).toBe(true)
      }
    } finally {
      await providers.close()
    }
  })
})
