// Which adapter answers a target. For now only the demo provider is built in; the real
// provider adapters (src/collection/adapters/index.ts, another branch) plug in here, and
// only here. Tests inject their own adapters with setAdapterOverride.
import type { TargetApi } from '../db/schema.js'
import { demoAioAdapter, demoAnswerAdapter } from './adapters/demo-adapter.js'
import { ProviderError, type AioAdapter, type AnswerAdapter, type AnswerTarget } from './adapters/types.js'

/** An answer target as stored: `api` may also be `demo` (the built-in provider, no network). */
export type CollectionAnswerTarget = Omit<AnswerTarget, 'api'> & { api: TargetApi }

export interface CollectionAioTarget {
  serp: 'serpapi' | 'dataforseo'
  /** `demo`: the built-in AI-overview simulator; otherwise null */
  api: TargetApi | null
}

export interface AdapterOverride {
  answer?: (target: CollectionAnswerTarget) => AnswerAdapter | undefined
  aio?: (target: CollectionAioTarget) => AioAdapter | undefined
}

let override: AdapterOverride | undefined
let demoLatencyMs = 300

/** Tests: answer with these adapters instead (undefined from a function falls through to the built-in ones). */
export function setAdapterOverride(next: AdapterOverride | undefined): void {
  override = next
}

/** BEACON_DEMO_LATENCY_MS, set once at start-up. */
export function setDemoLatency(ms: number): void {
  demoLatencyMs = ms
}

/** The adapter contract's view of a stored target (the demo adapter reads provider, model and web_search only). */
export function toAnswerTarget(target: CollectionAnswerTarget): AnswerTarget {
  return { provider: target.provider, model: target.model, api: target.api === 'demo' ? 'native' : target.api, base_url: target.base_url ?? null, web_search: target.web_search }
}

export function resolveAnswerAdapter(target: CollectionAnswerTarget): AnswerAdapter {
  const injected = override?.answer?.(target)
  if (injected) return injected
  if (target.api === 'demo') return demoAnswerAdapter({ latencyMs: demoLatencyMs })
  throw new ProviderError(
    'bad_request',
    `The ${target.api === 'openai_compatible' ? 'openai_compatible' : target.provider} adapter is not available in this build of Beacon; use a target with api "demo", or upgrade`,
  )
}

export function resolveAioAdapter(target: CollectionAioTarget): AioAdapter {
  const injected = override?.aio?.(target)
  if (injected) return injected
  if (target.api === 'demo') return demoAioAdapter({ latencyMs: demoLatencyMs })
  throw new ProviderError('bad_request', `The ${target.serp} adapter is not available in this build of Beacon; use an AI-overview target with api "demo", or upgrade`)
}
