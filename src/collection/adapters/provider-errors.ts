// Every way a provider call can fail, turned into one ProviderError the run can act on (retry,
// back off, flag the target). The SDKs' own retries are off (maxRetries: 0), so what reaches
// here is the first failure, with the headers that say when to try again.
import { APIError as AnthropicAPIError, APIConnectionError as AnthropicConnectionError, APIConnectionTimeoutError as AnthropicTimeoutError } from '@anthropic-ai/sdk'
import { ApiError as GoogleApiError } from '@google/genai'
import { APIError as OpenAIAPIError, APIConnectionError as OpenAIConnectionError, APIConnectionTimeoutError as OpenAITimeoutError } from 'openai'
import { ProviderError, type NonAnswerDetail, type ProviderErrorKind } from './types.js'

type HeaderSource = Headers | Record<string, string | string[] | undefined> | null | undefined

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value[0] : value
}

/**
 * How long the provider asks us to wait, in ms: `retry-after-ms` (OpenAI and Anthropic send it)
 * wins over `Retry-After`, which is either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms')?.trim()
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms))
  const value = header(headers, 'retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000)
  // An HTTP date names its day and month (`Wed, 25 Nov 2026 08:00:30 GMT`); Date.parse alone would take `-5` as a year.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** The kind an HTTP status stands for. 408 and 409 are the provider's own transient conditions. */
export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limited'
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 408) return 'timeout'
  if (status === 409 || status >= 500) return 'server'
  return 'bad_request'
}

const ADVICE: Record<ProviderErrorKind, string> = {
  rate_limited: 'the provider is rate limiting this key; the run backs off and retries, lower the target concurrency if it persists',
  server: 'the provider had an internal error; the run retries',
  timeout: 'no complete answer within the time limit; the run retries',
  network: 'could not reach the provider; check the base URL and the network, the run retries',
  bad_request: 'check the target model name and base URL',
  unauthorized: 'store a valid API key for this provider (PUT /api/v1/collection/credentials/{name}) or set it in the environment',
  forbidden: 'the API key has no access to this model or feature; check the key permissions and the model name',
  malformed: 'the provider answered with something that is not its documented format; the run retries',
  refused: 'the engine declined to answer this prompt; kept for audit, not counted as an answer',
  incomplete: 'the answer was cut by the output limit, also when asked again with a larger limit; kept for audit, not counted as an answer',
  search_failed: "the engine's own web search failed; the run retries",
  unexpected_stop: 'the engine stopped for a reason Beacon does not know; kept for audit, not counted as an answer',
  quota_exhausted: "the provider account is out of credit or its daily quota; add credit or wait for the quota's reset, then edit the target to clear the flag",
}

/**
 * Providers quote the rejected key in their 401 messages (OpenAI: `Incorrect API key provided:
 * sk-abc***xyz`); error messages end up in run records and logs, where keys never go.
 */
export function redactKeys(text: string): string {
  return text.replace(/\b(sk|pk|rk|pplx|AIza|xai|gsk)[-_][-_A-Za-z0-9*]{3,}|\bAIza[-_A-Za-z0-9]{10,}/g, '[redacted key]')
}

