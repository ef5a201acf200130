// Which adapter answers a target: the built-in demo provider, or the real adapters
// (adapters/index.ts) for the provider's own API or chat completions at a target's
// base_url. Tests inject their own adapters with setAdapterOverride.
import type { TargetApi } from '../db/schema.js'
import { assertOutboundUrl, OutboundUrlError, type OutboundPolicy } from '../security/outbound-url.js'
import { demoAioAdapter, demoAnswerAdapter } from './adapters/demo-adapter.js'
import { createAioAdapter, createAnswerAdapter } from './adapters/index.js'
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
// A target's base_url is a user-given address: private and loopback addresses only with
// COLLECTION_ALLOW_PRIVATE=true, link-local and metadata endpoints never (as for webhooks).
const COLLECTION = { setting: 'COLLECTION_ALLOW_PRIVATE', what: 'collection targets' }
let outboundPolicy: OutboundPolicy = { allowPrivate: false, caller: COLLECTION }

/** COLLECTION_ALLOW_PRIVATE, set once at start-up. */
export function setCollectionOutboundPolicy(policy: Omit<OutboundPolicy, 'caller'>): void {
  outboundPolicy = { ...policy, caller: COLLECTION }
}

/** The check when a target's base_url is saved; the same runs again before every request to it. */
export async function assertCollectionBaseUrl(baseUrl: string, policy: Omit<OutboundPolicy, 'caller'> = outboundPolicy): Promise<void> {
  await assertOutboundUrl(baseUrl, { ...policy, caller: COLLECTION })
}

/**
 * fetch for openai_compatible targets: the address is checked again before each request
 * (the name may resolve elsewhere since the target was saved). A refusal is a bad_request:
 * the target is wrong, retrying cannot help.
 */
function guardedFetch(policy: () => OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url
    try {
      await assertOutboundUrl(url, policy())
    } catch (error) {
      if (error instanceof OutboundUrlError) throw new ProviderError('bad_request', `base_url refused: ${error.message}`)
      throw error
    }
    return fetch(input, init)
  }
}

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
  const answerTarget = toAnswerTarget(target)
  return createAnswerAdapter(answerTarget, answerTarget.api === 'openai_compatible' ? { fetch: guardedFetch(() => outboundPolicy) } : {})
}

export function resolveAioAdapter(target: CollectionAioTarget): AioAdapter {
  const injected = override?.aio?.(target)
  if (injected) return injected
  if (target.api === 'demo') return demoAioAdapter({ latencyMs: demoLatencyMs })
  return createAioAdapter(target.serp)
}
