import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand } from '../helpers/requests.js'
import { DAY1, DAY2, EARLIER_DAY, mean, mentionSentiments, seedDashboardFixture, type DashboardFixture } from './fixtures/dashboard-fixture.js'

// The numbers below come from the table in fixtures/dashboard-fixture.ts.
const RANGE = `start_date=${DAY1}&end_date=${DAY2}`
const PAGINATION_KEYS = ['has_next', 'has_prev', 'page', 'per_page', 'total_items', 'total_pages']
const close3 = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.0011)
const round3 = (value: number) => Math.round(value * 1000) / 1000

describe.each(testBackends)('GET /api/v1/brands (%s)', (backend) => {
  let ctx: TestContext
  let fx: DashboardFixture
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    fx = await seedDashboardFixture(ctx)
  })
  afterAll(() => ctx.close())

  const list = async (query = '') => {
    const response = await ctx.get(`/api/v1/brands${query ? `?${query}` : ''}`, fx.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const names = (body: { data: { competitors: { name: string }[] } }) => body.data.competitors.map((b) => b.name)

  it('lists the active brands, primary first then by name, as spec records', async () => {
    const body = await list()
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success'])
    expect(body.message).toBe('Retrieved 3 brands')
    expect(Object.keys(body.data).sort()).toEqual(['competitors', 'pagination'])
    expect(body.data.competitors).toEqual([
      { id: fx.brands.acme, name: 'Acme', domain: 'acme.com', icon_url: 'https://acme.com/icon.png', is_primary: true, is_active: true },
      { id: fx.brands.globex, name: 'Globex', domain: 'globex.com', icon_url: '', is_primary: false, is_active: true },
      { id: fx.brands.hooli, name: 'Hooli', domain: '', icon_url: '', is_primary: false, is_active: true },
    ])
    expect(Object.keys(body.data.pagination).sort()).toEqual(PAGINATION_KEYS)
    expect(body.data.pagination).toEqual({ page: 1, per_page: 50, total_items: 3, total_pages: 1, has_next: false, has_prev: false })
  })

  it('pages one brand at a time, and past the end gives an empty page with the totals', async () => {
    const pages = []
    for (const page of [1, 2, 3, 4]) pages.push(await list(`per_page=1&page=${page}`))
    expect(pages.map(names)).toEqual([['Acme'], ['Globex'], ['Hooli'], []])
    expect(pages.map((p) => [p.data.pagination.has_prev, p.data.pagination.has_next])).toEqual([
      [false, true],
      [true, true],
      [true, false],
      [true, false],
    ])
    for (const [index, p] of pages.entries()) {
      expect(p.data.pagination).toMatchObject({ page: index + 1, per_page: 1, total_items: 3, total_pages: 3 })
    }
    expect(pages[1].message).toBe('Retrieved 1 of 3 brands')
    expect(pages[3].message).toBe('Retrieved 0 of 3 brands')
    const two = await list('per_page=2&page=2')
    expect(names(two)).toEqual(['Hooli'])
    expect(two.data.pagination).toEqual({ page: 2, per_page: 2, total_items: 3, total_pages: 2, has_next: false, has_prev: true })
    const max = await list('per_page=100')
    expect(names(max)).toEqual(['Acme', 'Globex', 'Hooli'])
    expect(max.data.pagination.per_page).toBe(100)
  })

  it('rejects out-of-range paging and unknown values with 400', async () => {
    const cases: [string, string, string][] = [
      ['per_page=101', 'invalid_parameter', 'per_page'],
      ['per_page=0', 'invalid_parameter', 'per_page'],
      ['page=0', 'invalid_parameter', 'page'],
      ['page=abc', 'invalid_parameter', 'page'],
      ['discovery_status=maybe', 'invalid_parameter', 'discovery_status'],
      ['is_active=yes', 'invalid_parameter', 'is_active'],
      ['start_date=2025-01-01', 'unknown_parameter', 'start_date'],
    ]
    for (const [query, code, param] of cases) {
      const response = await ctx.get(`/api/v1/brands?${query}`, fx.key)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error, query).toMatchObject({ code, param })
    }
  })

  it('filters by discovery_status and is_active', async () => {
    expect(names(await list('discovery_status=suggested'))).toEqual(['Globex'])
    expect(names(await list('discovery_status=confirmed'))).toEqual(['Acme', 'Hooli'])
    // Initech is the rejected one, but it is inactive and is_active defaults to true.
    const rejected = await list('discovery_status=rejected')
    expect(names(rejected)).toEqual([])
    expect(rejected.data.pagination).toMatchObject({ total_items: 0, total_pages: 0, has_next: false, has_prev: false })
    const inactive = await list('is_active=false')
    expect(inactive.data.competitors).toEqual([{ id: fx.brands.initech, name: 'Initech', domain: '', icon_url: '', is_primary: false, is_active: false }])
    expect(names(await list('is_active=0&discovery_status=rejected'))).toEqual(['Initech'])
    expect(names(await list('is_active=1&discovery_status=confirmed&per_page=1&page=2'))).toEqual(['Hooli'])
  })

  it("lists only the key's own workspace", async () => {
    const other = await ctx.tenant()
    await createBrand(ctx, other.key, { name: 'Zeta' })
    const body = (await ctx.get('/api/v1/brands', other.key)).json()
    expect(body.data.competitors.map((b: { name: string }) => b.name)).toEqual(['Zeta'])
    expect(body.message).toBe('Retrieved 1 brand')
  })
})

