// The contract between collection (runs, jobs, budget, retries) and the provider adapters
// (docs/collection.md). Adapters only ask and parse: they never retry (the SDKs' own retries are
// off), never store, and turn every failure into a ProviderError the job can act on.
import type { Provider } from '../../core/providers.js'

/** The four catalogue providers (the spec's `models` filter). */
export type CatalogueProvider = Provider

/** Which adapter answers: the provider's own API, or chat completions at `base_url`; `demo` needs no network. */
export type AdapterKind = 'openai' | 'anthropic' | 'google' | 'perplexity' | 'openai_compatible' | 'demo'

export interface AnswerTarget {
  provider: CatalogueProvider
  model: string
  api: 'native' | 'openai_compatible'
  base_url?: string | null
  web_search: boolean
}

export interface AskRequest {
  target: AnswerTarget
  prompt: string
  /** the output cap to send; MAX_OUTPUT_TOKENS when absent (an `incomplete` answer is asked once more with a larger one) */
  maxOutputTokens?: number
  /** from the stored credential or the environment; absent for local openai_compatible servers and demo */
  apiKey?: string
  /** the whole request, including the provider's own search; the adapter turns an overrun into a `timeout` error */
  timeoutMs: number
  signal?: AbortSignal
}

export interface ProviderCitation {
  url: string
  title?: string | null
}

export interface ProviderAnswer {
  content: string
  /** the provider's cited sources, in order of first citation, deduplicated by URL */
  citations: ProviderCitation[]
  /** the model the provider says it served (may differ from the one asked for) */
  modelServed: string
  tokensIn: number
  tokensOut: number
  /** billed searches the provider ran for this answer (priced separately by some providers) */
  webSearchCalls: number
  /** the queries the engine itself searched for this answer, in order, deduplicated (docs/collection.md) */
  searchQueries?: string[]
  latencyMs: number
  /** the provider's JSON as received, so answers can be re-parsed later */
  raw: unknown
}

export interface AioRequest {
  query: string
  /** e.g. `en-US`: language and country of the search */
  locale: string
  apiKey?: string
  timeoutMs: number
  signal?: AbortSignal
}

export interface AioAnswer {
  hasAio: boolean
  /** empty when hasAio is false */
  overviewText: string
  citations: ProviderCitation[]
  latencyMs: number
  raw: unknown
  /** billed SERP requests made for this observation (SerpApi's page_token follow-up is a second one); 1 when absent */
  requests?: number
}

export type ProviderErrorKind =
  | 'rate_limited' // 429
  | 'server' // 5xx
  | 'timeout'
  | 'network' // connection refused/reset, DNS
  | 'bad_request' // 400, 404, 422: the target is wrong (model name, parameters)
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'malformed' // the provider answered 2xx with something we cannot parse
  // The engine answered but did not complete an answer (docs/collection.md, "outcomes"):
  | 'refused' // refusal part, content filter, safety block, blocked prompt
  | 'incomplete' // cut by the output limit (retried once with a larger limit)
  | 'search_failed' // the engine's own web search errored (transient)
  | 'unexpected_stop' // a stop/finish/status value this parser does not know: never a silent success
  | 'quota_exhausted' // out of credit or daily quota: flags the target like 401/403

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'network', 'malformed', 'search_failed'])

/**
 * What the provider sent when it did not complete an answer: the provider's own field and value
 * that said so, its JSON as received (kept for audit, never stored as a response) and what it
 * spent, so the budget and the run are charged what the provider bills.
 */
export interface NonAnswerDetail {
  /** e.g. `stop_reason: refusal`, `finishReason: SAFETY`, `error.code: insufficient_quota` */
  reason: string
  raw: unknown
  modelServed?: string
  tokensIn: number
  tokensOut: number
  webSearchCalls: number
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly status?: number
  /** from the provider's Retry-After (seconds or HTTP date) or retry-after-ms header */
  readonly retryAfterMs?: number
  /** set when the provider answered without completing an answer (refused, incomplete, …) */
  readonly nonAnswer?: NonAnswerDetail
  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown; nonAnswer?: NonAnswerDetail } = {}) {
    super(message, { cause: options.cause })
    this.name = 'ProviderError'
    this.kind = kind
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
    this.nonAnswer = options.nonAnswer
  }
  /** 429, 5xx, timeouts, network errors, unparseable answers and failed searches are retried; 400/401/403 and quota never. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind)
  }
  /** 401, 403 and an exhausted quota flag the target: its credential or account needs attention. */
  get flagsTarget(): boolean {
    return this.kind === 'unauthorized' || this.kind === 'forbidden' || this.kind === 'quota_exhausted'
  }
}

export interface AnswerAdapter {
  readonly kind: AdapterKind
  ask(request: AskRequest): Promise<ProviderAnswer>
}

export interface AioAdapter {
  readonly serp: 'serpapi' | 'dataforseo'
  observe(request: AioRequest): Promise<AioAnswer>
}
