// /dashboard with include_uncertainty=true (docs/uncertainty-and-discovery.md): each brand of
// the table gets its Wilson interval, sample size and the tested change against the
// previous period; without the flag the answer is exactly the spec's. Expected counts come
// from the answers this file writes, not from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { twoProportionZTest, wilsonInterval } from '../../src/analysis/statistics.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

const RANGE = 'start_date=2025-06-01&end_date=2025-06-10'
const PREVIOUS_DAY = '2025-05-25'

interface Item {
  tag: 'broad' | 'niche'
  current: boolean
  content: string
}

// broad: 40 answers per period, Acme in 28 now and 12 before; Globex in every third both times.
// niche: 10 now (Acme in 5), 8 before (Acme in 2): too few to call.
function corpus(): Item[] {
  const items: Item[] = []
  const add = (tag: Item['tag'], current: boolean, total: number, acme: number) => {
    for (let i = 0; i < total; i++) {
      const names = [i < acme ? 'Acme' : null, i % 3 === 0 ? 'Globex' : null].filter(Boolean)
      items.push({ tag, current, content: names.length ? `Consider ${names.join(' and ')} for this.` : 'It depends on your needs.' })
    }
  }
  add('broad', true, 40, 28)
  add('broad', false, 40, 12)
  add('niche', true, 10, 5)
  add('niche', false, 8, 2)
  return items
}

const pct = (interval: { low: number; high: number } | null) => interval && { low: Math.round(interval.low * 10_000) / 100, high: Math.round(interval.high * 10_000) / 100 }
const sig4 = (p: number) => Number(p.toPrecision(4))

describe.each(testBackends)('/dashboard include_uncertainty (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  const items = corpus()
  const count = (brand: string, filter: (item: Item) => boolean) => {
    const chosen = items.filter(filter)
    return { responses: chosen.length, mentioning: chosen.filter((item) => item.content.includes(brand)).length }
  }

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    ;({ key } = await ctx.tenant())
    await createBrand(ctx, key, { name: 'Acme', domain: 'acme.example', is_primary: true })
    await createBrand(ctx, key, { name: 'Globex' })
    const prompts = { broad: await createPrompt(ctx, key, 'Best CRM?', ['broad']), niche: await createPrompt(ctx, key, 'Best CRM for dentists?', ['niche']) }
    await ingest(
      ctx,
      key,
      items.map((item, i) => ({
        prompt_id: prompts[item.tag],
        provider: i % 2 ? 'openai' : 'anthropic',
        model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
        content: item.content,
        created_at: `${item.current ? `2025-06-0${1 + (i % 9)}` : PREVIOUS_DAY}T10:00:00Z`,
      })),
    )
  })
  afterAll(() => ctx.close())

  const get = async (query: string) => {
    const response = await ctx.get(`/api/v1/dashboard?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  it('without the flag (or with false) the brand table has exactly the spec fields', async () => {
    for (const query of [RANGE, `${RANGE}&include_uncertainty=false`]) {
      const body = await get(query)
      for (const metrics of Object.values(body.data.brands))
        expect(Object.keys(metrics as object).sort()).toEqual(['mention_count', 'position_avg', 'sentiment_avg', 'visibility_score'])
    }
    const plain = await get(RANGE)
    const extended = await get(`${RANGE}&include_uncertainty=true`)
    // The spec's fields are the same numbers either way.
    for (const [name, metrics] of Object.entries(plain.data.brands)) expect(extended.data.brands[name]).toMatchObject(metrics as object)
    expect({ ...extended.data, brands: undefined }).toEqual({ ...plain.data, brands: undefined })
  })

  it('each brand carries its interval, sample size and tested change (significant for Acme, not for Globex)', async () => {
    const { data } = await get(`${RANGE}&include_uncertainty=true`)
    for (const brand of ['Acme', 'Globex']) {
      const now = count(brand, (item) => item.current)
      const before = count(brand, (item) => !item.current)
      const metrics = data.brands[brand]
      expect(metrics.responses).toBe(now.responses)
      expect(metrics.visibility_ci).toEqual(pct(wilsonInterval(now.mentioning, now.responses)))
      expect(metrics.visibility_ci.low).toBeLessThanOrEqual(metrics.visibility_score)
      expect(metrics.visibility_ci.high).toBeGreaterThanOrEqual(metrics.visibility_score)
      const previousScore = Math.round((10_000 * before.mentioning) / before.responses) / 100
      const test = twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)!
      expect(metrics.visibility_test).toEqual({
        delta: Math.round((metrics.visibility_score - previousScore) * 100) / 100,
        p_value: sig4(test.pValue),
        significant: test.pValue < 0.05,
      })
    }
    expect(data.brands.Acme.visibility_test.significant).toBe(true)
    expect(data.brands.Globex.visibility_test.significant).toBe(false)
  })

  it('follows the filters: with fewer than 30 responses on a side significant is null; an empty previous period has no p-value', async () => {
    const niche = (await get(`${RANGE}&tags=niche&include_uncertainty=true`)).data.brands.Acme
    const now = count('Acme', (item) => item.current && item.tag === 'niche')
    const before = count('Acme', (item) => !item.current && item.tag === 'niche')
    expect(niche.responses).toBe(10)
    expect(niche.visibility_test).toMatchObject({
      p_value: sig4(twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)!.pValue),
      significant: null,
    })
    // 2025-05-16..2025-05-24 and the nine days before it hold no answers at all.
    const empty = (await get('start_date=2025-05-16&end_date=2025-05-24&include_uncertainty=true')).data.brands.Acme
    expect(empty).toMatchObject({ responses: 0, visibility_ci: null, visibility_test: { delta: 0, p_value: null, significant: null } })
  })
})
