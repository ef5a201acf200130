// The 413 answer says the limit this server applies (BODY_LIMIT_MB), not a fixed "10 MB".
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { formatBytes } from '../../src/http/error-handler.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

describe.each(testBackends)('413 message (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { bodyLimitBytes: loadConfig({ BODY_LIMIT_MB: '1' }).bodyLimitBytes })
  })
  afterAll(() => ctx.close())

  const oversized = (app: TestContext['app'], bytes: number, key: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/ingest/responses',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ responses: [{ content: 'x'.repeat(bytes) }] }),
    })

  it('names the configured limit', async () => {
    const { key } = await ctx.tenant()
    const one = await oversized(ctx.app, 1.5 * 1024 * 1024, key)
    expect(one.statusCode).toBe(413)
    expect(one.json().error).toMatchObject({
      code: 'payload_too_large',
      message: 'The request body is too large: this server accepts at most 1 MB per request; send fewer items per request',
    })
    const three = await buildApp({ config: { ...ctx.config, bodyLimitBytes: loadConfig({ BODY_LIMIT_MB: '3' }).bodyLimitBytes }, database: ctx.database, logger: false })
    try {
      // 1.5 MB passes the 3 MB limit (and fails validation instead); 3.5 MB does not.
      expect((await oversized(three, 1.5 * 1024 * 1024, key)).statusCode).toBe(400)
      const refused = await oversized(three, 3.5 * 1024 * 1024, key)
      expect(refused.statusCode).toBe(413)
      expect(refused.json().error.message).toContain('at most 3 MB per request')
      expect(refused.json().error.message).not.toContain('10 MB')
    } finally {
      await three.close()
    }
  })
})

describe('formatBytes', () => {
  it('writes whole megabytes as MB and anything else as KB', () => {
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB')
    expect(formatBytes(256 * 1024)).toBe('256 KB')
    expect(formatBytes(1536 * 1024)).toBe('1536 KB')
    expect(formatBytes(100)).toBe('100 bytes')
  })
})