function shorten(text: string, max = 300): string {
  const flat = redactKeys(text).replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

/** A ProviderError whose message names the provider, what happened and what to do. */
export function providerError(
  label: string,
  kind: ProviderErrorKind,
  detail: string,
  options: { status?: number; retryAfterMs?: number; cause?: unknown; nonAnswer?: NonAnswerDetail } = {},
): ProviderError {
  const status = options.status === undefined ? '' : ` (HTTP ${options.status})`
  return new ProviderError(kind, `${label}${status}: ${shorten(detail)} — ${ADVICE[kind]}`, options)
}

/** The provider answered 2xx with JSON we cannot read as an answer. */
export function malformed(label: string, what: string, cause?: unknown): ProviderError {
  return providerError(label, 'malformed', what, { cause })
}

/**
 * The engine did not complete an answer (refused, incomplete, search_failed, unexpected_stop,
 * or quota_exhausted when the account ran dry): `detail.reason` names the provider's own field
 * and value, `detail.raw` keeps its JSON for audit. `status` is the HTTP status when it came as one.
 */
export function nonAnswer(label: string, kind: ProviderErrorKind, detail: NonAnswerDetail, options: { status?: number; cause?: unknown } = {}): ProviderError {
  return providerError(label, kind, detail.reason, { ...options, nonAnswer: detail })
}

/**
 * A non-answer's detail with no usage counted (no tokens, no searches): for a provider's error
 * (which bills none) and for the adapters that read no usage from a non-answer. `raw` is the
 * provider's JSON as received, or null when it came as a bare HTTP error.
 */
export function withoutUsage(reason: string, raw: unknown = null): NonAnswerDetail {
  return { reason, raw, tokensIn: 0, tokensOut: 0, webSearchCalls: 0 }
}

/** A google.rpc.Duration as JSON writes it (`"32s"`, `"1.5s"`), in ms. */
function durationMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim())
  return match ? Math.round(Number(match[1]) * 1000) : undefined
}

interface GoogleErrorDetails {
  retryAfterMs?: number
  /** the quotaId of a daily quota the request ran out of */
  dailyQuota?: string
}

/**
 * Gemini's 429 says in its JSON body, not in headers, how long to wait (`RetryInfo.retryDelay`)
 * and which quota ran out (`QuotaFailure.violations[].quotaId`, e.g.
 * `GenerateRequestsPerDayPerProjectPerModel-FreeTier`). Shapes: google.rpc.Status with
 * error_details.proto (https://ai.google.dev/gemini-api/docs/rate-limits,
 * https://github.com/googleapis/googleapis/blob/master/google/rpc/error_details.proto).
 */
export function readGoogleErrorDetails(body: unknown): GoogleErrorDetails {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined
  const details = typeof error === 'object' && error !== null && Array.isArray((error as { details?: unknown }).details) ? (error as { details: unknown[] }).details : []
  const found: GoogleErrorDetails = {}
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue
    const record = detail as Record<string, unknown>
    const type = typeof record['@type'] === 'string' ? record['@type'] : ''
    if (type.endsWith('google.rpc.RetryInfo')) found.retryAfterMs = durationMs(record.retryDelay)
    if (type.endsWith('google.rpc.QuotaFailure') && Array.isArray(record.violations)) {
      for (const violation of record.violations) {
        const quotaId = typeof violation === 'object' && violation !== null ? (violation as { quotaId?: unknown }).quotaId : undefined
        if (typeof quotaId === 'string' && /PerDay/i.test(quotaId)) found.dailyQuota = quotaId
      }
    }
  }
  return found
}

