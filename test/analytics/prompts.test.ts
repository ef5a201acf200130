import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'

// Fixture (workspace A). Brands: Acme (primary), Globex, Initech, Umbrella (never
// mentioned), Oldco (inactive). Prompts (texts lower case so byte order is the obvious one):
//   P1 "best crm for startups"  tags [crm, smb]
//   P2 "crm for enterprise"     tags [enterprise]
//   P3 "project tools"          tags []
//   P4 "retired prompt"         inactive
//   P5 "zzz unused prompt"      tags [smb], no responses
//   P6 "aardvark unused prompt" tags [], no responses
// Responses (models: gpt-4o, gpt-4o-mini = openai; claude-x = anthropic; gemini-x = google; sonar-x = perplexity):
//   r1  P1 openai gpt-4o        06-01 10:00      "Acme is great. Acme is fast. Globex is fine."  Acme×2 pos1, Globex×1 pos2
//   r2  P1 anthropic claude-x   06-02 12:00      "Globex leads the market. See https://g2.com/x"  Globex×1 pos1
//   r3  P1 openai gpt-4o-mini   06-03 23:59:59   "Acme and Initech both work."  Acme pos1, Initech pos2
//   r4  P1 google gemini-x      06-10 08:00      "Nothing relevant here." + 11 cited domains d01..d11.com
//   r5  P2 openai gpt-4o        06-02 09:00      "Acme wins for enterprise."
//   r6  P2 perplexity sonar-x   06-05 09:00      "Initech is popular."
//   r7  P3 anthropic claude-x   06-04 09:00      "Use a spreadsheet."
//   r8  P4 openai gpt-4o        06-01 09:00      "Acme" (inactive prompt: never listed)
//   r9  P1 openai gpt-4o        05-31 23:59:59   "Acme again is good."  (previous period of June)
//   r10 P1 anthropic claude-x   05-02 00:00      ""  (previous period, empty: sentiment null)
//   r11 P1 openai gpt-4o        05-01 12:00      "Globex only."  (before both periods)
// r1 also cites https://www.g2.com/products/acme?utm_source=x and https://docs.example.org/a.
const JUNE = 'start_date=2025-06-01&end_date=2025-06-30'

