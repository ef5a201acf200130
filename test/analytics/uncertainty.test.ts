// docs/uncertainty-and-discovery.md on the extension routes: every visibility rate carries its Wilson interval and
// sample size, and the period change its two-proportion test. The expected counts come
// from the answers this file writes (which of them name the brand), not from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { twoProportionZTest, wilsonInterval } from '../../src/analysis/statistics.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

// Current period: 10 days of June; previous: the 10 days before.
const CURRENT = { start: '2025-06-01', end: '2025-06-10' }
const PREVIOUS_DAY = '2025-05-25'
const RANGE = `start_date=${CURRENT.start}&end_date=${CURRENT.end}`

interface Item {
  prompt: 'broad' | 'niche'
  period: 'current' | 'previous'
  content: string
}

// broad: 40 answers per period, Acme in 28 now and 12 before (a real change, n ≥ 30).
// niche: 10 answers now (Acme in 5), 8 before (Acme in 2): too few to call.
function corpus(): Item[] {
  const items: Item[] = []
  const add = (prompt: Item['prompt'], period: Item['period'], total: number, acme: number) => {
    for (let i = 0; i < total; i++) {
      const names = [i < acme ? 'Acme' : null, i % 3 === 0 ? 'Globex' : null].filter(Boolean)
      items.push({ prompt, period, content: names.length ? `Consider ${names.join(' and ')} for this.` : 'It depends on your needs.' })
    }
  }
  add('broad', 'current', 40, 28)
  add('broad', 'previous', 40, 12)
  add('niche', 'current', 10, 5)
  add('niche', 'previous', 8, 2)
  return items
}

const pct = (interval: { low: number; high: number } | null) => interval && { low: Math.round(interval.low * 10_000) / 100, high: Math.round(interval.high * 10_000) / 100 }
const sig4 = (p: number) => Number(p.toPrecision(4))

