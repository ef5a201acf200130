import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, ingest } from '../helpers/requests.js'

// Fixture (workspace A). Prompts Q1 tags [alpha], Q2 tags [beta].
// Models: gpt-4o, gpt-4o-mini = openai; claude-x = anthropic; gemini-x = google; sonar-x = perplexity.
//   s1  Q1 openai gpt-4o         07-01 08:00      'a'×199 + 😀 + 'tail'   emoji is code point 200
//   s1b Q1 anthropic claude-x    07-01 09:00      'a'×198 + 😀 + 'bbb'    emoji is code point 199
//   s2  Q1 anthropic claude-x    07-02 10:00      'b'×200 + 😀            emoji is code point 201: cut
//   s3  Q2 openai gpt-4o-mini    07-03 10:00      😀×300
//   s4  Q2 google gemini-x       07-04 10:00      ''                      (the only empty one)
//   s5  Q1 perplexity sonar-x    07-05 10:00      'short answer'
//   s7  Q1 openai gpt-4o         07-06 00:00:00   'tie one'  } same instant: id descending
//   s8  Q1 openai gpt-4o         07-06 00:00:00   'tie two'  }
//   s6  Q2 openai gpt-4o         06-30 23:59:59   'before'  (one second before July)
// July (07-01..07-31) holds 8: s1, s1b, s2, s3, s4, s5, s7, s8.
const JULY = 'start_date=2025-07-01&end_date=2025-07-31'
const EMOJI = '\u{1F600}'

interface Preview {
  id: string
  provider: string
  model: string
  content_preview: string
  created_at: string
}