/** @google/genai's ApiError message is the error JSON itself (`JSON.stringify(errorBody)`). */
function googleErrorBody(message: string): unknown {
  try {
    return JSON.parse(message)
  } catch {
    return undefined
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return undefined
}

export interface MapContext {
  /** e.g. `openai` or `openai_compatible http://localhost:11434/v1`, for the message */
  label: string
  /** our own deadline fired (the request's timeoutMs) */
  timedOut: boolean
  /** headers of the last HTTP response, for SDKs whose errors drop them (@google/genai) */
  lastHeaders?: Headers
}

/**
 * Maps anything thrown by an SDK or fetch to a ProviderError. Errors that are not about the
 * provider (a bug in our code) are returned unchanged, so they surface instead of being retried.
 */
export function toProviderError(error: unknown, context: MapContext): unknown {
  const { label } = context
  if (error instanceof ProviderError) return error
  if (context.timedOut) return providerError(label, 'timeout', 'the request took longer than its timeout', { cause: error })

  // openai and @anthropic-ai/sdk (both Stainless): timeouts and connection failures are APIErrors without a status.
  if (error instanceof OpenAITimeoutError || error instanceof AnthropicTimeoutError) {
    return providerError(label, 'timeout', 'the request took longer than its timeout', { cause: error })
  }
  if (error instanceof OpenAIConnectionError || error instanceof AnthropicConnectionError) {
    return providerError(label, 'network', `connection failed: ${error.message}`, { cause: error })
  }
  if (error instanceof OpenAIAPIError && error.status === 429 && (error.code === 'insufficient_quota' || error.type === 'insufficient_quota')) {
    // Out of credit, not a rate limit: retrying cannot help (https://platform.openai.com/docs/guides/error-codes).
    // Its error JSON is kept for audit only from OpenAI's own API, never from a user-given address.
    const nonAnswer = label === 'openai' ? withoutUsage('error.code: insufficient_quota', { error: error.error ?? null }) : undefined
    return providerError(label, 'quota_exhausted', error.message, { status: 429, cause: error, nonAnswer })
  }
  if ((error instanceof OpenAIAPIError || error instanceof AnthropicAPIError) && typeof error.status === 'number') {
    const kind = kindForStatus(error.status)
    return providerError(label, kind, error.message, { status: error.status, retryAfterMs: parseRetryAfter(error.headers), cause: error })
  }
  if (error instanceof GoogleApiError) {
    const details = error.status === 429 ? readGoogleErrorDetails(googleErrorBody(error.message)) : {}
    if (details.dailyQuota) {
      // A daily quota resets at midnight Pacific time: hours away, so the target is flagged instead of retried.
      const nonAnswer = withoutUsage(`QuotaFailure.quotaId: ${details.dailyQuota}`, googleErrorBody(error.message) ?? null)
      return providerError(label, 'quota_exhausted', `daily quota ${details.dailyQuota} exhausted`, { status: 429, cause: error, nonAnswer })
    }
    const kind = kindForStatus(error.status)
    const retryAfterMs = details.retryAfterMs ?? parseRetryAfter(context.lastHeaders)
    return providerError(label, kind, error.message, { status: error.status, retryAfterMs, cause: error })
  }
  if (error instanceof SyntaxError) return malformed(label, `unparseable JSON: ${error.message}`, error)
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return providerError(label, 'timeout', 'the request took longer than its timeout', { cause: error })
    const code = errorCode(error)
    // undici's fetch rejects with TypeError('fetch failed') and the socket error as its cause.
    if ((code && NETWORK_CODES.has(code)) || (error instanceof TypeError && /fetch failed|terminated|network/i.test(error.message))) {
      return providerError(label, 'network', `connection failed: ${code ?? error.message}`, { cause: error })
    }
  }
  return error
}

export interface ProviderCall<T> {
  result: T
  latencyMs: number
}

/**
 * Runs one provider call under the request's deadline and the caller's signal. The signal given
 * to `call` aborts on either; a caller abort rejects with the caller's reason (the run was
 * cancelled: nothing to retry), an overrun with a `timeout` ProviderError, anything else through
 * toProviderError. The deadline covers reading the body too, which the SDK timeouts do not.
 */
export async function callProvider<T>(
  label: string,
  request: { timeoutMs: number; signal?: AbortSignal },
  call: (signal: AbortSignal, context: MapContext) => Promise<T>,
): Promise<ProviderCall<T>> {
  const caller = request.signal
  if (caller?.aborted) throw caller.reason
  const context: MapContext = { label, timedOut: false }
  const controller = new AbortController()
  const onAbort = () => controller.abort(caller?.reason)
  caller?.addEventListener('abort', onAbort, { once: true })
  const timer = setTimeout(() => {
    context.timedOut = true
    controller.abort(new DOMException(`${label}: no answer within ${request.timeoutMs} ms`, 'TimeoutError'))
  }, request.timeoutMs)
  const started = performance.now()
  try {
    const result = await call(controller.signal, context)
    return { result, latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    if (caller?.aborted) throw caller.reason
    throw toProviderError(error, context)
  } finally {
    clearTimeout(timer)
    caller?.removeEventListener('abort', onAbort)
  }
}

/** Reads a 2xx body as JSON; anything else is `malformed` (retried: it is usually a proxy's page). */
export async function readJson(label: string, response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch (error) {
    throw malformed(label, `the answer is not JSON (${shorten(text, 80) || 'empty body'})`, error)
  }
}
