// The lists behind `beacon brand list` and `beacon prompt list`: one workspace's rows only,
// in a stable order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBrand, listBrands } from '../../src/manage/brands.js'
import { createPrompt, listPrompts } from '../../src/manage/prompts.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import type { JobQueue } from '../../src/jobs/job-runtime.js'

// These tests look at the rows only: the re-analysis a brand write asks for is not needed.
const noJobs: JobQueue = { enqueue: async () => null }

describe.each(testBackends)('brand and prompt lists (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  it('lists the workspace brands primary first, then by name, and nothing of another workspace', async () => {
    const [mine, other] = [await ctx.tenant(), await ctx.tenant()]
    const db = ctx.database.db
    for (const name of ['Zeta', 'Acme']) await createBrand(db, mine.workspaceId, { name }, noJobs)
    await createBrand(db, mine.workspaceId, { name: 'Own', domain: 'own.com', is_primary: true }, noJobs)
    await createBrand(db, other.workspaceId, { name: 'Foreign' }, noJobs)
    const brands = await listBrands(db, mine.workspaceId)
    expect(brands.map((b) => b.name)).toEqual(['Own', 'Acme', 'Zeta'])
    expect(brands[0]).toMatchObject({ domain: 'own.com', is_primary: true, is_active: true, aliases: [] })
    expect(await listBrands(db, (await ctx.tenant()).workspaceId)).toEqual([])
  })

  it('lists the workspace prompts oldest first with their tags', async () => {
    const [mine, other] = [await ctx.tenant(), await ctx.tenant()]
    const db = ctx.database.db
    const first = await createPrompt(db, mine.workspaceId, { text: 'Best CRM?', tags: ['crm'] })
    const second = await createPrompt(db, mine.workspaceId, { text: 'Cheapest CRM?' })
    await createPrompt(db, other.workspaceId, { text: 'Not mine' })
    const prompts = await listPrompts(db, mine.workspaceId)
    expect(prompts.map((p) => p.id)).toEqual([first.id, second.id])
    expect(prompts[0]).toMatchObject({ text: 'Best CRM?', tags: ['crm'], is_active: true })
  })
})