describe.each(testBackends)('GET /api/v1/responses (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  /** response id by fixture name */
  const id: Record<string, string> = {}

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant()
    b = await ctx.tenant()
    const q1 = await createPrompt(ctx, a.key, 'first prompt', ['alpha'])
    const q2 = await createPrompt(ctx, a.key, 'second prompt', ['beta'])
    const fixtures: [string, string, string, string, string, string][] = [
      ['s1', q1, 'openai', 'gpt-4o', '2025-07-01T08:00:00Z', 'a'.repeat(199) + EMOJI + 'tail'],
      ['s1b', q1, 'anthropic', 'claude-x', '2025-07-01T09:00:00Z', 'a'.repeat(198) + EMOJI + 'bbb'],
      ['s2', q1, 'anthropic', 'claude-x', '2025-07-02T10:00:00Z', 'b'.repeat(200) + EMOJI],
      ['s3', q2, 'openai', 'gpt-4o-mini', '2025-07-03T10:00:00Z', EMOJI.repeat(300)],
      ['s4', q2, 'google', 'gemini-x', '2025-07-04T10:00:00Z', ''],
      ['s5', q1, 'perplexity', 'sonar-x', '2025-07-05T10:00:00Z', 'short answer'],
      ['s7', q1, 'openai', 'gpt-4o', '2025-07-06T00:00:00Z', 'tie one'],
      ['s8', q1, 'openai', 'gpt-4o', '2025-07-06T00:00:00Z', 'tie two'],
      ['s6', q2, 'openai', 'gpt-4o', '2025-06-30T23:59:59Z', 'before'],
    ]
    await ingest(
      ctx,
      a.key,
      fixtures.map(([name, prompt_id, provider, model, created_at, content]) => ({ external_id: name, prompt_id, provider, model, created_at, content })),
    )
    const stored = await ctx.database.db.selectFrom('response').select(['id', 'external_id']).where('workspace_id', '=', a.workspaceId).execute()
    for (const row of stored) id[row.external_id!] = row.id

    const foreignPrompt = await createPrompt(ctx, b.key, 'first prompt', ['alpha'])
    await ingest(ctx, b.key, [{ prompt_id: foreignPrompt, provider: 'openai', model: 'gpt-4o', created_at: '2025-07-02T00:00:00Z', content: 'not yours' }])
  })
  afterAll(() => ctx.close())

  const fetchList = async (query: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/responses?${query}`, key)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['data', 'success'])
    return body.data as { responses: Preview[]; pagination: { page: number; per_page: number; total_items: number } }
  }
  const names = (responses: Preview[]) => responses.map((r) => Object.entries(id).find(([, v]) => v === r.id)?.[0] ?? `foreign:${r.id}`)
  // Same instant: the larger id first.
  const tied = () =>
    [id.s7, id.s8]
      .sort()
      .reverse()
      .map((v) => (v === id.s7 ? 's7' : 's8'))

  it('lists responses newest first with exactly the spec fields and page, per_page, total_items', async () => {
    const data = await fetchList(JULY)
    expect(names(data.responses)).toEqual([...tied(), 's5', 's4', 's3', 's2', 's1b', 's1'])
    expect(data.pagination).toEqual({ page: 1, per_page: 20, total_items: 8 })
    const s5 = data.responses.find((r) => r.id === id.s5)!
    expect(s5).toEqual({ id: id.s5, provider: 'perplexity', model: 'sonar-x', content_preview: 'short answer', created_at: '2025-07-05T10:00:00.000Z' })
  })

  it('cuts previews at 200 code points without splitting a surrogate pair', async () => {
    const data = await fetchList(JULY)
    const preview = (name: string) => data.responses.find((r) => r.id === id[name])!.content_preview
    // Emoji as code point 200: kept whole (201 UTF-16 units), 'tail' cut.
    expect(preview('s1')).toBe('a'.repeat(199) + EMOJI)
    expect(preview('s1').length).toBe(201)
    // Emoji as code point 199, then one more character.
    expect(preview('s1b')).toBe('a'.repeat(198) + EMOJI + 'b')
    // Emoji as code point 201: left out entirely, no lone surrogate.
    expect(preview('s2')).toBe('b'.repeat(200))
    // 300 emojis → exactly 200 code points (400 UTF-16 units).
    expect(Array.from(preview('s3'))).toHaveLength(200)
    expect(preview('s3')).toBe(EMOJI.repeat(200))
    expect(preview('s4')).toBe('')
    // With the u flag a pair is one code point, so \p{Cs} only finds a lone surrogate.
    for (const r of data.responses) expect(/\p{Cs}/u.test(r.content_preview)).toBe(false)
  })

  it('filters by has_content', async () => {
    const withText = await fetchList(`${JULY}&has_content=true`)
    expect(withText.pagination.total_items).toBe(7)
    expect(names(withText.responses)).not.toContain('s4')
    const empty = await fetchList(`${JULY}&has_content=false`)
    expect(names(empty.responses)).toEqual(['s4'])
    expect(empty.pagination.total_items).toBe(1)
    expect((await fetchList(`${JULY}&has_content=1`)).pagination.total_items).toBe(7)
    expect((await fetchList(`${JULY}&has_content=0`)).pagination.total_items).toBe(1)
    const bad = await ctx.get(`/api/v1/responses?has_content=maybe`, a.key)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatchObject({ code: 'invalid_parameter', param: 'has_content' })
  })

  it('filters by dates, providers, model ids and tags: OR within, AND across', async () => {
    // total_items (from the response rollups without has_content) counts what the list holds.
    const sorted = async (query: string) => {
      const list = await fetchList(`${query}&per_page=100`)
      expect(list.pagination.total_items, query).toBe(list.responses.length)
      return names(list.responses).sort()
    }
    // Inclusive days: 07-02..07-04 → s2, s3, s4.
    expect(await sorted('start_date=2025-07-02&end_date=2025-07-04')).toEqual(['s2', 's3', 's4'])
    // s6 at 06-30 23:59:59 belongs to 06-30, not to July.
    expect(await sorted('start_date=2025-06-30&end_date=2025-06-30')).toEqual(['s6'])
    expect(await sorted(`${JULY}&models=openai`)).toEqual(['s1', 's3', 's7', 's8'])
    expect(await sorted(`${JULY}&models=google&models=perplexity`)).toEqual(['s4', 's5'])
    expect(await sorted(`${JULY}&model_ids=gpt-4o`)).toEqual(['s1', 's7', 's8'])
    expect(await sorted(`${JULY}&model_ids[]=gpt-4o-mini&model_ids[]=claude-x`)).toEqual(['s1b', 's2', 's3'])
    expect(await sorted(`${JULY}&models=openai&model_ids=gpt-4o-mini`)).toEqual(['s3'])
    expect(await sorted(`${JULY}&models=anthropic&model_ids=gpt-4o`)).toEqual([])
    expect(await sorted(`${JULY}&tags=beta`)).toEqual(['s3', 's4'])
    expect(await sorted(`${JULY}&tags=alpha,beta`)).toEqual(['s1', 's1b', 's2', 's3', 's4', 's5', 's7', 's8'])
    expect(await sorted(`${JULY}&tags=nope`)).toEqual([])
    expect(await sorted(`${JULY}&tags=beta&has_content=true`)).toEqual(['s3'])
    expect(await sorted(`start_date=2025-06-01&end_date=2025-07-02&tags=beta&models=openai`)).toEqual(['s6'])
  })

  it('paginates: per_page 1 and 100, 101 refused, a page past the end is empty', async () => {
    const order = [...tied(), 's5', 's4', 's3', 's2', 's1b', 's1']
    const one = await fetchList(`${JULY}&per_page=1&page=3`)
    expect(names(one.responses)).toEqual([order[2]])
    expect(one.pagination).toEqual({ page: 3, per_page: 1, total_items: 8 })
    const third = await fetchList(`${JULY}&per_page=3&page=3`)
    expect(names(third.responses)).toEqual(order.slice(6))
    const hundred = await fetchList(`${JULY}&per_page=100`)
    expect(names(hundred.responses)).toEqual(order)
    expect(hundred.pagination).toEqual({ page: 1, per_page: 100, total_items: 8 })
    const past = await fetchList(`${JULY}&per_page=3&page=4`)
    expect(past.responses).toEqual([])
    expect(past.pagination).toEqual({ page: 4, per_page: 3, total_items: 8 })
    for (const bad of ['per_page=101', 'per_page=0', 'page=0', 'page=-1']) {
      const response = await ctx.get(`/api/v1/responses?${bad}`, a.key)
      expect(response.statusCode, bad).toBe(400)
      expect(response.json().error).toMatchObject({ code: 'invalid_parameter', param: bad.split('=')[0] })
    }
  })

  it('rejects unknown parameters and unknown model ids', async () => {
    const unknown = await ctx.get('/api/v1/responses?content=1', a.key)
    expect(unknown.json().error).toMatchObject({ code: 'unknown_parameter', param: 'content' })
    const model = await ctx.get('/api/v1/responses?model_ids=nope', a.key)
    expect(model.json().error).toMatchObject({ code: 'invalid_parameter', param: 'model_ids' })
  })

  it("never shows another workspace's responses", async () => {
    const mine = await fetchList(JULY)
    expect(mine.responses.every((r) => Object.values(id).includes(r.id))).toBe(true)
    const theirs = await fetchList(JULY, b.key)
    expect(theirs.pagination.total_items).toBe(1)
    expect(theirs.responses[0].content_preview).toBe('not yours')
  })
})
