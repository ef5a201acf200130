import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, waitForJob, type TestContext } from '../helpers/test-app.js'
import { createPrompt, ingest, post } from '../helpers/requests.js'

describe.each(testBackends)('brand and prompt management (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true })
    tenant = await ctx.tenant()
  })
  afterAll(() => ctx.close())

  it('creates a brand with cleaned fields and returns 201 with the record', async () => {
    const response = await post(ctx, '/api/v1/brands', tenant.key, { name: '  Acme  ', domain: 'ACME.com', aliases: [' Acme Inc ', 'Acme Inc', ''], is_primary: true })
    expect(response.statusCode).toBe(201)
    expect(response.json().data).toMatchObject({ name: 'Acme', domain: 'acme.com', aliases: ['Acme Inc'], is_primary: true, is_active: true, discovery_status: 'confirmed' })
  })

  it('refuses a second primary brand, a duplicate name, an empty name and a bad domain', async () => {
    const second = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Other', is_primary: true })
    expect(second.statusCode).toBe(400)
    expect(second.json().error).toMatchObject({ param: 'is_primary' })
    expect(second.json().error.message).toContain('Acme')
    const duplicate = await post(ctx, '/api/v1/brands', tenant.key, { name: 'ACME' })
    expect(duplicate.json().error).toMatchObject({ code: 'invalid_parameter', param: 'name' })
    const empty = await post(ctx, '/api/v1/brands', tenant.key, { name: '   ' })
    expect(empty.statusCode).toBe(400)
    const missing = await post(ctx, '/api/v1/brands', tenant.key, { domain: 'x.com' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().error.param).toBe('name')
    const domain = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Bad', domain: 'https://bad.com/path' })
    expect(domain.json().error).toMatchObject({ code: 'invalid_parameter', param: 'domain' })
    const unknownField = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Z', colour: 'red' })
    expect(unknownField.statusCode).toBe(400)
    expect(unknownField.json().error.message).toContain('colour')
  })

  it('updates only what is sent; another workspace gets 404', async () => {
    const created = (await post(ctx, '/api/v1/brands', tenant.key, { name: 'Globex' })).json().data
    const updated = await post(ctx, `/api/v1/brands/${created.id}`, tenant.key, { is_active: false }, 'PATCH')
    expect(updated.statusCode).toBe(200)
    expect(updated.json().data).toMatchObject({ name: 'Globex', is_active: false })
    const other = await ctx.tenant()
    const foreign = await post(ctx, `/api/v1/brands/${created.id}`, other.key, { name: 'Mine now' }, 'PATCH')
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().error.code).toBe('not_found')
    const malformed = await post(ctx, '/api/v1/brands/not-a-uuid', tenant.key, { name: 'x' }, 'PATCH')
    expect(malformed.statusCode).toBe(400)
  })

  it('trims and de-duplicates prompt tags, and updates prompts', async () => {
    const response = await post(ctx, '/api/v1/prompts', tenant.key, { text: ' Best CRM? ', tags: [' crm ', 'crm', 'smb', ' '] })
    expect(response.statusCode).toBe(201)
    const prompt = response.json().data
    expect(prompt).toMatchObject({ text: 'Best CRM?', tags: ['crm', 'smb'], is_active: true })
    const updated = await post(ctx, `/api/v1/prompts/${prompt.id}`, tenant.key, { tags: ['enterprise'] }, 'PATCH')
    expect(updated.json().data).toMatchObject({ text: 'Best CRM?', tags: ['enterprise'] })
    expect((await post(ctx, '/api/v1/prompts', tenant.key, { text: '' })).statusCode).toBe(400)
    const other = await ctx.tenant()
    expect((await post(ctx, `/api/v1/prompts/${prompt.id}`, other.key, { text: 'x' }, 'PATCH')).statusCode).toBe(404)
  })

  it('a brand change re-analyses stored history in a background job the write returns', async () => {
    const t = await ctx.tenant()
    const promptId = await createPrompt(ctx, t.key, 'which crm')
    await ingest(ctx, t.key, [{ external_id: 'x1', prompt_id: promptId, provider: 'openai', model: 'gpt-4o', content: 'Initech beats Hooli.', created_at: '2026-05-01T10:00:00Z' }])
    const names = async () =>
      (
        await ctx.database.db
          .selectFrom('mention')
          .innerJoin('brand', (j) => j.onRef('brand.id', '=', 'mention.brand_id').onRef('brand.workspace_id', '=', 'mention.workspace_id'))
          .select('brand.name')
          .where('mention.workspace_id', '=', t.workspaceId)
          .orderBy('mention.position')
          .execute()
      ).map((r) => r.name)
    const created = await post(ctx, '/api/v1/brands', t.key, { name: 'Hooli' })
    expect(created.json().job.state).toBe('queued')
    expect(await waitForJob(ctx, t.workspaceId, created.json().job.id)).toMatchObject({
      state: 'succeeded',
      result: { responses: 1, observations: 0 },
      progress: { done: 1, total: 1 },
    })
    expect(await names()).toEqual(['Hooli'])
    const renamed = await post(ctx, `/api/v1/brands/${created.json().data.id}`, t.key, { aliases: ['Initech'] }, 'PATCH')
    expect((await waitForJob(ctx, t.workspaceId, renamed.json().job.id)).state).toBe('succeeded')
    const mention = await ctx.database.db.selectFrom('mention').select(['occurrences', 'position']).where('workspace_id', '=', t.workspaceId).executeTakeFirstOrThrow()
    expect(mention).toEqual({ occurrences: 2, position: 1 })
    const off = await post(ctx, `/api/v1/brands/${created.json().data.id}`, t.key, { is_active: false }, 'PATCH')
    expect((await waitForJob(ctx, t.workspaceId, off.json().job.id)).state).toBe('succeeded')
    expect(await names()).toEqual([])
  })

  it('needs manage:workspace', async () => {
    const reader = await ctx.tenant({ scopes: ['read:analytics', 'write:data'] })
    const response = await post(ctx, '/api/v1/prompts', reader.key, { text: 'x' })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.message).toContain('manage:workspace')
  })

  it('ingests AI overviews idempotently and finds brands in order', async () => {
    const t = await ctx.tenant()
    const promptId = await createPrompt(ctx, t.key, 'crm tools')
    await post(ctx, '/api/v1/brands', t.key, { name: 'Acme' })
    await post(ctx, '/api/v1/brands', t.key, { name: 'Globex' })
    const observations = [
      { external_id: 'a1', prompt_id: promptId, observed_at: '2026-05-01T08:00:00Z', has_aio: true, overview_text: 'Popular picks: Globex, then Acme.' },
      { external_id: 'a2', prompt_id: promptId, observed_at: '2026-05-01T09:00:00Z', has_aio: false },
    ]
    const first = await post(ctx, '/api/v1/ingest/aio', t.key, { observations })
    expect(first.json()).toEqual({ success: true, data: { accepted: 2, duplicates: 0 } })
    const again = await post(ctx, '/api/v1/ingest/aio', t.key, { observations })
    expect(again.json().data).toEqual({ accepted: 0, duplicates: 2 })
    const rows = await ctx.database.db
      .selectFrom('aio_appearance')
      .innerJoin('brand', (j) => j.onRef('brand.id', '=', 'aio_appearance.brand_id').onRef('brand.workspace_id', '=', 'aio_appearance.workspace_id'))
      .select(['brand.name', 'aio_appearance.position'])
      .where('aio_appearance.workspace_id', '=', t.workspaceId)
      .orderBy('aio_appearance.position')
      .execute()
    expect(rows).toEqual([
      { name: 'Globex', position: 1 },
      { name: 'Acme', position: 2 },
    ])
    const bad = await post(ctx, '/api/v1/ingest/aio', t.key, { observations: [{ prompt_id: promptId, observed_at: '2026-05-01', has_aio: 'yes' }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual(['observed_at', 'has_aio'])
  })
})
