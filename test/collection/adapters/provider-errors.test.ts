// Retry-After parsing and the mapping of statuses and thrown errors to ProviderError kinds.
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai'
import { describe, expect, it } from 'vitest'
import { kindForStatus, parseRetryAfter, redactKeys, toProviderError } from '../../../src/collection/adapters/provider-errors.js'
import { ProviderError } from '../../../src/collection/adapters/types.js'

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-25T08:00:00Z')
  it('reads delay-seconds, an HTTP date, and retry-after-ms (which wins)', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 08:00:30 GMT' }), now)).toBe(30_000)
    expect(parseRetryAfter(new Headers({ 'retry-after': '7', 'retry-after-ms': '250' }), now)).toBe(250)
    expect(parseRetryAfter({ 'Retry-After': '3' }, now)).toBe(3000)
  })
  it('a date in the past is no wait; garbage and absence are undefined', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 07:59:00 GMT' }), now)).toBe(0)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers({ 'retry-after': '-5' }), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })
})

describe('kinds', () => {
  it('maps statuses: 429 rate_limited, 5xx server, 401/403 flag the target, other 4xx bad_request', () => {
    expect([429, 500, 503, 529, 401, 403, 400, 404, 422, 408].map(kindForStatus)).toEqual([
      'rate_limited',
      'server',
      'server',
      'server',
      'unauthorized',
      'forbidden',
      'bad_request',
      'bad_request',
      'bad_request',
      'timeout',
    ])
  })

  it('maps SDK errors, SyntaxError and fetch failures; returns unrelated errors unchanged', () => {
    const context = { label: 'openai', timedOut: false }
    const limited = toProviderError(APIError.generate(429, { error: { message: 'slow down' } }, undefined, new Headers({ 'retry-after-ms': '900' })), context)
    expect(limited).toBeInstanceOf(ProviderError)
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 900 })
    expect(toProviderError(new APIConnectionTimeoutError(), context)).toMatchObject({ kind: 'timeout' })
    expect(toProviderError(new APIConnectionError({ message: 'Connection error.' }), context)).toMatchObject({ kind: 'network' })
    expect(toProviderError(new SyntaxError('Unexpected end of JSON input'), context)).toMatchObject({ kind: 'malformed' })
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
    expect(toProviderError(refused, context)).toMatchObject({ kind: 'network' })
    expect(toProviderError(new Error('anything'), { ...context, timedOut: true })).toMatchObject({ kind: 'timeout' })
    const bug = new RangeError('our own bug')
    expect(toProviderError(bug, context)).toBe(bug)
  })
})

describe('redactKeys', () => {
  it('removes keys the providers quote, keeps the rest of the message', () => {
    expect(redactKeys('Incorrect API key provided: sk-proj-abc***xyz. You can find your API key at https://platform.openai.com')).toBe(
      'Incorrect API key provided: [redacted key]. You can find your API key at https://platform.openai.com',
    )
    expect(redactKeys('API key not valid: AIzaSyA1b2C3d4E5f6G7h8')).toBe('API key not valid: [redacted key]')
    expect(redactKeys('model gpt-5 not found')).toBe('model gpt-5 not found')
  })
})
