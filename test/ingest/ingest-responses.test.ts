import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post, settled } from '../helpers/requests.js'

describe.each(testBackends)('ingestion (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  let promptId: string
  let acme: string
  let globex: string
  beforeAll(async () => {
    ctx = await createTestContext(backend, { bodyLimitBytes: 1024 * 1024, jobsWorker: true })
    tenant = await ctx.tenant()
    promptId = await createPrompt(ctx, tenant.key, 'Best CRM for startups?', ['crm'])
    acme = await createBrand(ctx, tenant.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    globex = await createBrand(ctx, tenant.key, { name: 'Globex', aliases: ['Globex Corp'] })
  })
  afterAll(() => ctx.close())

  const item = (overrides: Record<string, unknown> = {}) => ({
    prompt_id: promptId,
    provider: 'openai',
    model: 'gpt-4o',
    content: 'Globex is decent. Acme is excellent and loved by teams. See https://www.acme.com/pricing?utm_source=x for details.',
    created_at: '2026-05-01T10:00:00Z',
    citations: [{ url: 'https://en.wikipedia.org/wiki/CRM', title: 'CRM - Wikipedia' }],
    ...overrides,
  })

  it('stores responses with mentions, positions, sentiment and citations', async () => {
    const result = await ingest(ctx, tenant.key, [item({ external_id: 'r1' })])
    expect(result).toEqual({ accepted: 1, duplicates: 0 })
    const db = ctx.database.db
    const mentions = await db.selectFrom('mention').selectAll().where('workspace_id', '=', tenant.workspaceId).orderBy('position').execute()
    expect(mentions.map((m) => [m.brand_id, m.position, m.occurrences])).toEqual([
      [globex, 1, 1],
      [acme, 2, 1], // the acme.com inside the URL is not counted
    ])
    expect(mentions[1].sentiment).toBeGreaterThan(0)
    const citations = await db.selectFrom('citation').select(['url', 'domain', 'title']).where('workspace_id', '=', tenant.workspaceId).orderBy('url').execute()
    expect(citations).toEqual([
      { url: 'https://acme.com/pricing', domain: 'acme.com', title: '' },
      { url: 'https://en.wikipedia.org/wiki/CRM', domain: 'wikipedia.org', title: 'CRM - Wikipedia' },
    ])
    const model = await db.selectFrom('model').selectAll().where('workspace_id', '=', tenant.workspaceId).execute()
    expect(model.map((m) => [m.id, m.provider])).toEqual([['gpt-4o', 'openai']])
  })

  it('treats a repeated external_id as a duplicate, in the batch and across retries', async () => {
    const batch = [item({ external_id: 'dup-1' }), item({ external_id: 'dup-2' }), item({ external_id: 'dup-1' })]
    expect(await ingest(ctx, tenant.key, batch)).toEqual({ accepted: 2, duplicates: 1 })
    expect(await ingest(ctx, tenant.key, batch)).toEqual({ accepted: 0, duplicates: 3 })
    const count = await ctx.database.db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', tenant.workspaceId)
      .where('external_id', 'in', ['dup-1', 'dup-2'])
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(2)
  })

  it('is all-or-nothing and lists every bad item', async () => {
    const before = await countResponses()
    const response = await post(ctx, '/api/v1/ingest/responses', tenant.key, {
      responses: [item({ external_id: 'ok-1' }), item({ provider: 'chatgpt' }), item({ created_at: 'yesterday' }), item({ content: 5 })],
    })
    expect(response.statusCode).toBe(400)
    const error = response.json().error
    expect(error.code).toBe('invalid_parameter')
    expect(error.details.map((d: { index: number; field: string }) => [d.index, d.field])).toEqual([
      [1, 'provider'],
      [2, 'created_at'],
      [3, 'content'],
    ])
    expect(error.message).toContain('openai, anthropic, google, perplexity')
    expect(await countResponses()).toBe(before)
  })

  it("rejects another workspace's prompt_id", async () => {
    const other = await ctx.tenant()
    const foreignPrompt = await createPrompt(ctx, other.key, 'Foreign prompt')
    const response = await post(ctx, '/api/v1/ingest/responses', tenant.key, { responses: [item(), item({ prompt_id: foreignPrompt })] })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details).toEqual([{ index: 1, field: 'prompt_id', message: expect.stringContaining('no prompt') }])
  })

  it('rejects a model used under a second provider', async () => {
    const response = await post(ctx, '/api/v1/ingest/responses', tenant.key, { responses: [item({ provider: 'google' })] })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.message).toContain('belongs to provider openai')
  })

  it('answers 413 for a body over the limit and 400 for more than 1,000 items', async () => {
    const big = await post(ctx, '/api/v1/ingest/responses', tenant.key, { responses: [item({ content: 'x'.repeat(1_100_000) })] })
    expect(big.statusCode).toBe(413)
    expect(big.json().error.code).toBe('payload_too_large')
    const many = await post(ctx, '/api/v1/ingest/responses', tenant.key, { responses: Array.from({ length: 1001 }, () => ({})) })
    expect(many.statusCode).toBe(400)
    expect(many.json().error.message).toContain('at most 1000')
  })

  it('needs the write:data scope', async () => {
    const reader = await ctx.tenant({ scopes: ['read:analytics'] })
    const response = await post(ctx, '/api/v1/ingest/responses', reader.key, { responses: [] })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('insufficient_scope')
  })

  it('re-analyses history when a brand is added or renamed', async () => {
    const t = await ctx.tenant()
    const p = await createPrompt(ctx, t.key, 'Which tool?')
    await ingest(ctx, t.key, [item({ prompt_id: p, content: 'Initech is great. Umbrella is terrible.', citations: [] })])
    const mentionsOf = async () =>
      await ctx.database.db
        .selectFrom('mention')
        .innerJoin('brand', (j) => j.onRef('brand.id', '=', 'mention.brand_id').onRef('brand.workspace_id', '=', 'mention.workspace_id'))
        .select(['brand.name', 'mention.position'])
        .where('mention.workspace_id', '=', t.workspaceId)
        .orderBy('mention.position')
        .execute()
    expect(await mentionsOf()).toEqual([])
    const umbrella = (await settled(ctx, t.workspaceId, await post(ctx, '/api/v1/brands', t.key, { name: 'Umbrella' }))).json().data.id
    expect(await mentionsOf()).toEqual([{ name: 'Umbrella', position: 1 }])
    await settled(ctx, t.workspaceId, await post(ctx, '/api/v1/brands', t.key, { name: 'Initech' }))
    expect(await mentionsOf()).toEqual([
      { name: 'Initech', position: 1 },
      { name: 'Umbrella', position: 2 },
    ])
    const renamed = await settled(ctx, t.workspaceId, await post(ctx, `/api/v1/brands/${umbrella}`, t.key, { name: 'Umbrella Corp' }, 'PATCH'))
    expect(renamed.statusCode).toBe(200)
    expect(await mentionsOf()).toEqual([{ name: 'Initech', position: 1 }])
  })

  async function countResponses(): Promise<number> {
    const row = await ctx.database.db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', tenant.workspaceId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }
})
