import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

// Fixture (workspace A), period 2025-03-01..2025-03-03 unless a test says otherwise.
// Brands: Acme (primary, acme.com), Rival (competitor, rival.com).
// Prompts: P1 tags [crm, b2b], P2 tags [billing]. Providers: openai (gpt-4o), anthropic (claude-3-5-sonnet).
//
//   r1 openai    P1 03-01 10:00  wikipedia.org/wiki/CRM (www. + utm_ in the list, #fragment in the text: one URL),
//                                acme.com/pricing, census.gov/data (www. in the text)
//   r2 anthropic P1 03-01 15:00  wikipedia.org/wiki/CRM (trailing slash), rival.com/features (utm_), rival.com/pricing
//   r3 openai    P2 03-02 09:00  en.wikipedia.org/wiki/Invoice, acme.com/pricing (upper case host + slash in the text)
//   r4 anthropic P2 03-03 20:00  no citations (still part of R)
//   r5 openai    P1 03-03 23:30  wikipedia.org/wiki/CRM (empty content)
//   r6 openai    P1 02-28 23:59:59  census.gov/data — one second before the period
//   r7 openai    P2 03-04 00:00:00  census.gov/data — the first instant after the period
//
// Over R = {r1..r5}: |R| = 5, providers present = 2, prompts present = 2.
//   wikipedia.org: rows r1,r2,r3,r5 = 4 citations, 4 citing responses → usage 100×4/5 = 80;
//                  providers {openai, anthropic} 2/2, prompts {P1, P2} 2/2 → authority 100×√(1×1) = 100
//   acme.com:      rows r1,r3 = 2, 2 responses → 40; providers {openai} 1/2, prompts {P1,P2} 2/2 → 100×√0.5 = 70.71
//   rival.com:     rows r2,r2 = 2, 1 response → 20; {anthropic} 1/2, {P1} 1/2 → 100×√0.25 = 50
//   census.gov:    row r1 = 1, 1 response → 20; {openai} 1/2, {P1} 1/2 → 50
// Order: wikipedia 4, acme 2, rival 2 (tie → domain asc), census 1.

const RANGE = 'start_date=2025-03-01&end_date=2025-03-03'

