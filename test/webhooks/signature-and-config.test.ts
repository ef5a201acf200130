// Unit checks: our signing is what Standard Webhooks libraries verify (and a changed body,
// id, timestamp or secret is not), and the webhook settings parse with clear errors.
import { describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { ConfigError, DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from '../../src/config.js'
import { newWebhookSecret, signatureHeaders } from '../../src/webhooks/signature.js'
import { attemptTaskId } from '../../src/webhooks/emit.js'
import { webhookPayload } from '../../src/webhooks/events.js'

describe('webhook signatures', () => {
  it('verify with the standardwebhooks package; any change breaks them', () => {
    const secret = newWebhookSecret()
    const body = webhookPayload('collection.run.completed', { run: { id: 'r1', state: 'succeeded' } })
    const headers = signatureHeaders(secret, 'msg_1', body)
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
    expect(() => new Webhook(secret).verify(body.replace('succeeded', 'failed'), headers)).toThrow()
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow()
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow()
    const stale = signatureHeaders(secret, 'msg_1', body, new Date(Date.now() - 10 * 60_000))
    expect(() => new Webhook(secret).verify(body, stale)).toThrow(/timestamp/i)
  })

  it('gives each attempt of a delivery its own stable task id (a uuid)', () => {
    const id = attemptTaskId('0193a0c0-0000-7000-8000-000000000001', 2)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(attemptTaskId('0193a0c0-0000-7000-8000-000000000001', 2)).toBe(id)
    expect(attemptTaskId('0193a0c0-0000-7000-8000-000000000001', 3)).not.toBe(id)
  })
})

describe('webhook settings', () => {
  it('default to private addresses refused, 10 s, and the Standard Webhooks schedule (~27.6 h)', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ webhookAllowPrivate: false, webhookTimeoutMs: 10_000, webhookRetrySchedule: DEFAULT_WEBHOOK_RETRY_SCHEDULE })
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(27.59, 1)
  })

  it('parse the environment and name the variable at fault', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2,30', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '3' })).toMatchObject({
      webhookRetrySchedule: [1, 2, 30],
      webhookAllowPrivate: true,
      webhookTimeoutMs: 3000,
    })
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(ConfigError)
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/)
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_SECONDS: '0' })).toThrow(/WEBHOOK_TIMEOUT_SECONDS/)
  })
})