describe.each(testBackends)('GET /api/v1/brands/{brand_id} (%s)', (backend) => {
  let ctx: TestContext
  let fx: DashboardFixture
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    fx = await seedDashboardFixture(ctx)
  })
  afterAll(() => ctx.close())

  const detail = async (brandId: string, query = '') => {
    const response = await ctx.get(`/api/v1/brands/${brandId}${query ? `?${query}` : ''}`, fx.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  // The §17 uncertainty fields have their own suite (test/analytics/uncertainty.test.ts).
  const dropSentiment = <T extends { sentiment_avg: number }>({
    sentiment_avg: _,
    visibility_ci: _ci,
    responses: _n,
    visibility_test: _test,
    ...rest
  }: T & Record<string, unknown>) => rest

  it('gives the period metrics, the previous period and the change, without a message', async () => {
    const body = await detail(fx.brands.acme, RANGE)
    expect(Object.keys(body).sort()).toEqual(['data', 'success'])
    const data = body.data
    expect(Object.keys(data).sort()).toEqual(['aliases', 'brand', 'by_provider', 'change', 'daily_trend', 'metrics', 'period', 'previous_period', 'top_prompts', 'top_sources'])
    expect(data.brand).toEqual({ id: fx.brands.acme, name: 'Acme', domain: 'acme.com', icon_url: 'https://acme.com/icon.png', is_primary: true, is_active: true })
    expect(data.period).toEqual({ start: DAY1, end: DAY2 })
    // R = r1..r8. Acme in r1 r2 r5 r6 r8: 5/8 = 62.5 %; occurrences 2+1+1+1+1 = 6;
    // positions (1+2+2+1+1)/5 = 1.4; share of voice 6 / (6 Acme + 5 Globex) = 54.545 → 54.55.
    expect(dropSentiment(data.metrics)).toEqual({
      visibility_score: 62.5,
      mention_count: 6,
      position_avg: 1.4,
      share_of_voice: 54.55,
      response_count: 8,
      responses_mentioning: 5,
    })
    // Two days before DAY1: 2025-02-27..2025-02-28, which holds r0 only (Acme, 1 occurrence, first).
    expect(data.previous_period.start).toBe('2025-02-27')
    expect(data.previous_period.end).toBe(EARLIER_DAY)
    expect(dropSentiment(data.previous_period.metrics)).toEqual({
      visibility_score: 100,
      mention_count: 1,
      position_avg: 1,
      share_of_voice: 100,
      response_count: 1,
      responses_mentioning: 1,
    })
    const current = round3(mean(await mentionSentiments(ctx, fx, fx.brands.acme, ['r1', 'r2', 'r5', 'r6', 'r8'])))
    const previous = round3(mean(await mentionSentiments(ctx, fx, fx.brands.acme, ['r0'])))
    close3(data.metrics.sentiment_avg, current)
    close3(data.previous_period.metrics.sentiment_avg, previous)
    expect(data.previous_period.metrics.sentiment_avg).toBeGreaterThan(0) // "Acme is good."
    // change = current − previous: 62.5 − 100, 6 − 1, 1.4 − 1, 54.55 − 100
    expect(dropSentiment(data.change)).toEqual({ visibility_score: -37.5, mention_count: 5, position_avg: 0.4, share_of_voice: -45.45 })
    close3(data.change.sentiment_avg, data.metrics.sentiment_avg - data.previous_period.metrics.sentiment_avg)
  })

  it('splits by every provider and trends every day', async () => {
    const data = (await detail(fx.brands.acme, RANGE)).data
    // anthropic: r2 r4 r7 r8 → Acme r2 r8 = 50 %, 1+1 = 2, (2+1)/2 = 1.5
    // openai: r1 r3 r5 r6 → Acme r1 r5 r6 = 75 %, 2+1+1 = 4, (1+2+1)/3 = 1.33
    expect(data.by_provider.map(dropSentiment)).toEqual([
      { provider: 'anthropic', visibility_score: 50, mention_count: 2, position_avg: 1.5, response_count: 4 },
      { provider: 'google', visibility_score: 0, mention_count: 0, position_avg: 0, response_count: 0 },
      { provider: 'openai', visibility_score: 75, mention_count: 4, position_avg: 1.33, response_count: 4 },
      { provider: 'perplexity', visibility_score: 0, mention_count: 0, position_avg: 0, response_count: 0 },
    ])
    expect(data.by_provider[1].sentiment_avg).toBe(0)
    const anthropic = round3(mean(await mentionSentiments(ctx, fx, fx.brands.acme, ['r2', 'r8'])))
    close3(data.by_provider[0].sentiment_avg, anthropic)
    // Day 1: r1 r2 r3 r4 → Acme r1 r2 = 50 %, 2+1 = 3. Day 2: r5 r6 r7 r8 → r5 r6 r8 = 75 %, 3.
    expect(data.daily_trend).toEqual([
      { date: DAY1, visibility_score: 50, mention_count: 3 },
      { date: DAY2, visibility_score: 75, mention_count: 3 },
    ])
    // A longer range is zero-filled, including days with no responses at all.
    const wide = (await detail(fx.brands.acme, `start_date=${EARLIER_DAY}&end_date=2025-03-04`)).data
    expect(wide.daily_trend).toEqual([
      { date: EARLIER_DAY, visibility_score: 100, mention_count: 1 },
      { date: DAY1, visibility_score: 50, mention_count: 3 },
      { date: DAY2, visibility_score: 75, mention_count: 3 },
      { date: '2025-03-03', visibility_score: 0, mention_count: 0 },
      { date: '2025-03-04', visibility_score: 0, mention_count: 0 },
    ])
  })

  it('lists top prompts and the sources cited where the brand is mentioned', async () => {
    const data = (await detail(fx.brands.acme, RANGE)).data
    // CRM: r1 r2 r5 r8, all mention Acme → 100 %, 2+1+1+1 = 5. PM: r3 r4 r6 r7, Acme in r6 → 25 %, 1.
    expect(data.top_prompts).toEqual([
      { prompt_id: fx.prompts.crm, text: 'Best CRM for startups?', visibility_score: 100, visibility_ci: { low: 51.01, high: 100 }, mention_count: 5, response_count: 4 },
      { prompt_id: fx.prompts.pm, text: 'Top project tools for agencies?', visibility_score: 25, visibility_ci: { low: 4.56, high: 69.94 }, mention_count: 1, response_count: 4 },
    ])
    // Responses mentioning Acme: r1 (g2, wikipedia), r2 (globex.com), r5 (acme.com), r6 (acme.com).
    // reddit.com (r3) and ycombinator.com (r0, out of range) are not counted.
    expect(data.top_sources).toEqual([
      { domain: 'acme.com', citation_count: 2 },
      { domain: 'g2.com', citation_count: 1 },
      { domain: 'globex.com', citation_count: 1 },
      { domain: 'wikipedia.org', citation_count: 1 },
    ])
    // Globex: r1 r2 r5. Its prompts: CRM 3/4 = 75 %, 1+1+3 = 5; PM 0/4.
    const globex = (await detail(fx.brands.globex, RANGE)).data
    expect(globex.top_prompts.map((p: { visibility_score: number; mention_count: number }) => [p.visibility_score, p.mention_count])).toEqual([
      [75, 5],
      [0, 0],
    ])
    expect(globex.top_sources).toEqual([
      { domain: 'acme.com', citation_count: 1 },
      { domain: 'g2.com', citation_count: 1 },
      { domain: 'globex.com', citation_count: 1 },
      { domain: 'wikipedia.org', citation_count: 1 },
    ])
  })

  it('a one-day period is compared with the day before', async () => {
    // Globex on day 2: r5..r8 → r5 = 25 %, 3 occurrences, position 1, voice 3 / (3 Acme + 3) = 50 %.
    // Day 1: r1..r4 → r1 r2 = 50 %, 2, (2+1)/2 = 1.5, voice 2 / (3 Acme + 2) = 40 %.
    const data = (await detail(fx.brands.globex, `start_date=${DAY2}&end_date=${DAY2}`)).data
    expect(data.period).toEqual({ start: DAY2, end: DAY2 })
    expect({ start: data.previous_period.start, end: data.previous_period.end }).toEqual({ start: DAY1, end: DAY1 })
    expect(dropSentiment(data.metrics)).toEqual({ visibility_score: 25, mention_count: 3, position_avg: 1, share_of_voice: 50, response_count: 4, responses_mentioning: 1 })
    expect(dropSentiment(data.previous_period.metrics)).toEqual({
      visibility_score: 50,
      mention_count: 2,
      position_avg: 1.5,
      share_of_voice: 40,
      response_count: 4,
      responses_mentioning: 2,
    })
    expect(dropSentiment(data.change)).toEqual({ visibility_score: -25, mention_count: 1, position_avg: -0.5, share_of_voice: 10 })
  })

  it('applies the filters to both periods', async () => {
    // openai only. Current r1 r3 r5 r6: Acme 75 %, 4 occurrences; all brands 4 + Globex 4 → voice 50 %.
    // Previous r0 (openai): 100 %, 1, voice 100 %.
    const openai = (await detail(fx.brands.acme, `${RANGE}&models=openai`)).data
    expect(openai.metrics).toMatchObject({ visibility_score: 75, mention_count: 4, share_of_voice: 50, response_count: 4, responses_mentioning: 3 })
    expect(openai.previous_period.metrics).toMatchObject({ visibility_score: 100, mention_count: 1, response_count: 1 })
    // anthropic only: nothing in the previous period (r0 is openai) → zeros there.
    const anthropic = (await detail(fx.brands.acme, `${RANGE}&models=anthropic`)).data
    expect(anthropic.previous_period.metrics).toEqual({
      visibility_score: 0,
      mention_count: 0,
      sentiment_avg: 0,
      position_avg: 0,
      share_of_voice: 0,
      response_count: 0,
      responses_mentioning: 0,
      visibility_ci: null,
      responses: 0,
    })
    // r2 r4 r7 r8: Acme r2 r8 = 50 %, 2 occurrences, voice 2 / (2 + Globex 1) = 66.67 %
    expect(anthropic.metrics).toMatchObject({ visibility_score: 50, mention_count: 2, share_of_voice: 66.67 })
    expect(anthropic.change).toMatchObject({ visibility_score: 50, mention_count: 2, share_of_voice: 66.67 })
    expect(anthropic.by_provider.map((p: { response_count: number }) => p.response_count)).toEqual([4, 0, 0, 0])
    // tags=pm AND model_ids=gpt-4o: r6 only → 100 %, top prompt PM, source acme.com.
    const narrow = (await detail(fx.brands.acme, `${RANGE}&tags=pm&model_ids=gpt-4o`)).data
    expect(narrow.metrics).toMatchObject({ visibility_score: 100, mention_count: 1, response_count: 1 })
    expect(narrow.top_prompts.map((p: { prompt_id: string }) => p.prompt_id)).toEqual([fx.prompts.pm])
    expect(narrow.top_sources).toEqual([{ domain: 'acme.com', citation_count: 1 }])
    // An unknown tag: nothing anywhere, still 200.
    const none = (await detail(fx.brands.acme, `${RANGE}&tags=nope`)).data
    expect(none.metrics.response_count).toBe(0)
    expect(none.top_prompts).toEqual([])
    expect(none.top_sources).toEqual([])
    expect(none.daily_trend).toEqual([
      { date: DAY1, visibility_score: 0, mention_count: 0 },
      { date: DAY2, visibility_score: 0, mention_count: 0 },
    ])
  })

  it('a brand never mentioned gets zeros, and its prompts still show', async () => {
    const data = (await detail(fx.brands.hooli, RANGE)).data
    expect(data.brand).toEqual({ id: fx.brands.hooli, name: 'Hooli', domain: '', icon_url: '', is_primary: false, is_active: true })
    expect(data.metrics).toEqual({
      visibility_score: 0,
      mention_count: 0,
      sentiment_avg: 0,
      position_avg: 0,
      share_of_voice: 0,
      response_count: 8,
      responses_mentioning: 0,
      visibility_ci: { low: 0, high: 32.44 },
      responses: 8,
    })
    expect(data.top_prompts.map((p: { visibility_score: number; response_count: number }) => [p.visibility_score, p.response_count])).toEqual([
      [0, 4],
      [0, 4],
    ])
    expect(data.top_sources).toEqual([])
    // The inactive brand is viewable too; it is never matched, so it has no mentions.
    const initech = (await detail(fx.brands.initech, RANGE)).data
    expect(initech.brand.is_active).toBe(false)
    expect(initech.metrics).toMatchObject({ mention_count: 0, response_count: 8 })
  })

  it('404 for an unknown id or another workspace’s brand, 400 for a malformed one', async () => {
    const other = await ctx.tenant()
    const foreign = await createBrand(ctx, other.key, { name: 'Foreign' })
    for (const id of [foreign, '01890000-0000-7000-8000-000000000000']) {
      const response = await ctx.get(`/api/v1/brands/${id}`, fx.key)
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    // The owner sees it.
    expect((await ctx.get(`/api/v1/brands/${foreign}`, other.key)).statusCode).toBe(200)
    const malformed = await ctx.get('/api/v1/brands/not-a-uuid', fx.key)
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'brand_id' })
  })

  it('rejects bad query parameters with 400', async () => {
    const cases: [string, string, string][] = [
      [`start_date=${DAY2}&end_date=${DAY1}`, 'invalid_parameter', 'start_date'],
      ['model_ids=gpt-9', 'invalid_parameter', 'model_ids'],
      ['models=bing', 'invalid_parameter', 'models'],
      ['page=1', 'unknown_parameter', 'page'],
    ]
    for (const [query, code, param] of cases) {
      const response = await ctx.get(`/api/v1/brands/${fx.brands.acme}?${query}`, fx.key)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error, query).toMatchObject({ code, param })
    }
  })
})
