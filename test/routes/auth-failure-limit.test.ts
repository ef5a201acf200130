// Requests without a valid key are limited per client address BEFORE the key lookup
// (src/auth/auth-failure-limiter.ts): after AUTH_FAILURES_PER_MINUTE failures an address
// gets 429 with Retry-After, proven here to cost no lookup (the key table is hidden and no
// request fails on it); good keys are never counted nor stopped; /api/v1 and /mcp share the
// count; with REDIS_URL two instances share it too; TRUST_PROXY takes the address from
// X-Forwarded-For.
import { randomInt } from 'node:crypto'
import { sql } from 'kysely'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { generateApiKey } from '../../src/auth/api-keys.js'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

const MAX = 5

describe.each(testBackends)('per-address limit on requests without a valid key (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  const used = new Set<string>()
  /** A documentation address (RFC 5737) not used before in this file: each test counts its own. */
  const address = () => {
    for (;;) {
      const candidate = `203.0.113.${randomInt(1, 255)}`
      if (!used.has(candidate)) {
        used.add(candidate)
        return candidate
      }
    }
  }
  beforeAll(async () => {
    ctx = await createTestContext(backend, { authFailuresPerMinute: MAX })
    tenant = await ctx.tenant()
  })
  afterAll(() => ctx.close())

  const call = (remoteAddress: string, key: string | undefined, url = '/api/v1/filters') =>
    ctx.app.inject({ url, remoteAddress, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } })

  it('counts only failures, then answers 429 with Retry-After without looking the key up', async () => {
    const ip = address()
    // Good keys are never counted.
    for (let i = 0; i < 3 * MAX; i++) expect((await call(ip, tenant.key)).statusCode).toBe(200)
    const failures = [await call(ip, undefined), await call(ip, 'bvk_garbage'), ...(await Promise.all([1, 2, 3].map(() => call(ip, generateApiKey()))))]
    expect(failures.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401])

    // With the key table gone, a request that reached the lookup would fail with a 500.
    await sql`alter table api_key rename to api_key_hidden`.execute(ctx.database.db)
    try {
      for (const key of [generateApiKey(), undefined, 'bvk_garbage']) {
        const limited = await call(ip, key)
        expect(limited.statusCode, limited.body).toBe(429)
        expect(limited.json().error).toMatchObject({
          code: 'rate_limited',
          message: expect.stringMatching(/^Too many requests without a valid API key from this address \(limit 5 per minute\); retry in \d+ s/),
        })
        const retryAfter = Number(limited.headers['retry-after'])
        expect(retryAfter).toBeGreaterThanOrEqual(1)
        expect(retryAfter).toBeLessThanOrEqual(60)
        expect(limited.headers['x-ratelimit-limit']).toBe(String(MAX))
        expect(limited.headers['x-ratelimit-remaining']).toBe('0')
      }
      // /mcp shares the count: the same address is refused there too, before its lookup.
      const mcp = await ctx.app.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${generateApiKey()}`, 'content-type': 'application/json' },
        payload: '{}',
      })
      expect(mcp.statusCode).toBe(429)
    } finally {
      await sql`alter table api_key_hidden rename to api_key`.execute(ctx.database.db)
    }

    // A key that authenticated recently still gets through; an address without failures too.
    expect((await call(ip, tenant.key)).statusCode).toBe(200)
    expect((await call(address(), generateApiKey())).statusCode).toBe(401)
    // A good key this server has not seen lately waits with the address (its lookup would be the cost the limit saves).
    const unseen = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['read:analytics'] })
    expect((await call(ip, unseen.key)).statusCode).toBe(429)
  })

  it('under a concurrent flood of bad keys from one address, good keys from it and elsewhere keep answering 200', async () => {
    const ip = address()
    expect((await call(ip, tenant.key)).statusCode).toBe(200)
    const other = await ctx.tenant()
    const wave = () =>
      Promise.all([
        ...Array.from({ length: 40 }, () => call(ip, generateApiKey())),
        ...Array.from({ length: 10 }, () => call(ip, tenant.key)),
        ...Array.from({ length: 10 }, () => call(address(), other.key)),
      ])
    const first = await wave()
    const second = await wave()
    for (const [i, response] of [...first, ...second].entries()) {
      const bad = i % 60 < 40
      if (bad) expect([401, 429], response.body).toContain(response.statusCode)
      else expect(response.statusCode, response.body).toBe(200)
    }
    // The first wave's requests may all pass the check before any failure is counted; the second finds the address blocked.
    expect(second.slice(0, 40).every((r) => r.statusCode === 429)).toBe(true)
  })

  it('takes the client address from X-Forwarded-For only with TRUST_PROXY', async () => {
    const proxied = await buildApp({ config: { ...ctx.config, trustProxy: ['127.0.0.1'] }, database: ctx.database, logger: false })
    try {
      const from = (forwarded: string) =>
        proxied.inject({ url: '/api/v1/filters', remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${generateApiKey()}`, 'x-forwarded-for': forwarded } })
      const attacker = address()
      for (let i = 0; i < MAX; i++) expect((await from(attacker)).statusCode).toBe(401)
      expect((await from(attacker)).statusCode).toBe(429)
      // Another client behind the same proxy is not blocked with it.
      expect((await from(address())).statusCode).toBe(401)
    } finally {
      await proxied.close()
    }
    // Without TRUST_PROXY the header is ignored (a client cannot pick its address): the connection's address is counted.
    const direct = address()
    const statuses = []
    for (let i = 0; i <= MAX; i++) statuses.push((await ctx.app.inject({ url: '/api/v1/filters', remoteAddress: direct, headers: { 'x-forwarded-for': address() } })).statusCode)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })
})

describe.skipIf(!process.env.REDIS_URL)('per-address limit shared through Redis', () => {
  let ctx: TestContext
  let redis: Redis
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { authFailuresPerMinute: MAX })
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 })
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve))
  })
  afterAll(async () => {
    redis.disconnect()
    await ctx.close()
  })

  it('counts one address’s failures across two instances', async () => {
    const first = await buildApp({ config: ctx.config, database: ctx.database, redis, logger: false })
    const second = await buildApp({ config: ctx.config, database: ctx.database, redis, logger: false })
    try {
      const ip = `192.0.2.${randomInt(1, 255)}`
      await redis.del(`beacon-auth-fail-${ip}`)
      const bad = (app: typeof first) => app.inject({ url: '/api/v1/filters', remoteAddress: ip, headers: { authorization: `Bearer ${generateApiKey()}` } })
      const statuses = []
      for (const app of [first, first, first, second, second, second, first, first]) statuses.push((await bad(app)).statusCode)
      // The 5th failure (on the second instance) reaches the limit there; the first learns it from its own next failure.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 401, 429])
    } finally {
      await first.close()
      await second.close()
    }
  })
})
