// Redis, the shared store of the per-key request limiter, crashes while two instances
// serve traffic, then comes back. Analytics must keep answering (200, or 429 over the
// limit; never 5xx), each instance must log the fallback exactly once and keep limiting
// on its own, and sharing must resume when Redis returns.
import { Writable } from 'node:stream'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from '../helpers/test-app.js'
import { PrivateRedis, startInProcessApp, waitFor, type InProcessApp } from './helpers/private-services.js'

const LIMIT = 6
const FALLBACK = 'request limiter falls back'
const RESUMED = 'Redis is back'

interface Instance {
  svc: InProcessApp
  redis: Redis
  logs: string[]
}

describe.skipIf(!process.env.BEACON_FAULT_TESTS)('Redis outage', () => {
  let ctx: TestContext
  let server: PrivateRedis
  let a: Instance
  let b: Instance

  // Two instances of the app on one database, each with its own Redis client set up as
  // src/server.ts does, as two processes behind a load balancer would be.
  async function instance(): Promise<Instance> {
    const redis = new Redis(server.url, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    redis.on('error', () => {})
    const logs: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk))
        done()
      },
    })
    const svc = await startInProcessApp({ databaseUrl: 'memory://', database: ctx.database, config: { rateLimitPerMinute: LIMIT }, redis, logger: { level: 'info', stream } })
    return { svc, redis, logs }
  }

  const count = (instance: Instance, text: string) => instance.logs.filter((line) => line.includes(text)).length

  async function get(instance: Instance, key: string, path = '/api/v1/filters'): Promise<number> {
    const response = await fetch(`${instance.svc.url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(8_000) })
    await response.arrayBuffer()
    return response.status
  }

  const bothReady = () => waitFor('both Redis clients to be ready', async () => a.redis.status === 'ready' && b.redis.status === 'ready', 10_000)

  beforeAll(async () => {
    ctx = await createTestContext('pglite')
    server = await PrivateRedis.start()
    a = await instance()
    b = await instance()
    await bothReady()
  })

  afterAll(async () => {
    for (const instance of [a, b]) {
      await instance?.svc.close()
      instance?.redis.disconnect()
    }
    await server?.destroy()
    await ctx?.close()
  })

  it('keeps serving through a Redis crash, limits per instance meanwhile, and shares again after', async () => {
    // Shared: one key, requests alternating between the instances, one budget of LIMIT.
    const shared = (await ctx.tenant()).key
    const sharedStatuses: number[] = []
    for (let i = 0; i < LIMIT + 2; i++) sharedStatuses.push(await get(i % 2 ? b : a, shared))
    expect(sharedStatuses).toEqual([...Array(LIMIT).fill(200), 429, 429])
    expect(count(a, FALLBACK) + count(b, FALLBACK)).toBe(0)

    // Requests in flight while redis-server is SIGKILLed.
    const acrossKill = (await ctx.tenant()).key
    const inFlight = Array.from({ length: 24 }, (_, i) => get(i % 2 ? b : a, acrossKill, i % 3 ? '/api/v1/filters' : '/api/v1/dashboard'))
    await server.kill()
    const crashStatuses = await Promise.all(inFlight)
    expect(crashStatuses.filter((s) => s !== 200 && s !== 429)).toEqual([])

    await waitFor('both clients to notice the crash', async () => a.redis.status !== 'ready' && b.redis.status !== 'ready', 5_000)

    // Degraded: each instance counts for itself, so one key gets LIMIT per instance.
    const degraded = (await ctx.tenant()).key
    const onA: number[] = []
    for (let i = 0; i < LIMIT + 1; i++) onA.push(await get(a, degraded, i % 2 ? '/api/v1/dashboard' : '/api/v1/filters'))
    const onB: number[] = []
    for (let i = 0; i < LIMIT; i++) onB.push(await get(b, degraded))
    expect(onA).toEqual([...Array(LIMIT).fill(200), 429])
    expect(onB).toEqual(Array(LIMIT).fill(200))
    // Keep going for a while: still no 5xx, still one warning per instance.
    const more = await Promise.all(Array.from({ length: 20 }, async (_, i) => get(i % 2 ? b : a, (await ctx.tenant()).key)))
    expect(more.every((s) => s === 200)).toBe(true)
    expect(count(a, FALLBACK)).toBe(1)
    expect(count(b, FALLBACK)).toBe(1)

    // Redis returns (empty: no persistence); the clients reconnect on their own.
    const restartedAt = performance.now()
    await server.restart()
    await bothReady()
    const reconnectSeconds = (performance.now() - restartedAt) / 1000

    const again = (await ctx.tenant()).key
    const againStatuses: number[] = []
    for (let i = 0; i < LIMIT + 2; i++) againStatuses.push(await get(i % 2 ? b : a, again))
    expect(againStatuses).toEqual([...Array(LIMIT).fill(200), 429, 429])
    expect(count(a, RESUMED)).toBe(1)
    expect(count(b, RESUMED)).toBe(1)
    expect(count(a, FALLBACK)).toBe(1)
    expect(count(b, FALLBACK)).toBe(1)
    console.log(
      `[redis outage] statuses across the kill: ${crashStatuses.filter((s) => s === 200).length}×200, ${crashStatuses.filter((s) => s === 429).length}×429; ` +
        `clients ready again ${reconnectSeconds.toFixed(2)} s after redis-server restarted`,
    )
  })
})
