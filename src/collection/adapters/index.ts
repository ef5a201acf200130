// The one place collection gets an adapter from: by the target's api and provider, with base URLs
// that the environment (or a test) can point elsewhere. See README.md in this folder.
import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicAdapter } from './anthropic-adapter.js'
import { createDataForSeoAdapter, DATAFORSEO_DEFAULT_BASE_URL } from './dataforseo-adapter.js'
import { createGoogleAdapter, GEMINI_DEFAULT_BASE_URL } from './google-adapter.js'
import { createOpenAIAdapter, OPENAI_DEFAULT_BASE_URL } from './openai-adapter.js'
import { createOpenAICompatibleAdapter } from './openai-compatible-adapter.js'
import { createPerplexityAdapter, PERPLEXITY_DEFAULT_BASE_URL } from './perplexity-adapter.js'
import { createSerpApiAdapter, SERPAPI_DEFAULT_BASE_URL } from './serpapi-adapter.js'
import type { AioAdapter, AnswerAdapter, AnswerTarget } from './types.js'

export * from './types.js'
export { parseRetryAfter } from './provider-errors.js'

export interface AdapterFactoryOptions {
  /** replaces the provider's base URL (and an openai_compatible target's base_url); tests point it at a fake */
  baseUrlOverride?: string
  /** a fetch to use instead of the global one */
  fetch?: typeof fetch
  /** where base URLs and fallback API keys are read; process.env when absent */
  env?: NodeJS.ProcessEnv
}

interface ProviderEnv {
  baseUrlEnv: string
  defaultBaseUrl: string
  keyEnv: readonly string[]
}

/** Base URL and key variables per provider; documented in README.md beside this file. */
export const PROVIDER_ENV = {
  openai: { baseUrlEnv: 'OPENAI_BASE_URL', defaultBaseUrl: OPENAI_DEFAULT_BASE_URL, keyEnv: ['OPENAI_API_KEY'] },
  anthropic: { baseUrlEnv: 'ANTHROPIC_BASE_URL', defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL, keyEnv: ['ANTHROPIC_API_KEY'] },
  google: { baseUrlEnv: 'GEMINI_BASE_URL', defaultBaseUrl: GEMINI_DEFAULT_BASE_URL, keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] },
  perplexity: { baseUrlEnv: 'PERPLEXITY_BASE_URL', defaultBaseUrl: PERPLEXITY_DEFAULT_BASE_URL, keyEnv: ['PERPLEXITY_API_KEY'] },
  serpapi: { baseUrlEnv: 'SERPAPI_BASE_URL', defaultBaseUrl: SERPAPI_DEFAULT_BASE_URL, keyEnv: ['SERPAPI_API_KEY'] },
  dataforseo: { baseUrlEnv: 'DATAFORSEO_BASE_URL', defaultBaseUrl: DATAFORSEO_DEFAULT_BASE_URL, keyEnv: ['DATAFORSEO_API_KEY'] },
} as const satisfies Record<string, ProviderEnv>

function resolve(name: keyof typeof PROVIDER_ENV, options: AdapterFactoryOptions): { baseURL: string; fetch?: typeof fetch; fallbackApiKey?: string } {
  const env = options.env ?? process.env
  const spec: ProviderEnv = PROVIDER_ENV[name]
  const baseURL = options.baseUrlOverride || env[spec.baseUrlEnv] || spec.defaultBaseUrl
  const fallbackApiKey = spec.keyEnv.map((key) => env[key]).find((value): value is string => typeof value === 'string' && value !== '')
  return { baseURL, fetch: options.fetch, fallbackApiKey }
}

/** The adapter that asks `target`: its own API, or chat completions at its base_url. */
export function createAnswerAdapter(target: AnswerTarget, options: AdapterFactoryOptions = {}): AnswerAdapter {
  if (target.api === 'openai_compatible') return createOpenAICompatibleAdapter({ baseURL: options.baseUrlOverride || target.base_url, fetch: options.fetch })
  switch (target.provider) {
    case 'openai':
      return createOpenAIAdapter(resolve('openai', options))
    case 'anthropic':
      return createAnthropicAdapter(resolve('anthropic', options))
    case 'google':
      return createGoogleAdapter(resolve('google', options))
    case 'perplexity':
      return createPerplexityAdapter(resolve('perplexity', options))
  }
}

/** The adapter that observes Google's AI overview through a SERP API. */
export function createAioAdapter(serp: 'serpapi' | 'dataforseo', options: AdapterFactoryOptions = {}): AioAdapter {
  if (serp === 'serpapi') return createSerpApiAdapter(resolve('serpapi', options))
  const resolved = resolve('dataforseo', options)
  const env = options.env ?? process.env
  // DataForSEO authenticates with login and password; DATAFORSEO_API_KEY may hold `login:password` instead.
  const fallbackApiKey = resolved.fallbackApiKey ?? (env.DATAFORSEO_LOGIN && env.DATAFORSEO_PASSWORD ? `${env.DATAFORSEO_LOGIN}:${env.DATAFORSEO_PASSWORD}` : undefined)
  return createDataForSeoAdapter({ ...resolved, fallbackApiKey })
}
