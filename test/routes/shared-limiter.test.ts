import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { buildApp } from '../../src/app.js'
import { createTestContext, type TestContext } from '../helpers/test-app.js'

// Two instances behind a load balancer share one limit when REDIS_URL is set.
describe.skipIf(!process.env.REDIS_URL)('per-key limiter shared through Redis', () => {
  let ctx: TestContext
  let redis: Redis
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { rateLimitPerMinute: 4 })
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 })
    // Until the client is ready the limiter counts per instance, by design.
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve))
  })
  afterAll(async () => {
    redis.disconnect()
    await ctx.close()
  })

  it('counts requests of one key across two app instances', async () => {
    const { key } = await ctx.tenant()
    const first = await buildApp({ config: ctx.config, database: ctx.database, redis, logger: false })
    const second = await buildApp({ config: ctx.config, database: ctx.database, redis, logger: false })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        const app = i % 2 === 0 ? first : second
        statuses.push((await app.inject({ url: '/api/v1/filters', headers: { authorization: `Bearer ${key}` } })).statusCode)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    } finally {
      await first.close()
      await second.close()
    }
  })
})