describe.each(testBackends)('uncertainty on brand and prompt detail (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let acme: string
  const prompts: Record<Item['prompt'], string> = { broad: '', niche: '' }
  const items = corpus()
  // Independent counts: which answers name Acme, per prompt and period.
  const count = (filter: (item: Item) => boolean) => {
    const chosen = items.filter(filter)
    return { responses: chosen.length, mentioning: chosen.filter((item) => item.content.includes('Acme')).length }
  }

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    ;({ key } = await ctx.tenant())
    acme = await createBrand(ctx, key, { name: 'Acme', domain: 'acme.example', is_primary: true })
    await createBrand(ctx, key, { name: 'Globex' })
    prompts.broad = await createPrompt(ctx, key, 'Best CRM?', ['broad'])
    prompts.niche = await createPrompt(ctx, key, 'Best CRM for dentists?', ['niche'])
    await ingest(
      ctx,
      key,
      items.map((item, i) => {
        const day = item.period === 'current' ? `2025-06-0${1 + (i % 9)}` : PREVIOUS_DAY
        return {
          prompt_id: prompts[item.prompt],
          provider: i % 2 ? 'openai' : 'anthropic',
          model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
          content: item.content,
          created_at: `${day}T10:00:00Z`,
        }
      }),
    )
  })
  afterAll(() => ctx.close())

  const get = async (url: string) => {
    const response = await ctx.get(url, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data
  }

  it('brand detail: interval and sample size for both periods, and a significant change', async () => {
    const data = await get(`/api/v1/brands/${acme}?${RANGE}`)
    const now = count((item) => item.period === 'current')
    const before = count((item) => item.period === 'previous')
    expect(now).toEqual({ responses: 50, mentioning: 33 })
    expect(before).toEqual({ responses: 48, mentioning: 14 })
    expect(data.metrics).toMatchObject({ responses: now.responses, response_count: now.responses, responses_mentioning: now.mentioning })
    expect(data.metrics.visibility_ci).toEqual(pct(wilsonInterval(now.mentioning, now.responses)))
    expect(data.previous_period.metrics.responses).toBe(before.responses)
    expect(data.previous_period.metrics.visibility_ci).toEqual(pct(wilsonInterval(before.mentioning, before.responses)))
    // The interval holds the score it belongs to.
    expect(data.metrics.visibility_ci.low).toBeLessThan(data.metrics.visibility_score)
    expect(data.metrics.visibility_ci.high).toBeGreaterThan(data.metrics.visibility_score)
    const test = twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)!
    expect(data.change.visibility_test).toEqual({ delta: data.change.visibility_score, p_value: sig4(test.pValue), significant: true })
    expect(test.pValue).toBeLessThan(0.001)
    // Per provider and per prompt rates carry their intervals too.
    const openai = count((item) => item.period === 'current' && items.indexOf(item) % 2 === 1)
    expect(data.by_provider.find((p: { provider: string }) => p.provider === 'openai')).toMatchObject({
      response_count: openai.responses,
      visibility_ci: pct(wilsonInterval(openai.mentioning, openai.responses)),
    })
    expect(data.by_provider.find((p: { provider: string }) => p.provider === 'google').visibility_ci).toBeNull()
    const niche = count((item) => item.period === 'current' && item.prompt === 'niche')
    expect(data.top_prompts.find((p: { prompt_id: string }) => p.prompt_id === prompts.niche).visibility_ci).toEqual(pct(wilsonInterval(niche.mentioning, niche.responses)))
  })

  it('brand detail: fewer than 30 responses on a side → significant is null, the p-value still shown', async () => {
    const data = await get(`/api/v1/brands/${acme}?${RANGE}&tags=niche`)
    const now = count((item) => item.period === 'current' && item.prompt === 'niche')
    const before = count((item) => item.period === 'previous' && item.prompt === 'niche')
    expect(data.metrics.responses).toBe(10)
    expect(data.previous_period.metrics.responses).toBe(8)
    const test = twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)!
    expect(data.change.visibility_test).toEqual({ delta: data.change.visibility_score, p_value: sig4(test.pValue), significant: null })
  })

  it('brand detail: an empty period has no interval and no test', async () => {
    // The period before 2025-05-16..2025-05-25 is empty.
    const data = await get(`/api/v1/brands/${acme}?start_date=2025-05-16&end_date=2025-05-25`)
    expect(data.previous_period.metrics).toMatchObject({ responses: 0, visibility_ci: null })
    expect(data.change.visibility_test).toEqual({ delta: data.change.visibility_score, p_value: null, significant: null })
    const empty = await get(`/api/v1/brands/${acme}?start_date=2024-01-01&end_date=2024-01-02`)
    expect(empty.metrics).toMatchObject({ responses: 0, visibility_score: 0, visibility_ci: null })
  })

  it('prompt detail: each brand’s interval, sample size and tested change', async () => {
    const broad = await get(`/api/v1/prompts/${prompts.broad}?${RANGE}`)
    const now = count((item) => item.period === 'current' && item.prompt === 'broad')
    const before = count((item) => item.period === 'previous' && item.prompt === 'broad')
    const row = broad.brands.find((b: { name: string }) => b.name === 'Acme')
    expect(row.responses).toBe(now.responses)
    expect(row.visibility_ci).toEqual(pct(wilsonInterval(now.mentioning, now.responses)))
    const test = twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)!
    expect(row.visibility_change).toEqual({
      delta: Math.round((100 * now.mentioning) / now.responses - (100 * before.mentioning) / before.responses),
      p_value: sig4(test.pValue),
      significant: true,
    })

    // Globex is named in every third answer of each period: no real change.
    const globexNow = items.filter((item) => item.period === 'current' && item.prompt === 'broad' && item.content.includes('Globex')).length
    const globexBefore = items.filter((item) => item.period === 'previous' && item.prompt === 'broad' && item.content.includes('Globex')).length
    const globex = broad.brands.find((b: { name: string }) => b.name === 'Globex')
    const globexTest = twoProportionZTest(globexNow, now.responses, globexBefore, before.responses)!
    expect(globex.visibility_change).toMatchObject({ p_value: sig4(globexTest.pValue), significant: false })

    const niche = await get(`/api/v1/prompts/${prompts.niche}?${RANGE}`)
    const nicheRow = niche.brands.find((b: { name: string }) => b.name === 'Acme')
    expect(nicheRow.responses).toBe(10)
    expect(nicheRow.visibility_change.significant).toBeNull()
    expect(nicheRow.visibility_change.p_value).toBeGreaterThan(0)
  })
})
