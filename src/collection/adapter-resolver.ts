// Which adapter answers a target: the built-in demo provider, or the real adapters
// (adapters/index.ts) for the provider's own API or chat completions at a target's
// base_url. Settings come from the caller (the job runtime passes its config); tests inject
// their own adapters with setAdapterOverride.
import type { TargetApi } from '../db/schema.js'
import type { Config } from '../config.js'
import { createGuardedFetch, guardedAgentFor } from '../security/outbound-agent.js'
import { assertOutboundUrl, type OutboundPolicy, type Resolver } from '../security/outbound-url.js'
import { demoAioAdapter, demoAnswerAdapter } from './adapters/demo-adapter.js'
import { createAioAdapter, createAnswerAdapter } from './adapters/index.js'
import type { AioAdapter, AnswerAdapter, AnswerTarget } from './adapters/types.js'

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

// A target's base_url is a user-given address: private and loopback addresses only with
// COLLECTION_ALLOW_PRIVATE=true, link-local and metadata endpoints never (as for webhooks).
const COLLECTION = { setting: 'COLLECTION_ALLOW_PRIVATE', what: 'collection targets' }

/** What resolving an adapter depends on, passed by the caller (the job runtime hands its config). */
export interface AdapterSettings extends Pick<Config, 'collectionAllowPrivate' | 'demoLatencyMs'> {
  /** tests: resolve host names with this instead of the system resolver */
  outboundResolver?: Resolver
}

/** The check when a target's base_url is saved; the guarded agent checks again on every connection. */
export async function assertCollectionBaseUrl(baseUrl: string, policy: Omit<OutboundPolicy, 'caller'>): Promise<void> {
  await assertOutboundUrl(baseUrl, { ...policy, caller: COLLECTION })
}

/**
 * fetch for openai_compatible targets, through the one guarded agent (docs/collection.md,
 * "Outbound requests"): the address connected to is the address checked, redirects are not
 * followed, and a failed answer reaches the SDK without its body.
 */
export function collectionFetch(settings: Pick<AdapterSettings, 'collectionAllowPrivate' | 'outboundResolver'>): typeof fetch {
  return createGuardedFetch(guardedAgentFor({ allowPrivate: settings.collectionAllowPrivate, caller: COLLECTION, resolver: settings.outboundResolver }))
}

/** Tests: answer with these adapters instead (undefined from a function falls through to the built-in ones). */
export function setAdapterOverride(next: AdapterOverride | undefined): void {
  override = next
}

/** The adapter contract's view of a stored target (the demo adapter reads provider, model and web_search only). */
export function toAnswerTarget(target: CollectionAnswerTarget): AnswerTarget {
  return { provider: target.provider, model: target.model, api: target.api === 'demo' ? 'native' : target.api, base_url: target.base_url ?? null, web_search: target.web_search }
}

export function resolveAnswerAdapter(target: CollectionAnswerTarget, settings: AdapterSettings): AnswerAdapter {
  const injected = override?.answer?.(target)
  if (injected) return injected
  if (target.api === 'demo') return demoAnswerAdapter({ latencyMs: settings.demoLatencyMs })
  const answerTarget = toAnswerTarget(target)
  return createAnswerAdapter(answerTarget, answerTarget.api === 'openai_compatible' ? { fetch: collectionFetch(settings) } : {})
}

export function resolveAioAdapter(target: CollectionAioTarget, settings: AdapterSettings): AioAdapter {
  const injected = override?.aio?.(target)
  if (injected) return injected
  if (target.api === 'demo') return demoAioAdapter({ latencyMs: settings.demoLatencyMs })
  return createAioAdapter(target.serp)
}
