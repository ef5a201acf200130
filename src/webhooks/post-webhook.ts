// One HTTP POST to a receiver, with the SSRF guard applied to the address actually
// connected to: a literal address is checked here, a name in the request's `lookup`
// (after DNS resolution, so a name that now resolves inside the network is refused).
// Redirects are not followed (a 3xx is a failed attempt): following one would be a second,
// unchecked request. No connection reuse: each attempt resolves and checks again.
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { assertAddressAllowed, guardedLookup, OutboundUrlError, urlHost, type OutboundPolicy } from '../security/outbound-url.js'

export interface PostOutcome {
  /** the receiver's status code; null when no answer came */
  status: number | null
  /** why no answer came (or the answer was not a success), for the delivery log */
  error: string | null
  durationMs: number
}

const USER_AGENT = 'Beacon-Webhooks/1'

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundUrlError) return error.message
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ECONNRESET':
      return 'connection reset by the receiver'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found'
    case 'ETIMEDOUT':
    case 'ABORT_TIMEOUT':
      return `no answer within ${timeoutMs / 1000} s`
  }
  return error instanceof Error ? error.message.slice(0, 300) : 'request failed'
}

export function postWebhook(url: URL, body: string, headers: Record<string, string>, options: { timeoutMs: number; policy: OutboundPolicy }): Promise<PostOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const host = urlHost(url)
  try {
    if (isIP(host)) assertAddressAllowed(host, options.policy)
  } catch (error) {
    return Promise.resolve({ status: null, error: describe(error, options.timeoutMs), durationMs: 0 })
  }
  return new Promise((resolve) => {
    let settled = false
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return
      settled = true
      resolve({ ...outcome, durationMs: elapsed() })
    }
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.policy),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), 'user-agent': USER_AGENT },
    })
    // One deadline for the whole exchange (connect, send, answer, body), not per idle gap.
    const timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${options.timeoutMs / 1000} s` })
      request.destroy()
    }, options.timeoutMs)
    request.on('response', (response) => {
      const status = response.statusCode ?? null
      const ok = status !== null && status >= 200 && status < 300
      finish({ status, error: ok ? null : status !== null && status >= 300 && status < 400 ? `redirect (${status}) not followed` : `receiver answered ${status}` })
      // The body is not kept: drained so the connection ends, cut at the deadline.
      response.resume()
      response.on('end', () => clearTimeout(timer))
      response.on('error', () => clearTimeout(timer))
    })
    request.on('error', (error) => {
      clearTimeout(timer)
      finish({ status: null, error: describe(error, options.timeoutMs) })
    })
    request.end(body)
  })
}
