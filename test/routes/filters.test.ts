import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { newId } from '../../src/db/ids.js'

describe.each(testBackends)('GET /api/v1/filters (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  async function populate(workspaceId: string, suffix: string) {
    const db = ctx.database.db
    const promptId = newId()
    await db
      .insertInto('prompt')
      .values({ workspace_id: workspaceId, id: promptId, text: `best tools ${suffix}`, tags: [`tag-${suffix}`, 'shared'] })
      .execute()
    await db
      .insertInto('model')
      .values({ workspace_id: workspaceId, id: `model-${suffix}`, provider: 'openai', name: `Model ${suffix}` })
      .execute()
    await db
      .insertInto('brand')
      .values([
        { workspace_id: workspaceId, id: newId(), name: `Brand ${suffix}`, domain: `${suffix}.example`, is_primary: true, updated_at: new Date() },
        { workspace_id: workspaceId, id: newId(), name: `Inactive ${suffix}`, is_active: false, updated_at: new Date() },
      ])
      .execute()
    for (const createdAt of ['2026-03-04T23:59:59Z', '2026-05-06T00:00:00Z']) {
      await db
        .insertInto('response')
        .values({ workspace_id: workspaceId, id: newId(), prompt_id: promptId, provider: 'openai', model: `model-${suffix}`, content: 'x', created_at: createdAt })
        .execute()
    }
  }

  it('an empty workspace gets the four providers, empty lists and null dates', async () => {
    const { key } = await ctx.tenant()
    const response = await ctx.get('/api/v1/filters', key)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      success: true,
      data: {
        providers: ['anthropic', 'google', 'openai', 'perplexity'],
        models: [],
        tags: [],
        brands: [],
        date_range: { earliest_data: null, latest_data: null },
      },
      message: expect.any(String),
    })
  })

  it('a populated workspace sees its own values only', async () => {
    const a = await ctx.tenant()
    const b = await ctx.tenant()
    await populate(a.workspaceId, 'a')
    await populate(b.workspaceId, 'b')
    const data = (await ctx.get('/api/v1/filters', a.key)).json().data
    expect(data.models).toEqual([{ id: 'model-a', provider: 'openai', name: 'Model a' }])
    expect(data.tags).toEqual(['shared', 'tag-a'])
    expect(data.brands).toEqual([{ id: expect.any(String), name: 'Brand a', is_primary: true }])
    expect(data.date_range).toEqual({ earliest_data: '2026-03-04', latest_data: '2026-05-06' })
    const serialized = JSON.stringify(data)
    expect(serialized).not.toContain('model-b')
    expect(serialized).not.toContain('tag-b')
    expect(serialized).not.toContain('Brand b')
  })
})
