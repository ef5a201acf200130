import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { DAY1, DAY2, EARLIER_DAY, mean, mentionSentiments, seedDashboardFixture, type DashboardFixture } from './fixtures/dashboard-fixture.js'

// The numbers below come from the table in fixtures/dashboard-fixture.ts.
const RANGE = `start_date=${DAY1}&end_date=${DAY2}`
const zero = { visibility_score: 0, sentiment_avg: 0, position_avg: 0, mention_count: 0 }
const close3 = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.0011)
const round3 = (value: number) => Math.round(value * 1000) / 1000

describe.each(testBackends)('GET /api/v1/dashboard (%s)', (backend) => {
  let ctx: TestContext
  let fx: DashboardFixture
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    fx = await seedDashboardFixture(ctx)
  })
  afterAll(() => ctx.close())

  const dashboard = async (query: string) => {
    const response = await ctx.get(`/api/v1/dashboard?${query}`, fx.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  /** brand name → metrics without sentiment (checked separately) */
  const withoutSentiment = (brands: Record<string, { sentiment_avg: number }>) =>
    Object.fromEntries(Object.entries(brands).map(([name, { sentiment_avg: _, ...rest }]) => [name, rest]))

  it('the fixture holds the mentions and citations its table describes', async () => {
    const db = ctx.database.db
    const mentions = await db
      .selectFrom('mention')
      .innerJoin('response', (join) => join.onRef('response.workspace_id', '=', 'mention.workspace_id').onRef('response.id', '=', 'mention.response_id'))
      .innerJoin('brand', (join) => join.onRef('brand.workspace_id', '=', 'mention.workspace_id').onRef('brand.id', '=', 'mention.brand_id'))
      .select(['response.external_id', 'brand.name', 'mention.position', 'mention.occurrences'])
      .where('mention.workspace_id', '=', fx.workspaceId)
      .orderBy('response.external_id')
      .orderBy('mention.position')
      .execute()
    expect(mentions.map((m) => `${m.external_id} ${m.name} ${m.position} ${m.occurrences}`)).toEqual([
      'r0 Acme 1 1',
      'r1 Acme 1 2',
      'r1 Globex 2 1',
      'r2 Globex 1 1',
      'r2 Acme 2 1',
      'r5 Globex 1 3',
      'r5 Acme 2 1',
      'r6 Acme 1 1',
      'r8 Acme 1 1',
    ])
    const citations = await db
      .selectFrom('citation')
      .innerJoin('response', (join) => join.onRef('response.workspace_id', '=', 'citation.workspace_id').onRef('response.id', '=', 'citation.response_id'))
      .select(['response.external_id', 'citation.domain'])
      .where('citation.workspace_id', '=', fx.workspaceId)
      .orderBy('response.external_id')
      .orderBy('citation.domain')
      .execute()
    expect(citations.map((c) => `${c.external_id} ${c.domain}`)).toEqual([
      'r0 ycombinator.com',
      'r1 g2.com',
      'r1 wikipedia.org',
      'r2 globex.com',
      'r3 reddit.com',
      'r5 acme.com',
      'r6 acme.com',
    ])
  })

  it('computes every active brand over both days, zeros for the unmentioned one, nothing for the inactive one', async () => {
    const body = await dashboard(RANGE)
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success'])
    expect(body.success).toBe(true)
    expect(body.message).toBe('Retrieved 3 brands')
    expect(Object.keys(body.data).sort()).toEqual(['brands', 'date_range', 'total_mentions', 'total_sources'])
    // Primary first, then by name.
    expect(Object.keys(body.data.brands)).toEqual(['Acme', 'Globex', 'Hooli'])
    // |R| = r1..r8 = 8 (r3 and r7 are empty but count).
    // Acme: r1 r2 r5 r6 r8 → 5/8 = 62.5 %; occurrences 2+1+1+1+1 = 6; positions (1+2+2+1+1)/5 = 1.4
    // Globex: r1 r2 r5 → 3/8 = 37.5 %; occurrences 1+1+3 = 5; positions (2+1+1)/3 = 1.333 → 1.33
    expect(withoutSentiment(body.data.brands)).toEqual({
      Acme: { visibility_score: 62.5, position_avg: 1.4, mention_count: 6 },
      Globex: { visibility_score: 37.5, position_avg: 1.33, mention_count: 5 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    expect(body.data.brands.Hooli).toEqual(zero)
    expect(body.data.total_mentions).toBe(11) // 6 + 5 + 0
    // g2.com, wikipedia.org, globex.com, reddit.com (cited by the empty r3), acme.com
    expect(body.data.total_sources).toBe(5)
    expect(body.data.date_range).toEqual({ start: DAY1, end: DAY2 })
  })

  it('averages the stored mention sentiments, and their sign follows the wording', async () => {
    const body = await dashboard(RANGE)
    const acme = await mentionSentiments(ctx, fx, fx.brands.acme, ['r1', 'r2', 'r5', 'r6', 'r8'])
    const globex = await mentionSentiments(ctx, fx, fx.brands.globex, ['r1', 'r2', 'r5'])
    close3(body.data.brands.Acme.sentiment_avg, round3(mean(acme)))
    close3(body.data.brands.Globex.sentiment_avg, round3(mean(globex)))
    expect(body.data.brands.Acme.sentiment_avg).not.toBe(0)
    // r1 alone praises Acme; r2 alone calls it terrible.
    const praised = await dashboard(`start_date=${DAY1}&end_date=${DAY1}&model_ids=gpt-4o`)
    const panned = await dashboard(`start_date=${DAY1}&end_date=${DAY1}&model_ids=claude-sonnet`)
    expect(praised.data.brands.Acme.sentiment_avg).toBeGreaterThan(0)
    expect(panned.data.brands.Acme.sentiment_avg).toBeLessThan(0)
    close3(panned.data.brands.Acme.sentiment_avg, round3((await mentionSentiments(ctx, fx, fx.brands.acme, ['r2']))[0]))
  })

  it('date filters are inclusive whole UTC days', async () => {
    // Day 1: r1 r2 r3 (23:30Z) r4 (23:59:59Z) → |R| = 4. Acme r1 r2 → 50 %, 2+1 = 3, (1+2)/2 = 1.5.
    // Globex r1 r2 → 50 %, 1+1 = 2, (2+1)/2 = 1.5. Sources g2, wikipedia, globex, reddit = 4.
    const day1 = await dashboard(`start_date=${DAY1}&end_date=${DAY1}`)
    expect(withoutSentiment(day1.data.brands)).toEqual({
      Acme: { visibility_score: 50, position_avg: 1.5, mention_count: 3 },
      Globex: { visibility_score: 50, position_avg: 1.5, mention_count: 2 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    expect(day1.data.total_mentions).toBe(5)
    expect(day1.data.total_sources).toBe(4)
    // Day 2: r5 (00:00:00Z) r6 r7 r8 → 4. Acme r5 r6 r8 → 75 %, 3, (2+1+1)/3 = 1.33.
    // Globex r5 → 25 %, 3, 1. Sources: acme.com only.
    const day2 = await dashboard(`start_date=${DAY2}&end_date=${DAY2}`)
    expect(withoutSentiment(day2.data.brands)).toEqual({
      Acme: { visibility_score: 75, position_avg: 1.33, mention_count: 3 },
      Globex: { visibility_score: 25, position_avg: 1, mention_count: 3 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    expect(day2.data.total_sources).toBe(1)
    // The day before: r0 only → Acme 100 %.
    const earlier = await dashboard(`start_date=${EARLIER_DAY}&end_date=${EARLIER_DAY}`)
    expect(earlier.data.brands.Acme).toMatchObject({ visibility_score: 100, mention_count: 1, position_avg: 1 })
    expect(earlier.data.total_sources).toBe(1)
  })

  it('defaults to the 30 days up to today', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const start = new Date(Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10)
    const body = await dashboard('')
    expect(body.data.date_range).toEqual({ start, end: today })
    // The fixture is from 2025: nothing in the window, every active brand still listed.
    expect(body.data.brands).toEqual({ Acme: zero, Globex: zero, Hooli: zero })
    expect(body.data.total_mentions).toBe(0)
    expect(body.data.total_sources).toBe(0)
    const onlyEnd = await dashboard(`end_date=${DAY2}`)
    expect(onlyEnd.data.date_range).toEqual({ start: '2025-01-31', end: DAY2 }) // 30 days before 2025-03-02
    expect(onlyEnd.data.total_mentions).toBe(12) // r0 included now: 11 + 1
  })

  it('models (providers) filter, OR within the filter', async () => {
    // openai: r1 r3 r5 r6 → 4. Acme r1 r5 r6 → 75 %, 2+1+1 = 4, (1+2+1)/3 = 1.33.
    // Globex r1 r5 → 50 %, 1+3 = 4, (2+1)/2 = 1.5.
    const openai = await dashboard(`${RANGE}&models=openai`)
    expect(withoutSentiment(openai.data.brands)).toEqual({
      Acme: { visibility_score: 75, position_avg: 1.33, mention_count: 4 },
      Globex: { visibility_score: 50, position_avg: 1.5, mention_count: 4 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    // g2, wikipedia, reddit, acme.com
    expect(openai.data.total_sources).toBe(4)
    // anthropic: r2 r4 r7 r8 → 4. Acme r2 r8 → 50 %, 2, (2+1)/2 = 1.5. Globex r2 → 25 %, 1, 1.
    const anthropic = await dashboard(`${RANGE}&models=anthropic`)
    expect(withoutSentiment(anthropic.data.brands)).toEqual({
      Acme: { visibility_score: 50, position_avg: 1.5, mention_count: 2 },
      Globex: { visibility_score: 25, position_avg: 1, mention_count: 1 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    const both = await dashboard(`${RANGE}&models=openai,anthropic`)
    const all = await dashboard(RANGE)
    expect(both.data).toEqual(all.data)
    // A provider with no responses: everything zero, but still 200 with every brand.
    const google = await dashboard(`${RANGE}&models[]=google`)
    expect(google.data.brands).toEqual({ Acme: zero, Globex: zero, Hooli: zero })
  })

  it('model_ids filter, OR within, and unknown ids are a 400', async () => {
    // gpt-4o: r1 r5 r6 → 3. Acme 3/3 → 100 %, 2+1+1 = 4, (1+2+1)/3 = 1.33.
    // Globex r1 r5 → 66.67 %, 1+3 = 4, (2+1)/2 = 1.5.
    const gpt = await dashboard(`${RANGE}&model_ids=gpt-4o`)
    expect(withoutSentiment(gpt.data.brands)).toMatchObject({
      Acme: { visibility_score: 100, position_avg: 1.33, mention_count: 4 },
      Globex: { visibility_score: 66.67, position_avg: 1.5, mention_count: 4 },
    })
    // gpt-4o-mini or claude-sonnet: r2 r3 r4 r7 r8 → 5. Acme r2 r8 → 40 %, 2, 1.5. Globex r2 → 20 %, 1, 1.
    const others = await dashboard(`${RANGE}&model_ids=gpt-4o-mini&model_ids=claude-sonnet`)
    expect(withoutSentiment(others.data.brands)).toMatchObject({
      Acme: { visibility_score: 40, position_avg: 1.5, mention_count: 2 },
      Globex: { visibility_score: 20, position_avg: 1, mention_count: 1 },
    })
    expect(others.data.total_sources).toBe(2) // globex.com (r2), reddit.com (r3)

    const unknown = await ctx.get(`/api/v1/dashboard?${RANGE}&model_ids=gpt-4o,gpt-9`, fx.key)
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().error).toMatchObject({ code: 'invalid_parameter', param: 'model_ids' })
    expect(unknown.json().error.message).toContain('gpt-9')
  })

  it('tags filter, OR within, unknown tags match nothing', async () => {
    // pm: r3 r4 r6 r7 → 4. Acme r6 → 25 %, 1, 1. Globex none. Sources reddit.com, acme.com.
    const pm = await dashboard(`${RANGE}&tags=pm`)
    expect(withoutSentiment(pm.data.brands)).toEqual({
      Acme: { visibility_score: 25, position_avg: 1, mention_count: 1 },
      Globex: { visibility_score: 0, position_avg: 0, mention_count: 0 },
      Hooli: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    expect(pm.data.brands.Globex.sentiment_avg).toBe(0)
    expect(pm.data.total_sources).toBe(2)
    // crm (the CRM prompt's first tag) and startup (its second) select the same r1 r2 r5 r8 → 4.
    // Acme 4/4 → 100 %, 2+1+1+1 = 5, (1+2+2+1)/4 = 1.5. Globex r1 r2 r5 → 75 %, 5, 1.33.
    for (const tag of ['crm', 'startup']) {
      const crm = await dashboard(`${RANGE}&tags=${tag}`)
      expect(withoutSentiment(crm.data.brands)).toMatchObject({
        Acme: { visibility_score: 100, position_avg: 1.5, mention_count: 5 },
        Globex: { visibility_score: 75, position_avg: 1.33, mention_count: 5 },
      })
    }
    expect((await dashboard(`${RANGE}&tags=crm,pm`)).data).toEqual((await dashboard(RANGE)).data)
    const none = await dashboard(`${RANGE}&tags=no-such-tag`)
    expect(none.data).toMatchObject({ brands: { Acme: zero, Globex: zero, Hooli: zero }, total_mentions: 0, total_sources: 0 })
  })

  it('different filters are AND-ed', async () => {
    // openai AND pm: r3 r6 → 2. Acme r6 → 50 %.
    const body = await dashboard(`${RANGE}&models=openai&tags=pm`)
    expect(withoutSentiment(body.data.brands)).toMatchObject({
      Acme: { visibility_score: 50, position_avg: 1, mention_count: 1 },
      Globex: { visibility_score: 0, position_avg: 0, mention_count: 0 },
    })
    // openai AND gpt-4o AND crm AND day 2: r5 only. Acme 100 %, position 2; Globex 100 %, 3 occurrences.
    const narrow = await dashboard(`start_date=${DAY2}&end_date=${DAY2}&models=openai&model_ids=gpt-4o&tags=crm`)
    expect(withoutSentiment(narrow.data.brands)).toMatchObject({
      Acme: { visibility_score: 100, position_avg: 2, mention_count: 1 },
      Globex: { visibility_score: 100, position_avg: 1, mention_count: 3 },
    })
    // A model of another provider: nothing can match both.
    const empty = await dashboard(`${RANGE}&models=anthropic&model_ids=gpt-4o`)
    expect(empty.data).toMatchObject({ brands: { Acme: zero, Globex: zero, Hooli: zero }, total_mentions: 0, total_sources: 0 })
  })

  it('rejects bad parameters with 400', async () => {
    const cases: [string, string, string][] = [
      [`start_date=${DAY2}&end_date=${DAY1}`, 'invalid_parameter', 'start_date'],
      ['start_date=2025-02-30', 'invalid_parameter', 'start_date'],
      ['end_date=yesterday', 'invalid_parameter', 'end_date'],
      ['models=chatgpt', 'invalid_parameter', 'models'],
      ['brand_id=x', 'unknown_parameter', 'brand_id'],
    ]
    for (const [query, code, param] of cases) {
      const response = await ctx.get(`/api/v1/dashboard?${query}`, fx.key)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error, query).toMatchObject({ code, param })
    }
  })

  it("sees only the key's own workspace", async () => {
    const other = await ctx.tenant()
    const body = (await ctx.get(`/api/v1/dashboard?${RANGE}`, other.key)).json()
    expect(body).toEqual({
      success: true,
      data: { brands: {}, total_mentions: 0, total_sources: 0, date_range: { start: DAY1, end: DAY2 } },
      message: 'Retrieved 0 brands',
    })
    // Its model ids are not ours either.
    expect((await ctx.get(`/api/v1/dashboard?model_ids=gpt-4o`, other.key)).statusCode).toBe(400)
  })

  it('needs read:analytics', async () => {
    const writer = await ctx.tenant({ scopes: ['write:data'] })
    const response = await ctx.get('/api/v1/dashboard', writer.key)
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('insufficient_scope')
  })
})
