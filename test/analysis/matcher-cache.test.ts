// The compiled-matcher cache is bounded in bytes: least recently used idle matchers go
// first, matchers in use never, and a build that cannot fit is refused with a 503 naming
// MATCHER_CACHE_MB (issue 33).
import { afterEach, describe, expect, it } from 'vitest'
import { MatcherCache } from '../../src/analysis/matcher-cache.js'
import { compileBrandMatcherAsync, configureMatcherCache, findMentionMatches, matcherCache, type BrandTerms } from '../../src/analysis/mentions.js'
import { AppError } from '../../src/core/errors.js'

const value = (bytes: number) => ({ bytes })

describe('MatcherCache', () => {
  it('evicts the least recently used idle entries to stay within its bytes', () => {
    const cache = new MatcherCache<{ bytes: number }>(100)
    const evicted: number[] = []
    cache.onEvict((v) => evicted.push(v.bytes))
    const a = cache.buildNow('a', () => value(40))
    cache.buildNow('b', () => value(41))
    expect(cache.get('a')).toBe(a) // a is now the most recently used
    cache.buildNow('c', (reserve) => {
      reserve(42)
      return value(42)
    })
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(a)
    expect(evicted).toEqual([41])
    expect(cache.stats()).toMatchObject({ entries: 2, builds: 3, evictions: 1, refusals: 0 })
  })

  it('never evicts a pinned entry, and refuses with a 503 when only pinned ones are left', () => {
    const cache = new MatcherCache<{ bytes: number }>(100)
    const a = cache.buildNow('a', () => value(60))
    cache.pin(a)
    let refused: unknown
    try {
      cache.buildNow('b', (reserve) => {
        reserve(50)
        return value(50)
      })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).statusCode).toBe(503)
    expect((refused as AppError).message).toContain('MATCHER_CACHE_MB')
    expect((refused as AppError).headers['Retry-After']).toBe(5)
    expect(cache.get('a')).toBe(a)
    // Once unpinned it can make room; the refused build reserved nothing.
    cache.unpin(a)
    cache.buildNow('b', (reserve) => {
      reserve(50)
      return value(50)
    })
    expect(cache.get('a')).toBeUndefined()
    expect(cache.stats()).toMatchObject({ entries: 1, refusals: 1 })
  })

  it('refuses a set larger than the whole limit, saying what to change', () => {
    const cache = new MatcherCache<{ bytes: number }>(10 * 1024 * 1024)
    expect(() =>
      cache.buildNow('huge', (reserve) => {
        reserve(11 * 1024 * 1024)
        return value(11 * 1024 * 1024)
      }),
    ).toThrow(/needs 11 MB to match, more than the MATCHER_CACHE_MB limit of 10 MB/)
  })

  it('counts a pinned entry that was replaced until it is unpinned', () => {
    const cache = new MatcherCache<{ bytes: number }>(100)
    const released: number[] = []
    cache.onEvict((v) => released.push(v.bytes))
    const old = cache.buildNow('k', () => value(70))
    cache.pin(old)
    cache.clear()
    expect(released).toEqual([]) // still in use: its bytes stay counted
    expect(() => cache.buildNow('other', (reserve) => (reserve(40), value(40)))).toThrow(/retry/)
    cache.unpin(old)
    expect(released).toEqual([70])
    expect(cache.buildNow('other', (reserve) => (reserve(40), value(40))).bytes).toBe(40)
  })

  it('builds a key once for concurrent callers, and one build at a time', async () => {
    const cache = new MatcherCache<{ bytes: number }>(1000)
    let running = 0
    let most = 0
    let builds = 0
    const build = (bytes: number) => async () => {
      builds++
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 20))
      running--
      return value(bytes)
    }
    const [a1, a2, b] = await Promise.all([cache.build('a', build(10)), cache.build('a', build(10)), cache.build('b', build(20))])
    expect(a1).toBe(a2)
    expect(b.bytes).toBe(20)
    expect(builds).toBe(2)
    expect(most).toBe(1)
  })
})

describe('the process matcher cache with real brand sets', () => {
  afterEach(() => {
    configureMatcherCache(512)
    matcherCache.clear()
  })

  const heavy = (tag: string): BrandTerms[] =>
    Array.from({ length: 100 }, (_, b) => ({
      id: `${tag}${b}`,
      name: `${tag} Brand ${b}`,
      aliases: Array.from({ length: 20 }, (_, a) => `${tag} Brand ${b} alias ${a} `.padEnd(200, 'x')),
      domain: null,
    }))

  it('keeps the matchers within MATCHER_CACHE_MB, evicting the older set, and still matches', async () => {
    configureMatcherCache(16)
    const first = await compileBrandMatcherAsync('first', heavy('A'))
    // ~400,000 trie nodes: 16 bytes each, not the ~85 of an object per node.
    expect(first.bytes).toBeGreaterThan(5 * 1024 * 1024)
    expect(first.bytes).toBeLessThan(8 * 1024 * 1024)
    const second = await compileBrandMatcherAsync('second', heavy('B'))
    const third = await compileBrandMatcherAsync('third', heavy('C'))
    expect(matcherCache.stats().usedMb).toBeLessThanOrEqual(16)
    expect(matcherCache.get('first')).toBeUndefined()
    expect(matcherCache.get('third')).toBe(third)
    expect(findMentionMatches('We chose B Brand 7 alias 3 over C Brand 12.', second).map((m) => m.brandId)).toEqual(['B7'])
    expect(findMentionMatches('We chose B Brand 7 alias 3 over C Brand 12.', third).map((m) => m.brandId)).toEqual(['C12'])
  })

  it('refuses, with a 503 naming MATCHER_CACHE_MB, a set that cannot fit', async () => {
    configureMatcherCache(16)
    const big = [...heavy('A'), ...heavy('B'), ...heavy('C')]
    await expect(compileBrandMatcherAsync('big', big)).rejects.toMatchObject({ statusCode: 503, message: expect.stringContaining('MATCHER_CACHE_MB limit of 16 MB') })
    expect(matcherCache.stats()).toMatchObject({ entries: 0, usedMb: 0 })
  })
})
