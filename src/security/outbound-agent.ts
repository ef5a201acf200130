// The one guarded HTTP agent for every request to a user-given address: openai_compatible base
// URLs, webhooks and notification channels (docs/collection.md, "Outbound requests";
// docs/agents-and-notifications.md). Built on undici's Agent with a connector of our own:
//
// - A literal address is checked before connecting; a name is resolved by the `lookup` given to
//   net/tls.connect, which checks EVERY address the name resolves to and hands the socket exactly
//   those, so the address checked is the address connected to (no second, unchecked lookup: a name
//   rebinding to an internal address between the two gains nothing).
// - Redirects are never followed: a 3xx is a failure carrying only its status (following one
//   would be a second request to an address nobody checked when the URL was saved).
// - A failed answer's body is never kept: errors carry the status and a generic code only, so
//   what an internal service answers cannot be read back through run errors, logs or events.
// - Pooled connections are reused only for the origin they were opened (and checked) for.
import { isIP } from 'node:net'
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici'
import { assertAddressAllowed, assertHostName, guardedLookup, OutboundUrlError, type OutboundPolicy } from './outbound-url.js'

/** Why an outbound request got no usable answer: a generic code, safe to show and store. */
export type OutboundFailureCode = 'refused_address' | 'redirect' | 'http_status' | 'timeout' | 'connection_failed' | 'host_not_found'

/**
 * An outbound request that failed. `message` holds only the host, the status and a generic
 * reason (never the answer's body, never the address a refused name resolved to).
 */
export class OutboundRequestError extends Error {
  readonly code: OutboundFailureCode
  readonly status: number | null
  constructor(code: OutboundFailureCode, message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = 'OutboundRequestError'
    this.code = code
    this.status = options.status ?? null
  }
}

const CONNECT_TIMEOUT_MS = 10_000

/**
 * An undici Agent whose every connection passes the policy. One per policy: keep it for the
 * process (it pools connections) and close it on shutdown if you made a short-lived one.
 */
export function createGuardedAgent(policy: OutboundPolicy, options: { connectTimeoutMs?: number } = {}): Agent {
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
  const connectNamed = buildConnector({ lookup: guardedLookup(policy), timeout: connectTimeoutMs })
  return new Agent({
    connect: (connectOptions, callback) => {
      // undici passes IPv6 literals without brackets; net.connect skips `lookup` for literals,
      // so they are checked here.
      const host = connectOptions.hostname.toLowerCase().replace(/\.$/, '')
      try {
        if (isIP(host)) assertAddressAllowed(host, policy)
        else assertHostName(host, policy.caller)
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)), null)
        return
      }
      connectNamed(connectOptions, callback)
    },
    connectTimeout: connectTimeoutMs,
  })
}

/** The first OutboundUrlError (a refusal) or error code in an error's cause chain. */
function rootCause(error: unknown): { refusal?: OutboundUrlError; code?: string } {
  let code: string | undefined
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundUrlError) return { refusal: e, code }
    const value = (e as { code?: unknown }).code
    if (code === undefined && typeof value === 'string') code = value
  }
  return { code }
}

/** The refusal in an error's cause chain, if the guard refused the address. */
export function outboundRefusal(error: unknown): OutboundUrlError | undefined {
  return rootCause(error).refusal
}

/**
 * Turns what undici throws into an OutboundRequestError with a generic message. A refusal keeps
 * the guard's own message (it names the setting to change and never what a name resolved to).
 */
export function describeOutboundFailure(error: unknown, timeoutMs?: number): OutboundRequestError {
  if (error instanceof OutboundRequestError) return error
  const { refusal, code } = rootCause(error)
  if (refusal) return new OutboundRequestError('refused_address', refusal.message, { cause: refusal })
  const late = timeoutMs ? `no answer within ${timeoutMs / 1000} s` : 'no answer in time'
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new OutboundRequestError('host_not_found', 'host not found', { cause: error })
    case 'ECONNREFUSED':
      return new OutboundRequestError('connection_failed', 'connection refused', { cause: error })
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return new OutboundRequestError('connection_failed', 'connection closed by the receiver', { cause: error })
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return new OutboundRequestError('timeout', late, { cause: error })
  }
  if (error instanceof Error && error.name === 'TimeoutError') return new OutboundRequestError('timeout', late, { cause: error })
  // Only a code, never the error's own text: a TLS or parser error may quote what the peer sent.
  return new OutboundRequestError('connection_failed', `connection failed${code ? ` (${code})` : ''}`, { cause: error })
}

// Headers of a failed answer that say when to try again: the only part of it passed on.
const KEPT_ON_FAILURE = ['retry-after', 'retry-after-ms']

/**
 * A `fetch` (the shape the OpenAI SDK's `fetch` option takes) that goes through `agent` and
 * never follows a redirect. Any answer that is not 2xx is handed back with its status and
 * Retry-After headers only, its body dropped unread, so the SDK's error carries no byte of it.
 * A refused address or a failed connection rejects with an OutboundRequestError (the SDK wraps
 * it as the cause of its connection error).
 */
export function createGuardedFetch(agent: Dispatcher): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    let answer: Awaited<ReturnType<typeof undiciFetch>>
    try {
      answer = await undiciFetch(url, {
        method: init?.method,
        headers: init?.headers ? Object.fromEntries(new Headers(init.headers)) : undefined,
        body: typeof init?.body === 'string' || init?.body === undefined || init.body === null ? init?.body : await new Response(init.body).arrayBuffer(),
        signal: init?.signal,
        redirect: 'manual',
        dispatcher: agent,
      })
    } catch (error) {
      if (init?.signal?.aborted) throw error
      // The original stays as the OutboundRequestError's cause.
      throw describeOutboundFailure(error)
    }
    if (answer.status >= 200 && answer.status < 300) {
      const headers = new Headers()
      answer.headers.forEach((value, name) => headers.append(name, value))
      return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers })
    }
    await answer.body?.cancel().catch(() => undefined)
    const headers = new Headers()
    for (const name of KEPT_ON_FAILURE) {
      const value = answer.headers.get(name)
      if (value !== null) headers.set(name, value)
    }
    return new Response(null, { status: answer.status, headers })
  }
}

/** True for a status that asks to go elsewhere (never followed). */
export const isRedirect = (status: number) => status >= 300 && status < 400

// One agent per (setting, allowPrivate) for the process; a test's injected resolver gets its own.
const sharedAgents = new Map<string, Agent>()
const resolverAgents = new WeakMap<NonNullable<OutboundPolicy['resolver']>, Map<string, Agent>>()

/** The process's guarded agent for this policy (created on first use, then reused). */
export function guardedAgentFor(policy: OutboundPolicy): Agent {
  const key = `${policy.caller?.setting ?? 'WEBHOOK_ALLOW_PRIVATE'}:${policy.allowPrivate}`
  let agents = sharedAgents
  if (policy.resolver) {
    agents = resolverAgents.get(policy.resolver) ?? new Map<string, Agent>()
    resolverAgents.set(policy.resolver, agents)
  }
  let agent = agents.get(key)
  if (!agent) {
    agent = createGuardedAgent(policy)
    agents.set(key, agent)
  }
  return agent
}
