// Every provider fake at once, with the environment that points the adapter factory at them
// (base URLs and dummy keys), for run and integration tests:
//   const providers = await startProviderFakes({ latencyMs: 50 })
//   createAnswerAdapter(target, { env: providers.env })
//   … providers.fakes.openai.requests … await providers.close()
import { startAnthropicFake } from './anthropic-fake.js'
import { startGoogleFake } from './google-fake.js'
import type { FakeOptions, ProviderFake } from './http-fake.js'
import { startOpenAIFake } from './openai-fake.js'
import { startPerplexityFake } from './perplexity-fake.js'
import { startDataForSeoFake, startSerpApiFake } from './serp-fakes.js'

export * from './anthropic-fake.js'
export * from './google-fake.js'
export * from './http-fake.js'
export * from './non-answers.js'
export * from './openai-fake.js'
export * from './perplexity-fake.js'
export * from './serp-fakes.js'

export type FakeName = 'openai' | 'anthropic' | 'google' | 'perplexity' | 'serpapi' | 'dataforseo'

export interface ProviderFakes {
  fakes: Record<FakeName, ProviderFake>
  /** base URLs and keys for createAnswerAdapter/createAioAdapter({ env }) */
  env: NodeJS.ProcessEnv
  close(): Promise<void>
}

/** Starts all six fakes; `options` per fake (script, latencyMs) or one for all. */
export async function startProviderFakes(options: FakeOptions | Partial<Record<FakeName, FakeOptions>> = {}): Promise<ProviderFakes> {
  const names: FakeName[] = ['openai', 'anthropic', 'google', 'perplexity', 'serpapi', 'dataforseo']
  const perFake = names.some((name) => name in options)
  const optionsFor = (name: FakeName): FakeOptions => (perFake ? ((options as Partial<Record<FakeName, FakeOptions>>)[name] ?? {}) : (options as FakeOptions))
  const [openai, anthropic, google, perplexity, serpapi, dataforseo] = await Promise.all([
    startOpenAIFake(optionsFor('openai')),
    startAnthropicFake(optionsFor('anthropic')),
    startGoogleFake(optionsFor('google')),
    startPerplexityFake(optionsFor('perplexity')),
    startSerpApiFake(optionsFor('serpapi')),
    startDataForSeoFake(optionsFor('dataforseo')),
  ])
  const fakes = { openai, anthropic, google, perplexity, serpapi, dataforseo }
  return {
    fakes,
    env: {
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: 'sk-fake-openai',
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: 'sk-ant-fake',
      GEMINI_BASE_URL: google.url,
      GEMINI_API_KEY: 'fake-gemini-key',
      PERPLEXITY_BASE_URL: perplexity.url,
      PERPLEXITY_API_KEY: 'pplx-fake',
      SERPAPI_BASE_URL: serpapi.url,
      SERPAPI_API_KEY: 'fake-serpapi-key',
      DATAFORSEO_BASE_URL: dataforseo.url,
      DATAFORSEO_LOGIN: 'fake@example.com',
      DATAFORSEO_PASSWORD: 'fake-password',
    },
    close: async () => {
      await Promise.all(Object.values(fakes).map((fake) => fake.close()))
    },
  }
}
