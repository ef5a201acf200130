// Standard Webhooks signing (https://www.standardwebhooks.com): the receiver gets
// `webhook-id` (the delivery's id, the same on every retry, so it can drop duplicates),
// `webhook-timestamp` (Unix seconds of this attempt; receivers refuse old ones, which stops
// replays) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed
// with the base64-decoded part of the `whsec_…` secret. Any Standard Webhooks library
// (e.g. the `standardwebhooks` npm package) verifies it.
import { createHmac, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** A new signing secret: `whsec_` + 32 random bytes in base64. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`

export function signatureHeaders(secret: string, messageId: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString()
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` }
}
