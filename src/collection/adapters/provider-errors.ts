// Every way a provider call can fail, turned into one ProviderError the run can act on (retry,
// back off, flag the target). The SDKs' own retries are off (maxRetries: 0), so what reaches
// here is the first failure, with the headers that say when to try again.
import { APIError as AnthropicAPIError, APIConnectionError as AnthropicConnectionError, APIConnectionTimeoutError as AnthropicTimeoutError } from '@anthropic-ai/sdk'
import { ApiError as GoogleApiError } from '@google/genai'
import { APIError as OpenAIAPIError, APIConnectionError as OpenAIConnectionError, APIConnectionTimeoutError as OpenAITimeoutError } from 'openai'
import { ProviderError, type ProviderErrorKind } from './types.js'

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
export function providerError(label: string, kind: ProviderErrorKind, detail: string, options: { status?: number; retryAfterMs?: number; cause?: unknown } = {}): ProviderError {
  const status = options.status === undefined ? '' : ` (HTTP ${options.status})`
  return new ProviderError(kind, `${label}${status}: ${shorten(detail)} — ${ADVICE[kind]}`, options)
}

/** The provider answered 2xx with JSON we cannot read as an answer. */
export function malformed(label: string, what: string, cause?: unknown): ProviderError {
  return providerError(label, 'malformed', what, { cause })
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
  if ((error instanceof OpenAIAPIError || error instanceof AnthropicAPIError) && typeof error.status === 'number') {
    const kind = kindForStatus(error.status)
    return providerError(label, kind, error.message, { status: error.status, retryAfterMs: parseRetryAfter(error.headers), cause: error })
  }
  if (error instanceof GoogleApiError) {
    const kind = kindForStatus(error.status)
    return providerError(label, kind, error.message, { status: error.status, retryAfterMs: parseRetryAfter(context.lastHeaders), cause: error })
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
