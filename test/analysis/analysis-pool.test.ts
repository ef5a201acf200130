import { afterAll, describe, expect, it } from 'vitest'
import { AnalysisPool, analyzeInline, MIN_PARALLEL_BATCH } from '../../src/analysis/analysis-pool.js'
import { compileBrandMatcher } from '../../src/analysis/mentions.js'
import { generateDemoDataset } from '../../src/demo/generate-demo.js'

// Real demo answers: long texts, markdown, links and several brands each.
const dataset = generateDemoDataset({ today: '2026-06-30', days: 3 })
const matcher = compileBrandMatcher(dataset.brands.map((b, i) => ({ id: `brand-${i}`, name: b.name, aliases: b.aliases, domain: b.domain })))
const items = dataset.responses.slice(0, 150).map((r) => ({ content: r.content, citations: r.citations }))

describe('AnalysisPool', () => {
  const pool = new AnalysisPool(2)
  afterAll(() => pool.close())

  it('gives exactly what the main thread gives, in item order', async () => {
    expect(items.length).toBe(150)
    const inline = await analyzeInline(items, matcher)
    expect(inline.some((analysis) => analysis.mentions.length > 1)).toBe(true)
    expect(inline.some((analysis) => analysis.citations.length > 0)).toBe(true)
    expect(await pool.analyze(items, matcher)).toEqual(inline)
    expect(pool.running).toBe(2)
  }, 60_000)

  it('keeps working for concurrent batches with different brand sets', async () => {
    const other = compileBrandMatcher([{ id: 'only', name: dataset.brands[0].name, aliases: [], domain: null }])
    const [a, b] = await Promise.all([pool.analyze(items, matcher), pool.analyze(items, other)])
    expect(a).toEqual(await analyzeInline(items, matcher))
    expect(b).toEqual(await analyzeInline(items, other))
    expect(b.every((analysis) => analysis.mentions.every((m) => m.brandId === 'only'))).toBe(true)
    // Each thread holds the set it was last sent: back to the first set, it must be sent again.
    expect(await pool.analyze(items, matcher)).toEqual(a)
  }, 60_000)

  it('starts again after being closed, and a pool of size 0 analyses inline', async () => {
    await pool.close()
    const batch = items.slice(0, MIN_PARALLEL_BATCH)
    expect(await pool.analyze(batch, matcher)).toEqual(await analyzeInline(batch, matcher))
    expect(await new AnalysisPool(0).analyze(batch, matcher)).toEqual(await analyzeInline(batch, matcher))
  }, 60_000)
})