describe.each(testBackends)('prompt analytics (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  const brand: Record<string, string> = {}
  const prompt: Record<string, string> = {}
  let foreignBrand: string
  let foreignPrompt: string

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant()
    b = await ctx.tenant()
    brand.acme = await createBrand(ctx, a.key, { name: 'Acme', is_primary: true })
    brand.globex = await createBrand(ctx, a.key, { name: 'Globex' })
    brand.initech = await createBrand(ctx, a.key, { name: 'Initech' })
    brand.umbrella = await createBrand(ctx, a.key, { name: 'Umbrella' })
    brand.oldco = await createBrand(ctx, a.key, { name: 'Oldco', is_active: false })
    prompt.p1 = await createPrompt(ctx, a.key, 'best crm for startups', ['crm', 'smb'])
    prompt.p2 = await createPrompt(ctx, a.key, 'crm for enterprise', ['enterprise'])
    prompt.p3 = await createPrompt(ctx, a.key, 'project tools')
    prompt.p4 = await createPrompt(ctx, a.key, 'retired prompt')
    prompt.p5 = await createPrompt(ctx, a.key, 'zzz unused prompt', ['smb'])
    prompt.p6 = await createPrompt(ctx, a.key, 'aardvark unused prompt')
    const r = (p: string, provider: string, model: string, created_at: string, content: string, extra: Record<string, unknown> = {}) => ({
      prompt_id: prompt[p],
      provider,
      model,
      created_at,
      content,
      ...extra,
    })
    await ingest(ctx, a.key, [
      r('p1', 'openai', 'gpt-4o', '2025-06-01T10:00:00Z', 'Acme is great. Acme is fast. Globex is fine.', {
        citations: [{ url: 'https://www.g2.com/products/acme?utm_source=x' }, { url: 'https://docs.example.org/a' }],
      }),
      r('p1', 'anthropic', 'claude-x', '2025-06-02T12:00:00Z', 'Globex leads the market. See https://g2.com/x'),
      r('p1', 'openai', 'gpt-4o-mini', '2025-06-03T23:59:59Z', 'Acme and Initech both work.'),
      r('p1', 'google', 'gemini-x', '2025-06-10T08:00:00Z', 'Nothing relevant here.', {
        citations: Array.from({ length: 11 }, (_, i) => ({ url: `https://d${String(i + 1).padStart(2, '0')}.com/page` })),
      }),
      r('p2', 'openai', 'gpt-4o', '2025-06-02T09:00:00Z', 'Acme wins for enterprise.'),
      r('p2', 'perplexity', 'sonar-x', '2025-06-05T09:00:00Z', 'Initech is popular.'),
      r('p3', 'anthropic', 'claude-x', '2025-06-04T09:00:00Z', 'Use a spreadsheet.'),
      r('p4', 'openai', 'gpt-4o', '2025-06-01T09:00:00Z', 'Acme'),
      r('p1', 'openai', 'gpt-4o', '2025-05-31T23:59:59Z', 'Acme again is good.'),
      r('p1', 'anthropic', 'claude-x', '2025-05-02T00:00:00Z', ''),
      r('p1', 'openai', 'gpt-4o', '2025-05-01T12:00:00Z', 'Globex only.'),
    ])
    const retired = await post(ctx, `/api/v1/prompts/${prompt.p4}`, a.key, { is_active: false }, 'PATCH')
    expect(retired.statusCode).toBe(200)

    // Workspace B: same brand and prompt names, responses in June that must never count for A.
    foreignBrand = await createBrand(ctx, b.key, { name: 'Acme', is_primary: true })
    foreignPrompt = await createPrompt(ctx, b.key, 'best crm for startups', ['crm', 'smb'])
    await ingest(ctx, b.key, [
      { prompt_id: foreignPrompt, provider: 'openai', model: 'gpt-4o', created_at: '2025-06-01T10:00:00Z', content: 'Acme Acme Acme.' },
      { prompt_id: foreignPrompt, provider: 'openai', model: 'gpt-4o', created_at: '2025-06-02T10:00:00Z', content: 'Acme.' },
    ])
  })
  afterAll(() => ctx.close())

  const list = async (query: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/prompts?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  /** [text, response_count, avg_visibility] per listed prompt, in order */
  const rows = (body: { data: { prompts: { text: string; performance: { response_count: number; avg_visibility: number } }[] } }) =>
    body.data.prompts.map((p) => [p.text, p.performance.response_count, p.performance.avg_visibility])

  describe('GET /api/v1/prompts', () => {
    it('lists every active prompt with response counts and the brand visibility, sorted by count then text', async () => {
      const body = await list(`brand_id=${brand.acme}&${JUNE}`)
      expect(Object.keys(body).sort()).toEqual(['data', 'success'])
      // P1: r1..r4 = 4, Acme in r1, r3 → 100×2/4 = 50. P2: r5, r6 = 2, Acme in r5 → 50.
      // P3: r7 = 1, no Acme → 0. P5, P6: none → 0, ordered by text (aardvark < zzz). P4 inactive.
      expect(rows(body)).toEqual([
        ['best crm for startups', 4, 50],
        ['crm for enterprise', 2, 50],
        ['project tools', 1, 0],
        ['aardvark unused prompt', 0, 0],
        ['zzz unused prompt', 0, 0],
      ])
      expect(body.data.prompts[0]).toEqual({
        id: prompt.p1,
        text: 'best crm for startups',
        tags: ['crm', 'smb'],
        is_active: true,
        performance: { response_count: 4, avg_visibility: 50 },
      })
      // Without page parameters: everything on one page.
      expect(body.data.pagination).toEqual({ page: 1, per_page: 5, total_items: 5, total_pages: 1 })
    })

    it('measures the brand given by brand_id', async () => {
      // Globex: P1 r1, r2 → 2/4 = 50; P2 none → 0.  Initech: P1 r3 → 1/4 = 25; P2 r6 → 1/2 = 50.
      expect(rows(await list(`brand_id=${brand.globex}&${JUNE}`)).slice(0, 2)).toEqual([
        ['best crm for startups', 4, 50],
        ['crm for enterprise', 2, 0],
      ])
      expect(rows(await list(`brand_id=${brand.initech}&${JUNE}`)).slice(0, 2)).toEqual([
        ['best crm for startups', 4, 25],
        ['crm for enterprise', 2, 50],
      ])
      // An inactive brand is never matched: every prompt at 0.
      expect(rows(await list(`brand_id=${brand.oldco}&${JUNE}`)).map((row) => row[2])).toEqual([0, 0, 0, 0, 0])
    })

    it('applies the date range inclusively on both ends', async () => {
      // 06-01..06-03: P1 r1, r2, r3 (23:59:59 on the last day) = 3, Acme r1, r3 → 66.67; P2 r5 → 100; P3 r7 is 06-04 → 0.
      expect(rows(await list(`brand_id=${brand.acme}&start_date=2025-06-01&end_date=2025-06-03`))).toEqual([
        ['best crm for startups', 3, 66.67],
        ['crm for enterprise', 1, 100],
        ['aardvark unused prompt', 0, 0],
        ['project tools', 0, 0],
        ['zzz unused prompt', 0, 0],
      ])
      // 05-31 alone: r9 (23:59:59) only → P1 1, Acme → 100.
      expect(rows(await list(`brand_id=${brand.acme}&start_date=2025-05-31&end_date=2025-05-31`))[0]).toEqual(['best crm for startups', 1, 100])
    })

    it('filters by provider, model id and tags: OR within a filter, AND across', async () => {
      const acme = `brand_id=${brand.acme}&${JUNE}`
      // openai: P1 r1, r3 (both Acme) → 2, 100; P2 r5 → 1, 100.
      expect(rows(await list(`${acme}&models=openai`)).slice(0, 3)).toEqual([
        ['best crm for startups', 2, 100],
        ['crm for enterprise', 1, 100],
        ['aardvark unused prompt', 0, 0],
      ])
      // openai OR anthropic: P1 r1, r2, r3 → 3, Acme 2 → 66.67; P2 r5 → 1, 100; P3 r7 → 1, 0 (tie on 1: text order).
      expect(rows(await list(`${acme}&models=openai,anthropic`)).slice(0, 3)).toEqual([
        ['best crm for startups', 3, 66.67],
        ['crm for enterprise', 1, 100],
        ['project tools', 1, 0],
      ])
      // model gpt-4o: P1 r1 → 1; P2 r5 → 1 (tie: text order).
      expect(rows(await list(`${acme}&model_ids[]=gpt-4o`)).slice(0, 3)).toEqual([
        ['best crm for startups', 1, 100],
        ['crm for enterprise', 1, 100],
        ['aardvark unused prompt', 0, 0],
      ])
      // gpt-4o OR claude-x: P1 r1, r2 → 2, Acme r1 → 50; P2 r5 → 1; P3 r7 → 1, 0.
      expect(rows(await list(`${acme}&model_ids=gpt-4o&model_ids=claude-x`)).slice(0, 3)).toEqual([
        ['best crm for startups', 2, 50],
        ['crm for enterprise', 1, 100],
        ['project tools', 1, 0],
      ])
      // openai AND gpt-4o-mini: P1 r3 only.
      expect(rows(await list(`${acme}&models=openai&model_ids=gpt-4o-mini`)).map((row) => row[1])).toEqual([1, 0, 0, 0, 0])
      // google AND gpt-4o: contradictory, nothing.
      expect(rows(await list(`${acme}&models=google&model_ids=gpt-4o`)).map((row) => row[1])).toEqual([0, 0, 0, 0, 0])
      // tags smb: prompts P1, P5 only.
      const smb = await list(`${acme}&tags=smb`)
      expect(rows(smb)).toEqual([
        ['best crm for startups', 4, 50],
        ['zzz unused prompt', 0, 0],
      ])
      expect(smb.data.pagination).toEqual({ page: 1, per_page: 2, total_items: 2, total_pages: 1 })
      // smb OR enterprise: P1, P2, P5.
      expect(rows(await list(`${acme}&tags=smb,enterprise`)).map((row) => row[0])).toEqual(['best crm for startups', 'crm for enterprise', 'zzz unused prompt'])
      // smb AND openai AND 06-02..06-30: P1 r3 only (r1 is 06-01) → 1, 100.
      expect(rows(await list(`brand_id=${brand.acme}&start_date=2025-06-02&end_date=2025-06-30&tags=smb&models=openai`))).toEqual([
        ['best crm for startups', 1, 100],
        ['zzz unused prompt', 0, 0],
      ])
      // Unknown tags match nothing.
      const none = await list(`${acme}&tags=nope`)
      expect(none.data.prompts).toEqual([])
      expect(none.data.pagination).toEqual({ page: 1, per_page: 1, total_items: 0, total_pages: 0 })
    })

    it('paginates when asked, with exactly page, per_page, total_items and total_pages', async () => {
      const acme = `brand_id=${brand.acme}&${JUNE}`
      const first = await list(`${acme}&per_page=1`)
      expect(rows(first)).toEqual([['best crm for startups', 4, 50]])
      expect(first.data.pagination).toEqual({ page: 1, per_page: 1, total_items: 5, total_pages: 5 })
      const third = await list(`${acme}&per_page=2&page=3`)
      expect(rows(third)).toEqual([['zzz unused prompt', 0, 0]])
      expect(third.data.pagination).toEqual({ page: 3, per_page: 2, total_items: 5, total_pages: 3 })
      const all = await list(`${acme}&per_page=100`)
      expect(all.data.prompts).toHaveLength(5)
      expect(all.data.pagination).toEqual({ page: 1, per_page: 100, total_items: 5, total_pages: 1 })
      const past = await list(`${acme}&per_page=2&page=9`)
      expect(past.data.prompts).toEqual([])
      expect(past.data.pagination).toEqual({ page: 9, per_page: 2, total_items: 5, total_pages: 3 })
      // page without per_page: one page holds everything, so page 2 is past the end.
      const second = await list(`${acme}&page=2`)
      expect(second.data.prompts).toEqual([])
      expect(second.data.pagination).toEqual({ page: 2, per_page: 5, total_items: 5, total_pages: 1 })
      for (const bad of ['per_page=101', 'per_page=0', 'page=0', 'per_page=abc']) {
        const response = await ctx.get(`/api/v1/prompts?${acme}&${bad}`, a.key)
        expect(response.statusCode, bad).toBe(400)
        expect(response.json().error).toMatchObject({ code: 'invalid_parameter', param: bad.split('=')[0] })
      }
    })

    it('requires brand_id and checks it belongs to the workspace', async () => {
      const missing = await ctx.get(`/api/v1/prompts?${JUNE}`, a.key)
      expect(missing.statusCode).toBe(400)
      expect(missing.json().error).toMatchObject({ code: 'missing_parameter', param: 'brand_id' })
      const malformed = await ctx.get('/api/v1/prompts?brand_id=not-a-uuid', a.key)
      expect(malformed.statusCode).toBe(400)
      expect(malformed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'brand_id' })
      for (const id of [foreignBrand, '00000000-0000-4000-8000-000000000000']) {
        const response = await ctx.get(`/api/v1/prompts?brand_id=${id}`, a.key)
        expect(response.statusCode).toBe(404)
        expect(response.json().error.code).toBe('not_found')
      }
    })

    it('rejects unknown parameters, unknown model ids and providers, and reversed dates', async () => {
      const acme = `brand_id=${brand.acme}`
      const cases: [string, string, string][] = [
        [`${acme}&brand=x`, 'unknown_parameter', 'brand'],
        [`${acme}&model_ids=gpt-9`, 'invalid_parameter', 'model_ids'],
        [`${acme}&models=bing`, 'invalid_parameter', 'models'],
        [`${acme}&start_date=2025-06-30&end_date=2025-06-01`, 'invalid_parameter', 'start_date'],
        [`${acme}&start_date=2025-02-30`, 'invalid_parameter', 'start_date'],
      ]
      for (const [query, code, param] of cases) {
        const response = await ctx.get(`/api/v1/prompts?${query}`, a.key)
        expect(response.statusCode, query).toBe(400)
        expect(response.json().error).toMatchObject({ code, param })
      }
    })

    it('another workspace sees only its own prompts and counts', async () => {
      const body = await list(`brand_id=${foreignBrand}&${JUNE}`, b.key)
      // B: one prompt, two June responses, both mention its Acme → 100.
      expect(body.data.prompts).toEqual([
        { id: foreignPrompt, text: 'best crm for startups', tags: ['crm', 'smb'], is_active: true, performance: { response_count: 2, avg_visibility: 100 } },
      ])
    })
  })

  describe('GET /api/v1/prompts/{prompt_id}', () => {
    const detail = async (id: string, query = JUNE, key = a.key) => {
      const response = await ctx.get(`/api/v1/prompts/${id}?${query}`, key)
      expect(response.statusCode, response.body).toBe(200)
      const body = response.json()
      expect(Object.keys(body).sort()).toEqual(['data', 'success'])
      return body.data
    }
    const round3 = (value: number) => Math.round(value * 1000) / 1000
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length

    it('returns the prompt, its metrics, the previous period and the change', async () => {
      const data = await detail(prompt.p1)
      expect(Object.keys(data).sort()).toEqual(['brands', 'by_provider', 'change', 'daily_trend', 'metrics', 'period', 'previous_period', 'prompt', 'top_sources'])
      expect(data.prompt).toEqual({
        id: prompt.p1,
        text: 'best crm for startups',
        tags: ['crm', 'smb'],
        is_active: true,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      })
      expect(data.period).toEqual({ start: '2025-06-01', end: '2025-06-30' })

      // Sentiments come from the NLP library: read the stored per-response values.
      const stored = await ctx.database.db
        .selectFrom('response')
        .select(['content', 'sentiment', 'created_at'])
        .where('workspace_id', '=', a.workspaceId)
        .where('prompt_id', '=', prompt.p1)
        .execute()
      const sentimentOf = (from: string, to: string) =>
        stored.filter((r) => r.created_at >= new Date(from) && r.created_at < new Date(to) && r.sentiment !== null).map((r) => Number(r.sentiment))
      const june = sentimentOf('2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z')
      const may = sentimentOf('2025-05-02T00:00:00Z', '2025-06-01T00:00:00Z')
      expect(june).toHaveLength(4)
      expect(may).toHaveLength(1) // r10 is empty: null sentiment, skipped
      expect(stored.find((r) => r.content === '')?.sentiment).toBeNull()

      // June: r1..r4 = 4; with mentions r1, r2, r3 = 3; brands Acme, Globex, Initech = 3.
      expect(data.metrics).toEqual({ response_count: 4, responses_with_mentions: 3, brands_mentioned: 3, avg_sentiment: round3(mean(june)) })
      // 30 days → previous 05-02..05-31: r9 (Acme) and r10 (empty) = 2; with mentions 1; brands 1. r11 (05-01) is outside.
      expect(data.previous_period).toEqual({
        start: '2025-05-02',
        end: '2025-05-31',
        metrics: { response_count: 2, responses_with_mentions: 1, brands_mentioned: 1, avg_sentiment: round3(may[0]) },
      })
      expect(data.change.response_count).toBe(2)
      expect(data.change.responses_with_mentions).toBe(2)
      expect(data.change.avg_sentiment).toBeCloseTo(data.metrics.avg_sentiment - data.previous_period.metrics.avg_sentiment, 3)
    })

    it('lists every active brand with visibility, mentions, share of voice, sentiment and position', async () => {
      const data = await detail(prompt.p1)
      const mentionRows = await ctx.database.db
        .selectFrom('mention')
        .select(['brand_id', 'sentiment'])
        .where('workspace_id', '=', a.workspaceId)
        .where('prompt_id', '=', prompt.p1)
        .where('created_at', '>=', new Date('2025-06-01T00:00:00Z'))
        .where('created_at', '<', new Date('2025-07-01T00:00:00Z'))
        .execute()
      const sentimentOf = (id: string) => round3(mean(mentionRows.filter((m) => m.brand_id === id && m.sentiment !== null).map((m) => Number(m.sentiment))))
      // Of 4 responses: Acme r1, r3 → 50; Globex r1, r2 → 50; Initech r3 → 25; Umbrella 0 (Oldco inactive: absent).
      // Occurrences: Acme 2 + 1 = 3, Globex 1 + 1 = 2, Initech 1; total 6 → SoV 50, 33.33, 16.67.
      // Positions: Acme r1 1, r3 1 → 1; Globex r1 2, r2 1 → 1.5; Initech r3 2 → 2.
      // Order: visibility desc, then name (Acme before Globex at 50).
      // The §17 uncertainty fields have their own suite (test/analytics/uncertainty.test.ts).
      const withoutUncertainty = ({ visibility_ci: _ci, responses: _n, visibility_change: _test, ...rest }: Record<string, unknown>) => rest
      expect(data.brands.map(withoutUncertainty)).toEqual([
        {
          brand_id: brand.acme,
          name: 'Acme',
          is_primary: true,
          visibility_score: 50,
          mention_count: 3,
          share_of_voice: 50,
          sentiment_avg: sentimentOf(brand.acme),
          position_avg: 1,
        },
        {
          brand_id: brand.globex,
          name: 'Globex',
          is_primary: false,
          visibility_score: 50,
          mention_count: 2,
          share_of_voice: 33.33,
          sentiment_avg: sentimentOf(brand.globex),
          position_avg: 1.5,
        },
        {
          brand_id: brand.initech,
          name: 'Initech',
          is_primary: false,
          visibility_score: 25,
          mention_count: 1,
          share_of_voice: 16.67,
          sentiment_avg: sentimentOf(brand.initech),
          position_avg: 2,
        },
        { brand_id: brand.umbrella, name: 'Umbrella', is_primary: false, visibility_score: 0, mention_count: 0, share_of_voice: 0, sentiment_avg: 0, position_avg: 0 },
      ])
      // "Acme is great. Acme is fast." reads positive.
      expect(data.brands[0].sentiment_avg).toBeGreaterThan(0)
    })

    it('splits visibility by provider, trends responses per day and ranks cited domains', async () => {
      const data = await detail(prompt.p1)
      // anthropic r2 (Globex); google r4 (none); openai r1 (Acme, Globex), r3 (Acme, Initech); perplexity none.
      expect(data.by_provider).toEqual([
        { provider: 'anthropic', response_count: 1, brands: { Acme: 0, Globex: 100, Initech: 0, Umbrella: 0 } },
        { provider: 'google', response_count: 1, brands: { Acme: 0, Globex: 0, Initech: 0, Umbrella: 0 } },
        { provider: 'openai', response_count: 2, brands: { Acme: 100, Globex: 50, Initech: 50, Umbrella: 0 } },
        { provider: 'perplexity', response_count: 0, brands: { Acme: 0, Globex: 0, Initech: 0, Umbrella: 0 } },
      ])
      expect(data.daily_trend).toHaveLength(30)
      expect(data.daily_trend[0]).toEqual({ date: '2025-06-01', response_count: 1 })
      expect(data.daily_trend[29]).toEqual({ date: '2025-06-30', response_count: 0 })
      const busy = data.daily_trend.filter((d: { response_count: number }) => d.response_count > 0).map((d: { date: string }) => d.date)
      expect(busy).toEqual(['2025-06-01', '2025-06-02', '2025-06-03', '2025-06-10'])
      // g2.com: r1 (www. and utm_ dropped) + r2 (URL in the text) = 2; example.org 1; d01..d11.com 1 each.
      // Top 10: g2.com, then the count-1 domains by name: d01..d09.com (example.org and d10, d11 fall off).
      expect(data.top_sources).toEqual([{ domain: 'g2.com', citation_count: 2 }, ...Array.from({ length: 9 }, (_, i) => ({ domain: `d0${i + 1}.com`, citation_count: 1 }))])
    })

    it('applies the analytics filters to both periods', async () => {
      // openai: June r1, r3 = 2 (both mention something, 3 brands); May r9 = 1.
      const openai = await detail(prompt.p1, `${JUNE}&models=openai`)
      expect(openai.metrics).toMatchObject({ response_count: 2, responses_with_mentions: 2, brands_mentioned: 3 })
      expect(openai.previous_period.metrics).toMatchObject({ response_count: 1, responses_with_mentions: 1, brands_mentioned: 1 })
      expect(openai.by_provider.map((p: { response_count: number }) => p.response_count)).toEqual([0, 0, 2, 0])
      // gpt-4o-mini: June r3 only → Acme and Initech at 100.
      const mini = await detail(prompt.p1, `${JUNE}&model_ids=gpt-4o-mini`)
      expect(mini.metrics).toMatchObject({ response_count: 1, responses_with_mentions: 1, brands_mentioned: 2 })
      expect(mini.brands.map((x: { name: string; visibility_score: number }) => [x.name, x.visibility_score])).toEqual([
        ['Acme', 100],
        ['Initech', 100],
        ['Globex', 0],
        ['Umbrella', 0],
      ])
      // P1 has tag smb but not enterprise.
      expect((await detail(prompt.p1, `${JUNE}&tags=smb`)).metrics.response_count).toBe(4)
      const enterprise = await detail(prompt.p1, `${JUNE}&tags=enterprise`)
      expect(enterprise.metrics).toEqual({ response_count: 0, responses_with_mentions: 0, brands_mentioned: 0, avg_sentiment: 0 })
      expect(enterprise.top_sources).toEqual([])
      // A shorter period: 06-02..06-03 (2 days) → previous 05-31..06-01: r9, r1.
      const short = await detail(prompt.p1, 'start_date=2025-06-02&end_date=2025-06-03')
      expect(short.daily_trend).toEqual([
        { date: '2025-06-02', response_count: 1 },
        { date: '2025-06-03', response_count: 1 },
      ])
      expect(short.previous_period).toMatchObject({ start: '2025-05-31', end: '2025-06-01', metrics: { response_count: 2 } })
    })

    it('shows an inactive prompt, and 404s ids of other workspaces', async () => {
      const retired = await detail(prompt.p4)
      expect(retired.prompt).toMatchObject({ id: prompt.p4, is_active: false })
      expect(retired.metrics.response_count).toBe(1)
      for (const id of [foreignPrompt, '00000000-0000-4000-8000-000000000000']) {
        const response = await ctx.get(`/api/v1/prompts/${id}`, a.key)
        expect(response.statusCode).toBe(404)
        expect(response.json().error.code).toBe('not_found')
      }
      const malformed = await ctx.get('/api/v1/prompts/12345', a.key)
      expect(malformed.statusCode).toBe(400)
      expect(malformed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'prompt_id' })
      const unknown = await ctx.get(`/api/v1/prompts/${prompt.p1}?brand_id=${brand.acme}`, a.key)
      expect(unknown.json().error).toMatchObject({ code: 'unknown_parameter', param: 'brand_id' })
      // B's own prompt counts only B's responses.
      const foreign = await detail(foreignPrompt, JUNE, b.key)
      expect(foreign.metrics).toMatchObject({ response_count: 2, responses_with_mentions: 2, brands_mentioned: 1 })
      expect(foreign.brands.map((x: { name: string; mention_count: number }) => [x.name, x.mention_count])).toEqual([['Acme', 4]])
    })
  })
})
