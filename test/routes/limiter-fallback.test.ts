import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { buildApp } from '../../src/app.js'
import { createTestContext, type TestContext } from '../helpers/test-app.js'

// Redis down must not break analytics: the limiter counts per instance and says so once.
describe('request limiter without Redis', () => {
  let ctx: TestContext
  let redis: Redis
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { rateLimitPerMinute: 3 })
    // Nothing listens on this port: the client stays disconnected.
    redis = new Redis('redis://127.0.0.1:6399', { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 200 })
    redis.on('error', () => {})
  })
  afterAll(async () => {
    redis.disconnect()
    await ctx.close()
  })

  it('keeps serving, still limits per instance, and logs the fallback once', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const app = await buildApp({ config: ctx.config, database: ctx.database, redis, logger: { level: 'warn', stream } })
    try {
      const { key } = await ctx.tenant()
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await app.inject({ url: '/api/v1/filters', headers: { authorization: `Bearer ${key}` } })).statusCode)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      const warnings = lines.filter((line) => line.includes('request limiter falls back'))
      expect(warnings).toHaveLength(1)
    } finally {
      await app.close()
    }
  })
})