describe.each(testBackends)('GET /api/v1/sources (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  let p1: string
  let p2: string
  let foreignPrompt: string

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant()
    b = await ctx.tenant()
    await createBrand(ctx, a.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    await createBrand(ctx, a.key, { name: 'Rival', domain: 'rival.com' })
    p1 = await createPrompt(ctx, a.key, 'best crm tools', ['crm', 'b2b'])
    p2 = await createPrompt(ctx, a.key, 'cheap invoicing software', ['billing'])
    const gpt = { provider: 'openai', model: 'gpt-4o' }
    const claude = { provider: 'anthropic', model: 'claude-3-5-sonnet' }
    await ingest(ctx, a.key, [
      {
        ...gpt,
        prompt_id: p1,
        created_at: '2025-03-01T10:00:00Z',
        content: 'See https://wikipedia.org/wiki/CRM#history and https://www.census.gov/data for background',
        citations: [
          { url: 'https://www.wikipedia.org/wiki/CRM?utm_source=chatgpt', title: 'CRM - Wikipedia' },
          { url: 'https://acme.com/pricing', title: 'Acme pricing' },
        ],
      },
      {
        ...claude,
        prompt_id: p1,
        created_at: '2025-03-01T15:00:00Z',
        content: 'Compare with https://rival.com/features?utm_medium=x and https://rival.com/pricing today',
        citations: [{ url: 'https://wikipedia.org/wiki/CRM/', title: '' }],
      },
      {
        ...gpt,
        prompt_id: p2,
        created_at: '2025-03-02T09:00:00Z',
        content: 'Acme is cheap: https://ACME.com/pricing/ for details',
        citations: [{ url: 'https://en.wikipedia.org/wiki/Invoice', title: 'Invoice - Wikipedia' }],
      },
      { ...claude, prompt_id: p2, created_at: '2025-03-03T20:00:00Z', content: 'Plenty of invoicing tools exist.' },
      {
        ...gpt,
        prompt_id: p1,
        created_at: '2025-03-03T23:30:00Z',
        content: '',
        citations: [{ url: 'https://wikipedia.org/wiki/CRM', title: 'Customer relationship management - Wikipedia' }],
      },
      { ...gpt, prompt_id: p1, created_at: '2025-02-28T23:59:59Z', content: 'https://census.gov/data' },
      { ...gpt, prompt_id: p2, created_at: '2025-03-04T00:00:00Z', content: 'https://census.gov/data' },
    ])

    // Workspace B cites the same sites heavily and has no brands: none of it may reach A,
    // and acme.com is not "owned" there.
    foreignPrompt = await createPrompt(ctx, b.key, 'best crm tools', ['crm'])
    await ingest(
      ctx,
      b.key,
      ['2025-03-01T08:00:00Z', '2025-03-02T08:00:00Z', '2025-03-03T08:00:00Z'].map((created_at) => ({
        provider: 'google',
        model: 'gemini-2.0-flash',
        prompt_id: foreignPrompt,
        created_at,
        content: 'https://wikipedia.org/wiki/CRM https://acme.com/pricing https://census.gov/data https://other-site.com/x',
      })),
    )
  })
  afterAll(() => ctx.close())

  const sources = async (query: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/sources?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const summary = (list: { domain: string; citation_count: number; usage_percentage: number; authority_score: number }[]) =>
    list.map((s) => [s.domain, s.citation_count, s.usage_percentage, s.authority_score])

  it('aggregates every cited domain over the period with hand-worked numbers', async () => {
    const body = await sources(RANGE)
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success'])
    expect(body.success).toBe(true)
    expect(body.message).toBe('Retrieved 4 sources')
    expect(body.data.sources).toEqual([
      {
        domain: 'wikipedia.org',
        source_type: 'reference',
        citation_count: 4,
        authority_score: 100,
        usage_percentage: 80,
        last_cited: '2025-03-03T23:30:00.000Z',
        // r1 + r2 on the 1st, r3 on the 2nd, r5 on the 3rd
        daily_chart: [
          { date: '2025-03-01', count: 2 },
          { date: '2025-03-02', count: 1 },
          { date: '2025-03-03', count: 1 },
        ],
      },
      {
        domain: 'acme.com',
        source_type: 'owned',
        citation_count: 2,
        authority_score: 70.71,
        usage_percentage: 40,
        last_cited: '2025-03-02T09:00:00.000Z',
        daily_chart: [
          { date: '2025-03-01', count: 1 },
          { date: '2025-03-02', count: 1 },
          { date: '2025-03-03', count: 0 },
        ],
      },
      {
        domain: 'rival.com',
        source_type: 'competitor',
        citation_count: 2,
        authority_score: 50,
        usage_percentage: 20,
        last_cited: '2025-03-01T15:00:00.000Z',
        // two citations (two URLs) from one response, both on the 1st
        daily_chart: [
          { date: '2025-03-01', count: 2 },
          { date: '2025-03-02', count: 0 },
          { date: '2025-03-03', count: 0 },
        ],
      },
      {
        domain: 'census.gov',
        source_type: 'institutional',
        citation_count: 1,
        authority_score: 50,
        usage_percentage: 20,
        last_cited: '2025-03-01T10:00:00.000Z',
        daily_chart: [
          { date: '2025-03-01', count: 1 },
          { date: '2025-03-02', count: 0 },
          { date: '2025-03-03', count: 0 },
        ],
      },
    ])
    expect(body.data.pagination).toEqual({ page: 1, per_page: 20, total_items: 4, total_pages: 1, has_next: false, has_prev: false })
  })

  it('bounds the period to whole UTC days on both ends', async () => {
    // Adding 03-04 brings in r7 (census.gov, openai, P2): |R| = 6, census 2 citations by
    // 2 responses → 100×2/6 = 33.33; providers {openai} 1/2, prompts {P1,P2} 2/2 → 70.71.
    const body = await sources('start_date=2025-03-01&end_date=2025-03-04')
    const census = body.data.sources.find((s: { domain: string }) => s.domain === 'census.gov')
    expect([census.citation_count, census.usage_percentage, census.authority_score, census.last_cited]).toEqual([2, 33.33, 70.71, '2025-03-04T00:00:00.000Z'])
    expect(census.daily_chart.map((d: { count: number }) => d.count)).toEqual([1, 0, 0, 1])
    // wikipedia: 4 of 6 responses → 66.67
    expect(body.data.sources[0]).toMatchObject({ domain: 'wikipedia.org', usage_percentage: 66.67 })

    // 03-02..03-03: R = {r3, r4, r5}, providers {openai, anthropic}, prompts {P1, P2}.
    // wikipedia: r3, r5 → 2 citations, 100×2/3 = 66.67; {openai} 1/2 × {P1,P2} 2/2 → 70.71
    // acme: r3 → 1, 33.33; {openai} 1/2 × {P2} 1/2 → 50
    const later = await sources('start_date=2025-03-02&end_date=2025-03-03')
    expect(summary(later.data.sources)).toEqual([
      ['wikipedia.org', 2, 66.67, 70.71],
      ['acme.com', 1, 33.33, 50],
    ])
    expect(later.data.sources[0].daily_chart).toEqual([
      { date: '2025-03-02', count: 1 },
      { date: '2025-03-03', count: 1 },
    ])
  })

  it('filters by provider (models) and model id', async () => {
    // models=anthropic: R = {r2, r4}, |R| = 2, providers 1, prompts {P1, P2} = 2.
    // rival: 2 citations by r2 → 50%; 1/1 × 1/2 → 100×√0.5 = 70.71; wikipedia: 1, 50%, 70.71
    expect(summary((await sources(`${RANGE}&models=anthropic`)).data.sources)).toEqual([
      ['rival.com', 2, 50, 70.71],
      ['wikipedia.org', 1, 50, 70.71],
    ])
    // model_ids=gpt-4o: R = {r1, r3, r5}, |R| = 3, providers 1, prompts 2.
    // wikipedia: 3, 100%, 1 × 2/2 → 100; acme: 2, 66.67%, 1 × 2/2 → 100; census: 1, 33.33%, 1 × 1/2 → 70.71
    expect(summary((await sources(`${RANGE}&model_ids=gpt-4o`)).data.sources)).toEqual([
      ['wikipedia.org', 3, 100, 100],
      ['acme.com', 2, 66.67, 100],
      ['census.gov', 1, 33.33, 70.71],
    ])
    // OR within a filter: both providers is the unfiltered result
    expect(summary((await sources(`${RANGE}&models=openai,anthropic`)).data.sources).map((s) => s[0])).toEqual(['wikipedia.org', 'acme.com', 'rival.com', 'census.gov'])
  })

  it('filters by tags (OR within, AND across filters)', async () => {
    // tags=billing: R = P2's {r3, r4}, |R| = 2, providers 2, prompts 1.
    // acme 1 (r3), 50%, 1/2 × 1/1 → 70.71; wikipedia 1 (r3), 50%, 70.71; tie → domain asc
    expect(summary((await sources(`${RANGE}&tags=billing`)).data.sources)).toEqual([
      ['acme.com', 1, 50, 70.71],
      ['wikipedia.org', 1, 50, 70.71],
    ])
    // crm OR billing covers both prompts: the unfiltered numbers
    expect(summary((await sources(`${RANGE}&tags=crm&tags=billing`)).data.sources)).toEqual([
      ['wikipedia.org', 4, 80, 100],
      ['acme.com', 2, 40, 70.71],
      ['rival.com', 2, 20, 50],
      ['census.gov', 1, 20, 50],
    ])
    // billing AND anthropic: R = {r4}, which cites nothing
    const none = await sources(`${RANGE}&tags=billing&models=anthropic`)
    expect(none.data.sources).toEqual([])
    expect(none.data.pagination).toEqual({ page: 1, per_page: 20, total_items: 0, total_pages: 0, has_next: false, has_prev: false })
    expect(none.message).toBe('Retrieved 0 sources')
    expect((await sources(`${RANGE}&tags=no-such-tag`)).data.sources).toEqual([])
  })

  it('filters by prompt_template_id', async () => {
    // P1: R = {r1, r2, r5}, |R| = 3, providers 2, prompts 1.
    // wikipedia 3, 100%, 2/2 × 1/1 → 100; rival 2 (r2), 33.33%, 1/2 → 70.71;
    // acme 1 (r1), 33.33%, 70.71; census 1 (r1), 33.33%, 70.71
    const body = await sources(`${RANGE}&prompt_template_id=${p1}`)
    expect(summary(body.data.sources)).toEqual([
      ['wikipedia.org', 3, 100, 100],
      ['rival.com', 2, 33.33, 70.71],
      ['acme.com', 1, 33.33, 70.71],
      ['census.gov', 1, 33.33, 70.71],
    ])
    expect(body.data.sources[0].daily_chart.map((d: { count: number }) => d.count)).toEqual([2, 0, 1])
    // P2 and models=anthropic: R = {r4}: no sources, but the prompt exists so 200
    expect((await sources(`${RANGE}&prompt_template_id=${p2}&models=anthropic`)).data.sources).toEqual([])
  })

  it('paginates with has_next/has_prev', async () => {
    const first = await sources(`${RANGE}&per_page=1`)
    expect(first.data.sources.map((s: { domain: string }) => s.domain)).toEqual(['wikipedia.org'])
    expect(first.data.pagination).toEqual({ page: 1, per_page: 1, total_items: 4, total_pages: 4, has_next: true, has_prev: false })
    expect(first.message).toBe('Retrieved 1 source')

    const third = await sources(`${RANGE}&per_page=1&page=3`)
    expect(third.data.sources.map((s: { domain: string }) => s.domain)).toEqual(['rival.com'])
    expect(third.data.sources[0].daily_chart).toHaveLength(3)
    expect(third.data.pagination).toEqual({ page: 3, per_page: 1, total_items: 4, total_pages: 4, has_next: true, has_prev: true })

    const last = await sources(`${RANGE}&per_page=1&page=4`)
    expect(last.data.sources.map((s: { domain: string }) => s.domain)).toEqual(['census.gov'])
    expect(last.data.pagination).toMatchObject({ has_next: false, has_prev: true })

    const past = await sources(`${RANGE}&per_page=1&page=5`)
    expect(past.data.sources).toEqual([])
    expect(past.data.pagination).toEqual({ page: 5, per_page: 1, total_items: 4, total_pages: 4, has_next: false, has_prev: true })

    const max = await sources(`${RANGE}&per_page=100`)
    expect(max.data.sources).toHaveLength(4)
    expect(max.data.pagination).toEqual({ page: 1, per_page: 100, total_items: 4, total_pages: 1, has_next: false, has_prev: false })
  })

  it('rejects bad parameters with 400', async () => {
    for (const [query, param] of [
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['prompt_template_id=not-a-uuid', 'prompt_template_id'],
      ['models=bing', 'models'],
      ['model_ids=no-such-model', 'model_ids'],
      ['start_date=2025-03-05&end_date=2025-03-01', 'start_date'],
      ['source_id=acme.com', 'source_id'],
    ]) {
      const response = await ctx.get(`/api/v1/sources?${query}`, a.key)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error.param, query).toBe(param)
    }
    expect((await ctx.get('/api/v1/sources?source_id=acme.com', a.key)).json().error.code).toBe('unknown_parameter')
  })

  it('keeps workspaces apart', async () => {
    // Another workspace's prompt id is as unknown as a random one.
    for (const id of [foreignPrompt, '00000000-0000-4000-8000-000000000000']) {
      const response = await ctx.get(`/api/v1/sources?${RANGE}&prompt_template_id=${id}`, a.key)
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    // B: 3 google responses, each citing the same 4 URLs: every domain 3 citations, 100%,
    // 1/1 × 1/1 → 100. B has no brands, so acme.com is not owned there.
    const theirs = await sources(RANGE, b.key)
    expect(
      theirs.data.sources.map((s: { domain: string; source_type: string; citation_count: number; usage_percentage: number; authority_score: number }) => [
        s.domain,
        s.source_type,
        s.citation_count,
        s.usage_percentage,
        s.authority_score,
      ]),
    ).toEqual([
      ['acme.com', 'other', 3, 100, 100],
      ['census.gov', 'institutional', 3, 100, 100],
      ['other-site.com', 'other', 3, 100, 100],
      ['wikipedia.org', 'reference', 3, 100, 100],
    ])
    const ours = await sources(RANGE)
    expect(JSON.stringify(ours)).not.toContain('other-site.com')
  })

  it('labels owned/competitor from the brands still tracked', async () => {
    const c = await ctx.tenant()
    await createBrand(ctx, c.key, { name: 'Mine', domain: 'www.mine.com', is_primary: true })
    await createBrand(ctx, c.key, { name: 'Tracked', domain: 'tracked.com' })
    await createBrand(ctx, c.key, { name: 'Dropped', domain: 'dropped.com', is_active: false })
    await createBrand(ctx, c.key, { name: 'Rejected', domain: 'rejected.com', discovery_status: 'rejected' })
    const prompt = await createPrompt(ctx, c.key, 'which tool')
    await ingest(ctx, c.key, [
      {
        provider: 'openai',
        model: 'gpt-4o',
        prompt_id: prompt,
        created_at: '2025-03-02T12:00:00Z',
        content: 'https://docs.mine.com/a https://tracked.com/b https://dropped.com/c https://rejected.com/d https://stats.example.edu/e',
      },
    ])
    const body = await sources(RANGE, c.key)
    // one response citing five domains once each: counts tie at 1, so domain order
    expect(body.data.sources.map((s: { domain: string; source_type: string; citation_count: number }) => [s.domain, s.source_type, s.citation_count])).toEqual([
      ['dropped.com', 'other', 1],
      ['example.edu', 'institutional', 1],
      ['mine.com', 'owned', 1],
      ['rejected.com', 'other', 1],
      ['tracked.com', 'competitor', 1],
    ])
  })

  it('needs a key', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/sources' })).statusCode).toBe(401)
  })
})
