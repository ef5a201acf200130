// One HTTP POST to a receiver (webhooks, notification channels) through the guarded outbound
// agent (src/security/outbound-agent.ts; docs/agents-and-notifications.md): the address checked
// is the address connected to, redirects are not followed (a 3xx is a failed attempt), and the
// receiver's answer body is never read: the delivery log keeps its status and a generic reason.
// The connection is closed after each attempt, so each attempt resolves and checks again.
import { request } from 'undici'
import type { AttemptOutcome } from '../delivery/attempt-task.js'
import { describeOutboundFailure, guardedAgentFor, isRedirect } from '../security/outbound-agent.js'
import type { OutboundPolicy } from '../security/outbound-url.js'

/** What the POST came to: the receiver's status, or why no answer came (the delivery log's attempt). */
export type PostOutcome = AttemptOutcome

const USER_AGENT = 'Beacon-Webhooks/1'

export async function postWebhook(url: URL, body: string, headers: Record<string, string>, options: { timeoutMs: number; policy: OutboundPolicy }): Promise<PostOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  // One deadline for the whole exchange (connect, send, answer, body), not per idle gap.
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: guardedAgentFor(options.policy),
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body,
      signal,
      reset: true,
    })
    const status = response.statusCode
    // The body is not kept: discarded unread (bounded by the deadline).
    await response.body.dump({ limit: 0, signal }).catch(() => undefined)
    if (status >= 200 && status < 300) return { status, error: null, durationMs: elapsed() }
    return { status, error: isRedirect(status) ? `redirect (${status}) not followed` : `receiver answered ${status}`, durationMs: elapsed() }
  } catch (error) {
    if (signal.aborted) return { status: null, error: `no answer within ${options.timeoutMs / 1000} s`, durationMs: elapsed() }
    const failure = describeOutboundFailure(error, options.timeoutMs)
    return { status: null, error: failure.message, durationMs: failure.code === 'refused_address' ? 0 : elapsed() }
  }
}
