import { describe, expect, it } from 'vitest'
import { generateDemoDataset, generateDemoDatasetInSteps, type DemoDataset } from '../../src/demo/generate-demo.js'
import { Rng, mulberry32 } from '../../src/demo/random.js'

const TODAY = '2025-06-30'
const DAY_MS = 86_400_000
const PROVIDERS = ['openai', 'anthropic', 'google', 'perplexity'] as const

// Generated once and shared: the generator is pure, so tests cannot interfere.
const ds: DemoDataset = generateDemoDataset({ today: TODAY })

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const out = new Map<string, number>()
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1)
  return out
}

describe('random', () => {
  it('mulberry32 is deterministic and in [0, 1)', () => {
    const a = mulberry32(42)
    const b = mulberry32(42)
    for (let i = 0; i < 1000; i++) {
      const x = a()
      expect(x).toBe(b())
      expect(x).toBeGreaterThanOrEqual(0)
      expect(x).toBeLessThan(1)
    }
  })

  it('labelled sub-streams are independent of call order', () => {
    const first = Rng.for(7, 'x').next()
    Rng.for(7, 'y').next()
    expect(Rng.for(7, 'x').next()).toBe(first)
    expect(Rng.for(7, 'y').next()).not.toBe(first)
  })
})

describe('generateDemoDataset', () => {
  it('is deterministic: same options give deep-equal output', () => {
    expect(generateDemoDataset({ today: TODAY })).toEqual(ds)
    expect(generateDemoDataset({ today: TODAY, days: 10, seed: 5 })).toEqual(generateDemoDataset({ today: TODAY, days: 10, seed: 5 }))
  })

  it('gives the same dataset in steps, pausing after each day (the server answers requests meanwhile)', async () => {
    let pauses = 0
    const stepped = await generateDemoDatasetInSteps({ today: TODAY, days: 10, seed: 5 }, async () => {
      pauses++
    })
    expect(stepped).toEqual(generateDemoDataset({ today: TODAY, days: 10, seed: 5 }))
    expect(pauses).toBe(10)
  })

  it('a different seed gives different data', () => {
    const other = generateDemoDataset({ today: TODAY, seed: 12345 })
    expect(other.responses.map((r) => r.content)).not.toEqual(ds.responses.map((r) => r.content))
    expect(other.responses.map((r) => r.createdAt)).not.toEqual(ds.responses.map((r) => r.createdAt))
  })

  it('returns fresh objects (callers may mutate them)', () => {
    const a = generateDemoDataset({ today: TODAY, days: 1 })
    a.brands[0].aliases.push('mutated')
    a.prompts[0].tags.push('mutated')
    const b = generateDemoDataset({ today: TODAY, days: 1 })
    expect(b.brands[0].aliases).not.toContain('mutated')
    expect(b.prompts[0].tags).not.toContain('mutated')
  })

  it('rejects invalid options', () => {
    expect(() => generateDemoDataset({ today: '2025-02-30' })).toThrow()
    expect(() => generateDemoDataset({ today: '30/06/2025' })).toThrow()
    expect(() => generateDemoDataset({ today: TODAY, days: 0 })).toThrow()
    expect(() => generateDemoDataset({ today: TODAY, days: 1.5 })).toThrow()
  })

  describe('brands', () => {
    it('has one primary brand and 8 competitors with fictional domains and icons', () => {
      expect(ds.workspaceName).toBeTruthy()
      expect(ds.brands).toHaveLength(9)
      expect(ds.brands.filter((b) => b.isPrimary)).toHaveLength(1)
      const keys = new Set(ds.brands.map((b) => b.key))
      expect(keys.size).toBe(9)
      expect(new Set(ds.brands.map((b) => b.name.toLowerCase())).size).toBe(9)
      for (const b of ds.brands) {
        expect(b.domain).toMatch(/^[a-z0-9-]+\.[a-z]{2,}$/)
        expect(b.iconUrl).toBe(`https://${b.domain}/favicon.ico`)
        expect(b.aliases.length).toBeGreaterThanOrEqual(1)
        expect(b.aliases.length).toBeLessThanOrEqual(2)
      }
    })

    it('includes a prefix-like tricky case (one brand name is a prefix of another)', () => {
      const names = ds.brands.map((b) => b.name.toLowerCase())
      const tricky = names.some((a) => names.some((b) => a !== b && b.startsWith(a)))
      expect(tricky).toBe(true)
    })
  })

  describe('prompts and models', () => {
    it('has 40 prompts with 1–3 tags from a small tag set', () => {
      expect(ds.prompts).toHaveLength(40)
      expect(new Set(ds.prompts.map((p) => p.key)).size).toBe(40)
      const tags = new Set<string>()
      for (const p of ds.prompts) {
        expect(p.text.length).toBeGreaterThan(10)
        expect(p.tags.length).toBeGreaterThanOrEqual(1)
        expect(p.tags.length).toBeLessThanOrEqual(3)
        p.tags.forEach((t) => tags.add(t))
      }
      expect(tags.size).toBeGreaterThanOrEqual(6)
      expect(tags.size).toBeLessThanOrEqual(10)
    })

    it('has 8 models, two per provider', () => {
      expect(ds.models).toHaveLength(8)
      expect(new Set(ds.models.map((m) => m.id)).size).toBe(8)
      const perProvider = countBy(ds.models, (m) => m.provider)
      for (const p of PROVIDERS) expect(perProvider.get(p)).toBe(2)
      for (const m of ds.models) expect(m.name).toBeTruthy()
    })
  })

  describe('responses', () => {
    it('has roughly 5,000–6,000 responses for 90 days', () => {
      expect(ds.responses.length).toBeGreaterThanOrEqual(5000)
      expect(ds.responses.length).toBeLessThanOrEqual(6000)
    })

    it('asks each prompt on 1–2 models every day', () => {
      const perDayPrompt = countBy(ds.responses, (r) => `${r.createdAt.slice(0, 10)}|${r.promptKey}`)
      expect(perDayPrompt.size).toBe(90 * 40)
      for (const n of perDayPrompt.values()) expect([1, 2]).toContain(n)
    })

    it('references valid prompts, providers and models (model belongs to its provider)', () => {
      const promptKeys = new Set(ds.prompts.map((p) => p.key))
      const modelProvider = new Map(ds.models.map((m) => [m.id, m.provider]))
      for (const r of ds.responses) {
        expect(promptKeys.has(r.promptKey)).toBe(true)
        expect(PROVIDERS).toContain(r.provider)
        expect(modelProvider.get(r.model)).toBe(r.provider)
      }
      expect(new Set(ds.responses.map((r) => r.provider)).size).toBe(4)
      expect(new Set(ds.responses.map((r) => r.model)).size).toBe(8)
    })

    it('has unique, stable external ids', () => {
      const ids = ds.responses.map((r) => r.externalId)
      expect(new Set(ids).size).toBe(ids.length)
      for (const r of ds.responses) {
        expect(r.externalId).toBe(`demo-r-${r.createdAt.slice(0, 10)}-${r.promptKey}-${r.model}`)
      }
    })

    it('timestamps are ISO UTC, inside the window and not after the end of today', () => {
      const start = Date.parse('2025-04-02T00:00:00.000Z') // 90 days ending 2025-06-30
      const end = Date.parse(`${TODAY}T00:00:00.000Z`) + DAY_MS
      const days = new Set<string>()
      for (const r of ds.responses) {
        expect(r.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        const ms = Date.parse(r.createdAt)
        expect(ms).toBeGreaterThanOrEqual(start)
        expect(ms).toBeLessThan(end)
        days.add(r.createdAt.slice(0, 10))
      }
      expect(days.size).toBe(90)
      expect(days.has(TODAY)).toBe(true)
      expect(days.has('2025-04-02')).toBe(true)
    })

    it('respects the days option', () => {
      const small = generateDemoDataset({ today: '2024-03-01', days: 3 })
      expect(new Set(small.responses.map((r) => r.createdAt.slice(0, 10)))).toEqual(new Set(['2024-02-28', '2024-02-29', '2024-03-01']))
      expect(small.responses.length).toBeGreaterThanOrEqual(3 * 40)
      expect(small.responses.length).toBeLessThanOrEqual(3 * 40 * 2)
    })

    it('has a small share of empty contents and otherwise 400–2,000 chars', () => {
      const empty = ds.responses.filter((r) => r.content === '')
      const share = empty.length / ds.responses.length
      expect(share).toBeGreaterThan(0.01)
      expect(share).toBeLessThan(0.06)
      for (const r of empty) expect(r.citations).toEqual([])
      for (const r of ds.responses) {
        if (r.content === '') continue
        expect(r.content.length).toBeGreaterThanOrEqual(400)
        expect(r.content.length).toBeLessThanOrEqual(2000)
      }
    })

    it('mentions the primary brand in roughly 45–60% of answers, trending up', () => {
      const primary = ds.brands.find((b) => b.isPrimary)!
      const mentions = (r: { content: string }) => r.content.toLowerCase().includes(primary.name.toLowerCase())
      const share = ds.responses.filter(mentions).length / ds.responses.length
      expect(share).toBeGreaterThan(0.4)
      expect(share).toBeLessThan(0.65)

      const firstMonth = ds.responses.filter((r) => r.createdAt < '2025-05-02')
      const lastMonth = ds.responses.filter((r) => r.createdAt >= '2025-06-01')
      const early = firstMonth.filter(mentions).length / firstMonth.length
      const late = lastMonth.filter(mentions).length / lastMonth.length
      expect(late).toBeGreaterThan(early)
    })

    it('competitors have different visibility levels', () => {
      const shares = ds.brands.map((b) => ds.responses.filter((r) => new RegExp(`\\b${b.name}\\b`, 'i').test(r.content)).length / ds.responses.length)
      expect(Math.max(...shares) - Math.min(...shares)).toBeGreaterThan(0.3)
      expect(Math.min(...shares)).toBeGreaterThan(0.03)
    })

    it('contains answers with no brand, alias and domain mentions, markdown links and bare URLs', () => {
      const nonEmpty = ds.responses.filter((r) => r.content !== '')
      const noBrand = nonEmpty.filter((r) => !ds.brands.some((b) => r.content.toLowerCase().includes(b.name.toLowerCase())))
      expect(noBrand.length).toBeGreaterThan(nonEmpty.length * 0.01)

      const aliases = ds.brands.flatMap((b) => b.aliases)
      expect(nonEmpty.some((r) => aliases.some((a) => r.content.includes(a)))).toBe(true)
      expect(nonEmpty.some((r) => ds.brands.some((b) => r.content.includes(` ${b.domain} `)))).toBe(true)
      expect(nonEmpty.some((r) => /\[[A-Z][a-z]+\]\(https:\/\/[^)]+\)/.test(r.content))).toBe(true)
      expect(nonEmpty.some((r) => /(^|\s)https:\/\/\S+/.test(r.content))).toBe(true)
    })

    it('contains praise and criticism for brands', () => {
      const all = ds.responses.map((r) => r.content).join('\n')
      expect(all).toMatch(/users love its/)
      expect(all).toMatch(/complain about its/)
    })

    it('Perplexity and Google carry 3–6 citations; OpenAI/Anthropic only occasionally', () => {
      for (const r of ds.responses) {
        if (r.content === '') continue
        if (r.provider === 'perplexity' || r.provider === 'google') {
          // +1: a provider may list the same page twice under different URL shapes.
          expect(r.citations.length).toBeGreaterThanOrEqual(3)
          expect(r.citations.length).toBeLessThanOrEqual(7)
        }
      }
      const other = ds.responses.filter((r) => r.provider === 'openai' || r.provider === 'anthropic')
      const withCitations = other.filter((r) => r.citations.length > 0).length / other.length
      expect(withCitations).toBeGreaterThan(0.05)
      expect(withCitations).toBeLessThan(0.35)
    })

    it('citations cover varied source kinds and need normalization', () => {
      const urls = ds.responses.flatMap((r) => r.citations.map((c) => c.url))
      for (const u of urls) expect(() => new URL(u)).not.toThrow()
      const hosts = new Set(urls.map((u) => new URL(u).hostname.replace(/^www\./, '')))
      for (const h of ['en.wikipedia.org', 'reddit.com', 'news.ycombinator.com', 'g2.com', 'capterra.com', 'techcrunch.com']) {
        expect(hosts.has(h)).toBe(true)
      }
      for (const b of ds.brands) expect(hosts.has(b.domain)).toBe(true)
      expect([...hosts].some((h) => h.endsWith('.gov') || h.endsWith('.edu'))).toBe(true)
      expect(urls.some((u) => u.includes('utm_source='))).toBe(true)
      expect(urls.some((u) => u.startsWith('https://www.'))).toBe(true)
      const citations = ds.responses.flatMap((r) => r.citations)
      expect(citations.some((c) => c.title === undefined)).toBe(true)
      expect(citations.some((c) => c.title && c.title.length > 0)).toBe(true)
    })
  })

  describe('AIO observations', () => {
    it('observes each prompt on most days, with unique ids inside the window', () => {
      expect(ds.aio.length).toBeGreaterThanOrEqual(90 * 40 * 0.9)
      expect(ds.aio.length).toBeLessThanOrEqual(90 * 40)
      const ids = ds.aio.map((a) => a.externalId)
      expect(new Set(ids).size).toBe(ids.length)
      const promptKeys = new Set(ds.prompts.map((p) => p.key))
      const end = Date.parse(`${TODAY}T00:00:00.000Z`) + DAY_MS
      const start = end - 90 * DAY_MS
      for (const a of ds.aio) {
        expect(promptKeys.has(a.promptKey)).toBe(true)
        const ms = Date.parse(a.observedAt)
        expect(ms).toBeGreaterThanOrEqual(start)
        expect(ms).toBeLessThan(end)
      }
    })

    it('has an AI overview ~60–70% of the time, with text only when present', () => {
      const share = ds.aio.filter((a) => a.hasAio).length / ds.aio.length
      expect(share).toBeGreaterThan(0.58)
      expect(share).toBeLessThan(0.72)
      for (const a of ds.aio) {
        if (!a.hasAio) {
          expect(a.overviewText).toBeNull()
          continue
        }
        expect(a.overviewText).not.toBeNull()
        expect(a.overviewText!.length).toBeGreaterThanOrEqual(200)
        expect(a.overviewText!.length).toBeLessThanOrEqual(600)
      }
    })

    it('overviews name 0–4 brands in varied order', () => {
      const orders = new Set<string>()
      const counts = new Set<number>()
      for (const a of ds.aio) {
        if (!a.overviewText) continue
        const named = ds.brands
          .map((b) => ({ b, at: a.overviewText!.search(new RegExp(`\\b${b.name}\\b`)) }))
          .filter((x) => x.at >= 0)
          .sort((x, y) => x.at - y.at)
          .map((x) => x.b.key)
        expect(named.length).toBeLessThanOrEqual(4)
        counts.add(named.length)
        if (named.length >= 2) orders.add(named.slice(0, 2).join('>'))
      }
      expect([...counts].sort()).toEqual([0, 1, 2, 3, 4])
      expect(orders.size).toBeGreaterThan(10)
    })
  })
})

