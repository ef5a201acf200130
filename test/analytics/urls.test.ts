import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

// Same fixture as sources.test.ts (workspace A), period 2025-03-01..2025-03-03:
//   r1 openai    P1 03-01 10:00  wikipedia.org/wiki/CRM "CRM - Wikipedia" (www. + utm_ in the list, #fragment in the text),
//                                acme.com/pricing "Acme pricing", census.gov/data (text only: no title)
//   r2 anthropic P1 03-01 15:00  wikipedia.org/wiki/CRM (trailing slash, empty title), rival.com/features (utm_), rival.com/pricing
//   r3 openai    P2 03-02 09:00  en.wikipedia.org/wiki/Invoice "Invoice - Wikipedia", acme.com/pricing (text only)
//   r4 anthropic P2 03-03 20:00  no citations
//   r5 openai    P1 03-03 23:30  wikipedia.org/wiki/CRM "Customer relationship management - Wikipedia"
//   r6 openai    P1 02-28 23:59:59  census.gov/data — before the period
//   r7 openai    P2 03-04 00:00:00  census.gov/data — after the period
//
// URLs over R = {r1..r5} (citation_count = citing responses):
//   https://wikipedia.org/wiki/CRM          3 (r1, r2, r5)  first 03-01 10:00  last 03-03 23:30  title from r5 (latest non-empty)
//   https://acme.com/pricing                2 (r1, r3)      first 03-01 10:00  last 03-02 09:00  title from r1 (r3 gave none)
//   https://census.gov/data                 1 (r1)          title ""
//   https://en.wikipedia.org/wiki/Invoice   1 (r3)
//   https://rival.com/features              1 (r2)
//   https://rival.com/pricing               1 (r2)
// Ties on citation_count are ordered by url.

const RANGE = 'start_date=2025-03-01&end_date=2025-03-03'
const CRM = 'https://wikipedia.org/wiki/CRM'
const ACME = 'https://acme.com/pricing'
const CENSUS = 'https://census.gov/data'
const INVOICE = 'https://en.wikipedia.org/wiki/Invoice'
const FEATURES = 'https://rival.com/features'
const PRICING = 'https://rival.com/pricing'

interface UrlRecord {
  url: string
  domain: string
  title: string
  citation_count: number
  first_cited: string
  last_cited: string
  daily_chart?: { date: string; count: number }[]
  providers_citing?: string[]
}

