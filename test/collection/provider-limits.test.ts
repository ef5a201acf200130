// The per-provider caps and the per-target gate, in isolation.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ProviderLimits } from '../../src/collection/provider-limits.js'
import { retryDelayMs } from '../../src/collection/collection-tasks.js'

const none = async () => undefined

describe('provider limits', () => {
  afterEach(() => vi.useRealTimers())

  it('holds requests in flight per provider to the concurrency cap; other providers are not held', async () => {
    const limits = new ProviderLimits({ concurrency: 2, requestsPerMinute: 1000 })
    let inFlight = 0
    let max = 0
    const request = async () => {
      inFlight += 1
      max = Math.max(max, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 30))
      inFlight -= 1
      return 'ok'
    }
    await limits.run('openai', 't1', none, request) // opens the target's gate
    await Promise.all(Array.from({ length: 6 }, () => limits.run('openai', 't1', none, request)))
    expect(max).toBe(2)
    max = 0
    await limits.run('google', 't2', none, request)
    await Promise.all([
      ...Array.from({ length: 3 }, () => limits.run('openai', 't1', none, request)),
      ...Array.from({ length: 3 }, () => limits.run('google', 't2', none, request)),
    ])
    expect(max).toBe(4)
  })

  it('starts at most requestsPerMinute requests per rolling minute', async () => {
    vi.useFakeTimers()
    const limits = new ProviderLimits({ concurrency: 10, requestsPerMinute: 3 })
    const started: number[] = []
    const t0 = Date.now()
    const request = async () => {
      started.push(Date.now() - t0)
    }
    await limits.run('openai', 't', none, request)
    const rest = Array.from({ length: 4 }, () => limits.run('openai', 't', none, request))
    await vi.advanceTimersByTimeAsync(59_000)
    expect(started).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(62_000)
    await Promise.all(rest)
    expect(started).toHaveLength(5)
    expect(started[3]).toBeGreaterThanOrEqual(60_000)
  })

  it('lets one request of an unproven target through at a time; the others then see what it left (a flag)', async () => {
    const limits = new ProviderLimits({ concurrency: 8, requestsPerMinute: 1000 })
    let flagged = false
    let asked = 0
    const before = async () => (flagged ? 'flagged' : undefined)
    const refused = async () => {
      asked += 1
      await new Promise((resolve) => setTimeout(resolve, 20))
      flagged = true
      throw new Error('401')
    }
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => limits.run('openai', 'bad-target', before, refused)))
    expect(asked).toBe(1)
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1)
    expect(results.filter((r) => r.status === 'fulfilled' && 'stopped' in r.value)).toHaveLength(4)
  })

  it('retry delays grow and never undercut Retry-After', () => {
    expect(retryDelayMs(0, 10_000)).toBe(10_000)
    expect(retryDelayMs(0, undefined)).toBeGreaterThanOrEqual(1500)
    expect(retryDelayMs(3, undefined)).toBeGreaterThanOrEqual(12_000)
    expect(retryDelayMs(20, undefined)).toBeLessThanOrEqual(5 * 60_000)
  })
})