describe('the demo on a day still going on', () => {
  // 09:30 on the last day: nothing may be dated after it (the dashboard showed answers from
  // hours ahead); the days before are exactly what they were.
  const now = new Date(`${TODAY}T09:30:00Z`)
  const today = generateDemoDataset({ today: TODAY, now })
  const onLastDay = (iso: string) => iso.startsWith(TODAY)

  it('dates no answer and no AI overview after now', () => {
    const latest = [...today.responses.map((r) => r.createdAt), ...today.aio.map((o) => o.observedAt)].sort().at(-1)!
    expect(latest <= now.toISOString()).toBe(true)
    // The whole day's answers are still there, spread over the hours already past.
    expect(today.responses.filter((r) => onLastDay(r.createdAt)).length).toBe(ds.responses.filter((r) => onLastDay(r.createdAt)).length)
    expect(today.responses.filter((r) => onLastDay(r.createdAt) && r.createdAt > `${TODAY}T08:00:00Z`).length).toBeGreaterThan(0)
    // Without `now`, the same day runs past 09:30: the case this guards.
    expect(ds.responses.some((r) => r.createdAt > now.toISOString())).toBe(true)
  })

  it("leaves the earlier days and everything but the last day's times unchanged", () => {
    expect(today.responses.filter((r) => !onLastDay(r.createdAt))).toEqual(ds.responses.filter((r) => !onLastDay(r.createdAt)))
    const untimed = (d: DemoDataset) => d.responses.map(({ createdAt: _, ...rest }) => rest)
    expect(untimed(today)).toEqual(untimed(ds))
  })
})
