import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, post } from '../helpers/requests.js'

// Fixture (workspace A). Brands: Acme (primary), Globex, Initech, Umbrella (never seen),
// Oldco (inactive). Prompts: A1 tags [crm], A2 tags [erp], A3 no tags.
// Observations (position = order of first appearance in the overview):
//   o1 A1 08-01 10:00      AIO "Acme and Globex are top picks."  Acme 1, Globex 2
//   o2 A1 08-01 11:00      no AIO
//   o3 A2 08-01 12:00      AIO "Globex leads; Acme follows."     Globex 1, Acme 2
//   o4 A2 08-02 09:00      AIO "Initech is the only option."     Initech 1
//   (no observation on 08-03)
//   o5 A1 08-04 08:00      no AIO
//   o6 A3 08-04 09:00      AIO "Nothing to see here."            none
//   o7 A1 08-04 23:59:59   AIO "Acme, Globex and Initech."       Acme 1, Globex 2, Initech 3
//   o8 A1 07-31 23:59:59   AIO "Acme again." (one second before August)
const AUGUST = 'start_date=2025-08-01&end_date=2025-08-10'

describe.each(testBackends)('AIO metrics (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  const brand: Record<string, string> = {}
  const prompt: Record<string, string> = {}
  let foreignBrand: string
  let foreignPrompt: string

  const observe = async (key: string, observations: unknown[]) => {
    const response = await post(ctx, '/api/v1/ingest/aio', key, { observations })
    expect(response.statusCode, response.body).toBe(200)
  }

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant()
    b = await ctx.tenant()
    brand.acme = await createBrand(ctx, a.key, { name: 'Acme', is_primary: true })
    brand.globex = await createBrand(ctx, a.key, { name: 'Globex' })
    brand.initech = await createBrand(ctx, a.key, { name: 'Initech' })
    brand.umbrella = await createBrand(ctx, a.key, { name: 'Umbrella' })
    brand.oldco = await createBrand(ctx, a.key, { name: 'Oldco', is_active: false })
    prompt.a1 = await createPrompt(ctx, a.key, 'best crm', ['crm'])
    prompt.a2 = await createPrompt(ctx, a.key, 'best erp', ['erp'])
    prompt.a3 = await createPrompt(ctx, a.key, 'best anything')
    const o = (p: string, observed_at: string, overview_text?: string) => ({
      prompt_id: prompt[p],
      observed_at,
      has_aio: overview_text !== undefined,
      ...(overview_text !== undefined ? { overview_text } : {}),
    })
    await observe(a.key, [
      o('a1', '2025-08-01T10:00:00Z', 'Acme and Globex are top picks.'),
      o('a1', '2025-08-01T11:00:00Z'),
      o('a2', '2025-08-01T12:00:00Z', 'Globex leads; Acme follows.'),
      o('a2', '2025-08-02T09:00:00Z', 'Initech is the only option.'),
      o('a1', '2025-08-04T08:00:00Z'),
      o('a3', '2025-08-04T09:00:00Z', 'Nothing to see here.'),
      o('a1', '2025-08-04T23:59:59Z', 'Acme, Globex and Initech.'),
      o('a1', '2025-07-31T23:59:59Z', 'Acme again.'),
    ])

    // Workspace B: observations on the same days that must never count for A.
    foreignBrand = await createBrand(ctx, b.key, { name: 'Acme', is_primary: true })
    foreignPrompt = await createPrompt(ctx, b.key, 'best crm', ['crm'])
    await observe(b.key, [
      { prompt_id: foreignPrompt, observed_at: '2025-08-01T10:00:00Z', has_aio: true, overview_text: 'Acme.' },
      { prompt_id: foreignPrompt, observed_at: '2025-08-03T10:00:00Z', has_aio: false },
    ])
  })
  afterAll(() => ctx.close())

  const metrics = async (query: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/aio-metrics?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  describe('GET /api/v1/aio-metrics', () => {
    it('measures coverage, brand appearances and a trend of the days with observations', async () => {
      const body = await metrics(AUGUST)
      expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success'])
      expect(body.message).toBe('AIO coverage over 7 queries')
      // o1..o7 = 7 queries; AIO on o1, o3, o4, o6, o7 = 5 → 5/7 = 0.7143.
      // Acme o1(1), o3(2), o7(1): 3 → 3/5 = 0.6, position 4/3 = 1.33.
      // Globex o1(2), o3(1), o7(2): 3 → 0.6, position 5/3 = 1.67.
      // Initech o4(1), o7(3): 2 → 0.4, position 2. Umbrella: zeros. Oldco inactive: absent.
      expect(body.data).toEqual({
        coverage_rate: 0.7143,
        total_queries: 7,
        queries_with_aio: 5,
        brand_coverage: {
          Acme: { appearance_rate: 0.6, avg_position: 1.33, total_appearances: 3 },
          Globex: { appearance_rate: 0.6, avg_position: 1.67, total_appearances: 3 },
          Initech: { appearance_rate: 0.4, avg_position: 2, total_appearances: 2 },
          Umbrella: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
        },
        // 08-01: 2 of 3 = 0.6667; 08-02: 1 of 1; 08-03: no observations, left out; 08-04: 2 of 3 (o7 at 23:59:59 counts).
        trend: [
          { date: '2025-08-01', coverage_rate: 0.6667 },
          { date: '2025-08-02', coverage_rate: 1 },
          { date: '2025-08-04', coverage_rate: 0.6667 },
        ],
      })
    })

    it('adds Wilson 95% intervals only when include_uncertainty=true (the spec fields stay exact otherwise)', async () => {
      // Reference values from the Wilson score formula (Wilson 1927; Newcombe 1998, method 3),
      // z = 1.959964, computed outside Beacon: 5/7 → [0.3589, 0.9178], 3/5 → [0.2307, 0.8824],
      // 2/5 → [0.1176, 0.7693], 0/5 → [0, 0.4345].
      const body = await metrics(`${AUGUST}&include_uncertainty=true`)
      expect(body.data.coverage_rate_ci).toEqual({ low: 0.3589, high: 0.9178 })
      expect(body.data.brand_coverage).toEqual({
        Acme: { appearance_rate: 0.6, avg_position: 1.33, total_appearances: 3, appearance_rate_ci: { low: 0.2307, high: 0.8824 } },
        Globex: { appearance_rate: 0.6, avg_position: 1.67, total_appearances: 3, appearance_rate_ci: { low: 0.2307, high: 0.8824 } },
        Initech: { appearance_rate: 0.4, avg_position: 2, total_appearances: 2, appearance_rate_ci: { low: 0.1176, high: 0.7693 } },
        Umbrella: { appearance_rate: 0, avg_position: 0, total_appearances: 0, appearance_rate_ci: { low: 0, high: 0.4345 } },
      })
      // No observations: nothing measured, so no interval.
      const empty = await metrics('start_date=2025-08-03&end_date=2025-08-03&include_uncertainty=true')
      expect(empty.data.coverage_rate_ci).toBeNull()
      expect(empty.data.brand_coverage.Acme.appearance_rate_ci).toBeNull()
      const plain = await metrics(`${AUGUST}&include_uncertainty=false`)
      expect(plain.data).not.toHaveProperty('coverage_rate_ci')
      expect(Object.keys(plain.data.brand_coverage.Acme).sort()).toEqual(['appearance_rate', 'avg_position', 'total_appearances'])
    })

    it('applies the date range inclusively', async () => {
      // 08-02 alone: o4 → 1 of 1; Initech 1/1 at position 1.
      const day = (await metrics('start_date=2025-08-02&end_date=2025-08-02')).data
      expect(day).toEqual({
        coverage_rate: 1,
        total_queries: 1,
        queries_with_aio: 1,
        brand_coverage: {
          Acme: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
          Globex: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
          Initech: { appearance_rate: 1, avg_position: 1, total_appearances: 1 },
          Umbrella: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
        },
        trend: [{ date: '2025-08-02', coverage_rate: 1 }],
      })
      // 07-31..08-01: o8 (07-31 23:59:59) + o1, o2, o3 → 4 queries, 3 with AIO; Acme o8, o1, o3 → 3/3, (1+1+2)/3 = 1.33.
      const edge = (await metrics('start_date=2025-07-31&end_date=2025-08-01')).data
      expect(edge).toMatchObject({ coverage_rate: 0.75, total_queries: 4, queries_with_aio: 3 })
      expect(edge.brand_coverage.Acme).toEqual({ appearance_rate: 1, avg_position: 1.33, total_appearances: 3 })
      expect(edge.trend).toEqual([
        { date: '2025-07-31', coverage_rate: 1 },
        { date: '2025-08-01', coverage_rate: 0.6667 },
      ])
    })

    it('filters by prompt tags, OR-ed, and AND-ed with the dates', async () => {
      // crm = A1: o1, o2, o5, o7 → 4 queries, 2 with AIO = 0.5.
      // Acme o1(1), o7(1) → 2/2 = 1, position 1; Globex o1(2), o7(2) → 1, 2; Initech o7(3) → 0.5, 3.
      const crm = await metrics(`${AUGUST}&tags=crm`)
      expect(crm.data).toEqual({
        coverage_rate: 0.5,
        total_queries: 4,
        queries_with_aio: 2,
        brand_coverage: {
          Acme: { appearance_rate: 1, avg_position: 1, total_appearances: 2 },
          Globex: { appearance_rate: 1, avg_position: 2, total_appearances: 2 },
          Initech: { appearance_rate: 0.5, avg_position: 3, total_appearances: 1 },
          Umbrella: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
        },
        trend: [
          { date: '2025-08-01', coverage_rate: 0.5 },
          { date: '2025-08-04', coverage_rate: 0.5 },
        ],
      })
      expect(crm.message).toBe('AIO coverage over 4 queries')
      // crm OR erp = A1 + A2: 6 queries (not o6), AIO o1, o3, o4, o7 = 4 → 0.6667.
      expect((await metrics(`${AUGUST}&tags=crm,erp`)).data).toMatchObject({ coverage_rate: 0.6667, total_queries: 6, queries_with_aio: 4 })
      expect((await metrics(`${AUGUST}&tags[]=erp&tags[]=crm`)).data.total_queries).toBe(6)
      // erp AND 08-02..08-10: o4 only.
      expect((await metrics('start_date=2025-08-02&end_date=2025-08-10&tags=erp')).data).toMatchObject({ total_queries: 1, queries_with_aio: 1, coverage_rate: 1 })
      // Unknown tag: nothing, every rate 0, no trend.
      const none = await metrics(`${AUGUST}&tags=nope`)
      expect(none.data).toEqual({
        coverage_rate: 0,
        total_queries: 0,
        queries_with_aio: 0,
        brand_coverage: {
          Acme: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
          Globex: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
          Initech: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
          Umbrella: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
        },
        trend: [],
      })
      expect(none.message).toBe('AIO coverage over 0 queries')
    })

    it('restricts brand_coverage to target_brand_id', async () => {
      const globex = await metrics(`${AUGUST}&target_brand_id=${brand.globex}`)
      expect(globex.data.brand_coverage).toEqual({ Globex: { appearance_rate: 0.6, avg_position: 1.67, total_appearances: 3 } })
      expect(globex.data).toMatchObject({ coverage_rate: 0.7143, total_queries: 7, queries_with_aio: 5 })
      // An inactive brand of the workspace can still be asked about.
      expect((await metrics(`${AUGUST}&target_brand_id=${brand.oldco}`)).data.brand_coverage).toEqual({
        Oldco: { appearance_rate: 0, avg_position: 0, total_appearances: 0 },
      })
      for (const id of [foreignBrand, '00000000-0000-4000-8000-000000000000']) {
        const response = await ctx.get(`/api/v1/aio-metrics?target_brand_id=${id}`, a.key)
        expect(response.statusCode).toBe(404)
        expect(response.json().error.code).toBe('not_found')
      }
      const malformed = await ctx.get('/api/v1/aio-metrics?target_brand_id=acme', a.key)
      expect(malformed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'target_brand_id' })
    })

    it('takes no provider or model filters and checks its dates', async () => {
      for (const param of ['models=openai', 'model_ids=gpt-4o', 'brand_id=x']) {
        const response = await ctx.get(`/api/v1/aio-metrics?${param}`, a.key)
        expect(response.statusCode, param).toBe(400)
        expect(response.json().error).toMatchObject({ code: 'unknown_parameter', param: param.split('=')[0] })
      }
      const reversed = await ctx.get('/api/v1/aio-metrics?start_date=2025-08-10&end_date=2025-08-01', a.key)
      expect(reversed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'start_date' })
    })

    it("counts only the caller's workspace", async () => {
      const theirs = await metrics(AUGUST, b.key)
      // B: 08-01 AIO with Acme, 08-03 no AIO → 1 of 2.
      expect(theirs.data).toEqual({
        coverage_rate: 0.5,
        total_queries: 2,
        queries_with_aio: 1,
        brand_coverage: { Acme: { appearance_rate: 1, avg_position: 1, total_appearances: 1 } },
        trend: [
          { date: '2025-08-01', coverage_rate: 1 },
          { date: '2025-08-03', coverage_rate: 0 },
        ],
      })
    })
  })

  describe('GET /api/v1/aio-metrics/prompt/{prompt_id}', () => {
    const forPrompt = async (id: string, query = AUGUST, key = a.key) => {
      const response = await ctx.get(`/api/v1/aio-metrics/prompt/${id}?${query}`, key)
      expect(response.statusCode, response.body).toBe(200)
      const body = response.json()
      expect(Object.keys(body).sort()).toEqual(['data', 'success'])
      return body.data
    }

    it("returns one prompt's coverage and brand appearance counts", async () => {
      // A1 in August: o1, o2, o5, o7 → 4, AIO 2 → 0.5. Acme o1, o7; Globex o1, o7; Initech o7.
      expect(await forPrompt(prompt.a1)).toEqual({
        prompt_id: prompt.a1,
        prompt_text: 'best crm',
        coverage_rate: 0.5,
        total_queries: 4,
        queries_with_aio: 2,
        brand_appearances: { Acme: 2, Globex: 2, Initech: 1, Umbrella: 0 },
      })
      // A2: o3, o4 → 2 of 2.
      expect(await forPrompt(prompt.a2)).toMatchObject({
        coverage_rate: 1,
        total_queries: 2,
        queries_with_aio: 2,
        brand_appearances: { Acme: 1, Globex: 1, Initech: 1, Umbrella: 0 },
      })
      // A3: o6, AIO without brands.
      expect(await forPrompt(prompt.a3)).toMatchObject({ coverage_rate: 1, total_queries: 1, brand_appearances: { Acme: 0, Globex: 0, Initech: 0, Umbrella: 0 } })
    })

    it('applies dates and target_brand_id', async () => {
      // A1 on 07-31..08-01: o8, o1, o2 → 3, AIO 2 → 0.6667; Acme o8, o1.
      expect(await forPrompt(prompt.a1, 'start_date=2025-07-31&end_date=2025-08-01')).toMatchObject({
        coverage_rate: 0.6667,
        total_queries: 3,
        queries_with_aio: 2,
        brand_appearances: { Acme: 2, Globex: 1, Initech: 0, Umbrella: 0 },
      })
      expect((await forPrompt(prompt.a1, `${AUGUST}&target_brand_id=${brand.initech}`)).brand_appearances).toEqual({ Initech: 1 })
      const foreign = await ctx.get(`/api/v1/aio-metrics/prompt/${prompt.a1}?target_brand_id=${foreignBrand}`, a.key)
      expect(foreign.statusCode).toBe(404)
    })

    it('404s prompts of other workspaces and refuses bad input', async () => {
      for (const id of [foreignPrompt, '00000000-0000-4000-8000-000000000000']) {
        const response = await ctx.get(`/api/v1/aio-metrics/prompt/${id}`, a.key)
        expect(response.statusCode).toBe(404)
        expect(response.json().error.code).toBe('not_found')
      }
      const malformed = await ctx.get('/api/v1/aio-metrics/prompt/not-a-uuid', a.key)
      expect(malformed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'prompt_id' })
      const tags = await ctx.get(`/api/v1/aio-metrics/prompt/${prompt.a1}?tags=crm`, a.key)
      expect(tags.json().error).toMatchObject({ code: 'unknown_parameter', param: 'tags' })
      // B's prompt of the same text counts B's observations only.
      expect(await forPrompt(foreignPrompt, AUGUST, b.key)).toMatchObject({ total_queries: 2, queries_with_aio: 1, brand_appearances: { Acme: 1 } })
    })
  })
})