describe.each(testBackends)('GET /api/v1/urls and /api/v1/urls-detailed (%s)', (backend) => {
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

    // Workspace B cites some of the same URLs, with its own titles; none of it may reach A.
    foreignPrompt = await createPrompt(ctx, b.key, 'best crm tools', ['crm'])
    await ingest(
      ctx,
      b.key,
      ['2025-03-01T08:00:00Z', '2025-03-02T08:00:00Z', '2025-03-03T23:59:59Z'].map((created_at) => ({
        provider: 'google',
        model: 'gemini-2.0-flash',
        prompt_id: foreignPrompt,
        created_at,
        content: 'https://census.gov/data https://other-site.com/x',
        citations: [{ url: 'https://wikipedia.org/wiki/CRM', title: 'Workspace B title' }],
      })),
    )
  })
  afterAll(() => ctx.close())

  const fetchJson = async (path: string, key = a.key) => {
    const response = await ctx.get(path, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const urls = (query: string, key = a.key) => fetchJson(`/api/v1/urls?${query}`, key)
  const detailed = (query: string, key = a.key) => fetchJson(`/api/v1/urls-detailed?${query}`, key)
  const counts = (list: UrlRecord[]) => list.map((u) => [u.url, u.citation_count])

  describe('/urls', () => {
    it('lists cited URLs with counts, first/last cited and the latest non-empty title', async () => {
      const body = await urls(RANGE)
      expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success'])
      expect(body.message).toBe('Retrieved 6 URLs')
      expect(body.data.urls).toEqual([
        {
          url: CRM,
          domain: 'wikipedia.org',
          title: 'Customer relationship management - Wikipedia',
          citation_count: 3,
          first_cited: '2025-03-01T10:00:00.000Z',
          last_cited: '2025-03-03T23:30:00.000Z',
        },
        { url: ACME, domain: 'acme.com', title: 'Acme pricing', citation_count: 2, first_cited: '2025-03-01T10:00:00.000Z', last_cited: '2025-03-02T09:00:00.000Z' },
        { url: CENSUS, domain: 'census.gov', title: '', citation_count: 1, first_cited: '2025-03-01T10:00:00.000Z', last_cited: '2025-03-01T10:00:00.000Z' },
        { url: INVOICE, domain: 'wikipedia.org', title: 'Invoice - Wikipedia', citation_count: 1, first_cited: '2025-03-02T09:00:00.000Z', last_cited: '2025-03-02T09:00:00.000Z' },
        { url: FEATURES, domain: 'rival.com', title: '', citation_count: 1, first_cited: '2025-03-01T15:00:00.000Z', last_cited: '2025-03-01T15:00:00.000Z' },
        { url: PRICING, domain: 'rival.com', title: '', citation_count: 1, first_cited: '2025-03-01T15:00:00.000Z', last_cited: '2025-03-01T15:00:00.000Z' },
      ])
      expect(body.data.pagination).toEqual({ page: 1, per_page: 20, total_items: 6, total_pages: 1, has_next: false, has_prev: false })
    })

    it('takes titles and dates from the period only', async () => {
      // 03-01 alone: CRM cited by r1 ("CRM - Wikipedia") then r2 (empty title, later) → r1's title
      const first = await urls('start_date=2025-03-01&end_date=2025-03-01')
      expect(first.data.urls.find((u: UrlRecord) => u.url === CRM)).toMatchObject({ title: 'CRM - Wikipedia', citation_count: 2, last_cited: '2025-03-01T15:00:00.000Z' })
      // 02-28..03-04 adds r6 and r7 to census: 3 responses, first 02-28 23:59:59, last 03-04 00:00
      const wide = await urls('start_date=2025-02-28&end_date=2025-03-04')
      expect(wide.data.urls.slice(0, 2)).toEqual([
        expect.objectContaining({ url: CENSUS, citation_count: 3, first_cited: '2025-02-28T23:59:59.000Z', last_cited: '2025-03-04T00:00:00.000Z' }),
        expect.objectContaining({ url: CRM, citation_count: 3 }),
      ])
    })

    it('filters by source_id (a domain; host or URL forms map to it)', async () => {
      for (const source of ['rival.com', 'www.Rival.COM', 'https://rival.com/anything']) {
        const body = await urls(`${RANGE}&source_id=${encodeURIComponent(source)}`)
        expect(counts(body.data.urls), source).toEqual([
          [FEATURES, 1],
          [PRICING, 1],
        ])
        expect(body.data.pagination.total_items).toBe(2)
      }
      // wikipedia.org holds both wikipedia.org and en.wikipedia.org URLs
      expect(counts((await urls(`${RANGE}&source_id=wikipedia.org`)).data.urls)).toEqual([
        [CRM, 3],
        [INVOICE, 1],
      ])
      // AND with other filters: openai only → CRM by r1, r5
      expect(counts((await urls(`${RANGE}&source_id=wikipedia.org&models=openai`)).data.urls)).toEqual([
        [CRM, 2],
        [INVOICE, 1],
      ])
      // an unknown source is an empty list, not an error
      const none = await urls(`${RANGE}&source_id=nothing.example`)
      expect(none.data.urls).toEqual([])
      expect(none.data.pagination).toEqual({ page: 1, per_page: 20, total_items: 0, total_pages: 0, has_next: false, has_prev: false })
      expect(none.message).toBe('Retrieved 0 URLs')
    })

    it('filters by models, model_ids and tags', async () => {
      // anthropic: r2 only → three URLs cited once; ties by url; CRM's only title in R is empty
      const anthropic = await urls(`${RANGE}&models=anthropic`)
      expect(counts(anthropic.data.urls)).toEqual([
        [FEATURES, 1],
        [PRICING, 1],
        [CRM, 1],
      ])
      expect(anthropic.data.urls[2].title).toBe('')
      // gpt-4o: r1, r3, r5 → acme 2 (r1, r3), CRM 2 (r1, r5) tie → url asc; census 1, invoice 1
      expect(counts((await urls(`${RANGE}&model_ids=gpt-4o`)).data.urls)).toEqual([
        [ACME, 2],
        [CRM, 2],
        [CENSUS, 1],
        [INVOICE, 1],
      ])
      // billing: P2's r3 (r4 cites nothing)
      expect(counts((await urls(`${RANGE}&tags=billing`)).data.urls)).toEqual([
        [ACME, 1],
        [INVOICE, 1],
      ])
      // b2b OR billing: everything
      expect((await urls(`${RANGE}&tags[]=b2b&tags[]=billing`)).data.pagination.total_items).toBe(6)
      // billing AND anthropic: r4 only, no citations
      expect((await urls(`${RANGE}&tags=billing&models=anthropic`)).data.urls).toEqual([])
    })

    it('paginates with has_next/has_prev', async () => {
      const first = await urls(`${RANGE}&per_page=1`)
      expect(counts(first.data.urls)).toEqual([[CRM, 3]])
      expect(first.data.pagination).toEqual({ page: 1, per_page: 1, total_items: 6, total_pages: 6, has_next: true, has_prev: false })
      expect(first.message).toBe('Retrieved 1 URL')
      const second = await urls(`${RANGE}&per_page=4&page=2`)
      expect(counts(second.data.urls)).toEqual([
        [FEATURES, 1],
        [PRICING, 1],
      ])
      expect(second.data.pagination).toEqual({ page: 2, per_page: 4, total_items: 6, total_pages: 2, has_next: false, has_prev: true })
      const past = await urls(`${RANGE}&page=2`)
      expect(past.data.urls).toEqual([])
      expect(past.data.pagination).toEqual({ page: 2, per_page: 20, total_items: 6, total_pages: 1, has_next: false, has_prev: true })
      expect((await urls(`${RANGE}&per_page=100`)).data.urls).toHaveLength(6)
    })
  })

  describe('/urls-detailed', () => {
    it('adds zero-filled daily charts and sorted providers, without message or nav fields', async () => {
      const body = await detailed(RANGE)
      expect(Object.keys(body).sort()).toEqual(['data', 'success'])
      expect(body.data.pagination).toEqual({ page: 1, per_page: 20, total_items: 6, total_pages: 1 })
      const days = (c1: number, c2: number, c3: number) => [
        { date: '2025-03-01', count: c1 },
        { date: '2025-03-02', count: c2 },
        { date: '2025-03-03', count: c3 },
      ]
      expect(body.data.urls).toEqual([
        {
          url: CRM,
          domain: 'wikipedia.org',
          title: 'Customer relationship management - Wikipedia',
          citation_count: 3,
          first_cited: '2025-03-01T10:00:00.000Z',
          last_cited: '2025-03-03T23:30:00.000Z',
          daily_chart: days(2, 0, 1),
          providers_citing: ['anthropic', 'openai'],
        },
        {
          url: ACME,
          domain: 'acme.com',
          title: 'Acme pricing',
          citation_count: 2,
          first_cited: '2025-03-01T10:00:00.000Z',
          last_cited: '2025-03-02T09:00:00.000Z',
          daily_chart: days(1, 1, 0),
          providers_citing: ['openai'],
        },
        {
          url: CENSUS,
          domain: 'census.gov',
          title: '',
          citation_count: 1,
          first_cited: '2025-03-01T10:00:00.000Z',
          last_cited: '2025-03-01T10:00:00.000Z',
          daily_chart: days(1, 0, 0),
          providers_citing: ['openai'],
        },
        {
          url: INVOICE,
          domain: 'wikipedia.org',
          title: 'Invoice - Wikipedia',
          citation_count: 1,
          first_cited: '2025-03-02T09:00:00.000Z',
          last_cited: '2025-03-02T09:00:00.000Z',
          daily_chart: days(0, 1, 0),
          providers_citing: ['openai'],
        },
        {
          url: FEATURES,
          domain: 'rival.com',
          title: '',
          citation_count: 1,
          first_cited: '2025-03-01T15:00:00.000Z',
          last_cited: '2025-03-01T15:00:00.000Z',
          daily_chart: days(1, 0, 0),
          providers_citing: ['anthropic'],
        },
        {
          url: PRICING,
          domain: 'rival.com',
          title: '',
          citation_count: 1,
          first_cited: '2025-03-01T15:00:00.000Z',
          last_cited: '2025-03-01T15:00:00.000Z',
          daily_chart: days(1, 0, 0),
          providers_citing: ['anthropic'],
        },
      ])
    })

    it('charts every day of a wider range', async () => {
      // 02-27..03-04: census gains r6 (02-28) and r7 (03-04): 3 responses over 6 days
      const body = await detailed('start_date=2025-02-27&end_date=2025-03-04&per_page=1')
      expect(body.data.urls[0]).toMatchObject({ url: CENSUS, citation_count: 3, providers_citing: ['openai'] })
      expect(body.data.urls[0].daily_chart).toEqual([
        { date: '2025-02-27', count: 0 },
        { date: '2025-02-28', count: 1 },
        { date: '2025-03-01', count: 1 },
        { date: '2025-03-02', count: 0 },
        { date: '2025-03-03', count: 0 },
        { date: '2025-03-04', count: 1 },
      ])
    })

    it('filters by prompt_template_id and the shared filters', async () => {
      // P2: r3 only (r4 cites nothing); acme's only citation in R (r3) had no title
      const p2Body = await detailed(`${RANGE}&prompt_template_id=${p2}`)
      expect(p2Body.data.urls.map((u: UrlRecord) => [u.url, u.citation_count, u.title, u.providers_citing])).toEqual([
        [ACME, 1, '', ['openai']],
        [INVOICE, 1, 'Invoice - Wikipedia', ['openai']],
      ])
      expect(p2Body.data.urls[0].daily_chart.map((d: { count: number }) => d.count)).toEqual([0, 1, 0])
      // P1: r1, r2, r5 → CRM 3, then acme, census, features, pricing with 1 each
      expect(counts((await detailed(`${RANGE}&prompt_template_id=${p1}`)).data.urls)).toEqual([
        [CRM, 3],
        [ACME, 1],
        [CENSUS, 1],
        [FEATURES, 1],
        [PRICING, 1],
      ])
      // P1 AND anthropic: r2 → CRM once, by anthropic only
      const both = await detailed(`${RANGE}&prompt_template_id=${p1}&models=anthropic`)
      expect(both.data.urls.find((u: UrlRecord) => u.url === CRM)).toMatchObject({ citation_count: 1, providers_citing: ['anthropic'], title: '' })
      // model_ids=gpt-4o: CRM is cited by openai only
      const gpt = await detailed(`${RANGE}&model_ids=gpt-4o`)
      expect(gpt.data.urls.find((u: UrlRecord) => u.url === CRM)).toMatchObject({
        citation_count: 2,
        providers_citing: ['openai'],
        daily_chart: [
          { date: '2025-03-01', count: 1 },
          { date: '2025-03-02', count: 0 },
          { date: '2025-03-03', count: 1 },
        ],
      })
      expect(counts((await detailed(`${RANGE}&tags=billing`)).data.urls)).toEqual([
        [ACME, 1],
        [INVOICE, 1],
      ])
    })

    it('paginates without has_next/has_prev', async () => {
      const second = await detailed(`${RANGE}&per_page=2&page=2`)
      expect(counts(second.data.urls)).toEqual([
        [CENSUS, 1],
        [INVOICE, 1],
      ])
      expect(second.data.pagination).toEqual({ page: 2, per_page: 2, total_items: 6, total_pages: 3 })
      const past = await detailed(`${RANGE}&per_page=2&page=4`)
      expect(past.data.urls).toEqual([])
      expect(past.data.pagination).toEqual({ page: 4, per_page: 2, total_items: 6, total_pages: 3 })
      expect((await detailed(`${RANGE}&per_page=100`)).data.urls).toHaveLength(6)
    })
  })

  it('rejects bad parameters with 400', async () => {
    for (const [path, param, code] of [
      ['/api/v1/urls?per_page=101', 'per_page', 'invalid_parameter'],
      ['/api/v1/urls-detailed?per_page=101', 'per_page', 'invalid_parameter'],
      ['/api/v1/urls?page=0', 'page', 'invalid_parameter'],
      ['/api/v1/urls?source_id=a.com&source_id=b.com', 'source_id', 'invalid_parameter'],
      // each endpoint takes its own extra filter only
      ['/api/v1/urls?prompt_template_id=00000000-0000-4000-8000-000000000000', 'prompt_template_id', 'unknown_parameter'],
      ['/api/v1/urls-detailed?source_id=acme.com', 'source_id', 'unknown_parameter'],
      ['/api/v1/urls-detailed?prompt_template_id=123', 'prompt_template_id', 'invalid_parameter'],
      ['/api/v1/urls?models=bing', 'models', 'invalid_parameter'],
      ['/api/v1/urls-detailed?model_ids=unknown-model', 'model_ids', 'invalid_parameter'],
    ] as const) {
      const response = await ctx.get(path, a.key)
      expect(response.statusCode, path).toBe(400)
      expect(response.json().error, path).toMatchObject({ code, param })
    }
  })

  it('keeps workspaces apart', async () => {
    for (const id of [foreignPrompt, '00000000-0000-4000-8000-000000000000']) {
      const response = await ctx.get(`/api/v1/urls-detailed?${RANGE}&prompt_template_id=${id}`, a.key)
      expect(response.statusCode).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    // B: three google responses each citing the same three URLs, its own title for CRM
    const theirs = await detailed(RANGE, b.key)
    expect(theirs.data.urls.map((u: UrlRecord) => [u.url, u.citation_count, u.title, u.providers_citing])).toEqual([
      [CENSUS, 3, '', ['google']],
      ['https://other-site.com/x', 3, '', ['google']],
      [CRM, 3, 'Workspace B title', ['google']],
    ])
    // A's CRM keeps its own count, title and providers (also asserted exactly above)
    const ours = await urls(RANGE)
    expect(JSON.stringify(ours)).not.toContain('Workspace B title')
    expect(JSON.stringify(ours)).not.toContain('other-site.com')
  })
})
