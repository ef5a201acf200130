// The contract between collection (runs, jobs, budget, retries) and the provider adapters
// (DESIGN §14). Adapters only ask and parse: they never retry (the SDKs' own retries are
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
  /** searches the provider ran for this answer (priced separately by some providers) */
  webSearchCalls: number
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

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'network', 'malformed'])

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly status?: number
  /** from the provider's Retry-After (seconds or HTTP date) or retry-after-ms header */
  readonly retryAfterMs?: number
  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = 'ProviderError'
    this.kind = kind
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
  }
  /** 429, 5xx, timeouts, network errors and unparseable answers are retried; 400/401/403 never. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind)
  }
  /** 401 and 403 flag the target: its credential needs attention. */
  get flagsTarget(): boolean {
    return this.kind === 'unauthorized' || this.kind === 'forbidden'
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
