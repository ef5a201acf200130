// Schedules: a due slot creates one run, once, even when several instances look at the same
// moment; a target that missed many slots while Beacon was down fires once, not per slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'
import { scheduleDueRuns } from '../../src/collection/scheduler.js'
import { latestSlot } from '../../src/collection/schedule.js'
import { addTarget } from './helpers.js'

describe('schedule slots', () => {
  it('the latest slot in the target time zone, a slot exactly now included', () => {
    expect(latestSlot('0 6 * * *', 'Europe/Berlin', new Date('2026-07-01T12:00:00Z'))?.toISOString()).toBe('2026-07-01T04:00:00.000Z')
    expect(latestSlot('0 6 * * *', 'UTC', new Date('2026-07-01T06:00:00Z'))?.toISOString()).toBe('2026-07-01T06:00:00.000Z')
    expect(latestSlot('0 6 * * *', 'UTC', new Date('2026-07-01T05:59:59Z'))?.toISOString()).toBe('2026-06-30T06:00:00.000Z')
  })
})

describe.each(testBackends)('collection scheduler (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000 })
  }, 120_000)
  afterAll(() => ctx.close())

  const runsOf = async (workspaceId: string) =>
    ctx.database.db.selectFrom('collection_run').select(['id', 'trigger', 'target_ids']).where('workspace_id', '=', workspaceId).execute()

  it('a target down for three days fires once, then once per new slot', async () => {
    const { key, workspaceId } = await ctx.tenant()
    await createPrompt(ctx, key, 'Best CRM?')
    const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *' })
    const now = new Date()
    await ctx.database.db
      .updateTable('collection_target')
      .set({ last_scheduled_at: new Date(now.getTime() - 3 * 86_400_000) })
      .where('id', '=', target)
      .execute()
    const first = await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, now)
    expect(first).toHaveLength(1)
    expect(await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, now)).toEqual([])
    expect(await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, new Date(now.getTime() + 3_600_000))).toHaveLength(1)
    const runs = await runsOf(workspaceId)
    expect(runs).toHaveLength(2)
    expect(runs.every((r) => r.trigger === 'schedule' && r.target_ids?.[0] === target)).toBe(true)
  })

  it('a new target does not fire for a slot that passed before it existed; disabled ones never fire', async () => {
    const { key, workspaceId } = await ctx.tenant()
    await createPrompt(ctx, key, 'Best CRM?')
    await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *' })
    await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *', enabled: false })
    expect(await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, new Date())).toEqual([])
    const later = await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, new Date(Date.now() + 3_600_000))
    expect(later).toHaveLength(1)
    expect(await runsOf(workspaceId)).toHaveLength(1)
  })

  it.runIf(backend === 'postgres')('two instances looking at the same moment create each due run once', async () => {
    const { key, workspaceId } = await ctx.tenant()
    await createPrompt(ctx, key, 'Best CRM?')
    const targets: string[] = []
    for (let i = 0; i < 5; i++) targets.push(await addTarget(ctx, key, { provider: 'openai', model: `gpt-4o-${i}`, api: 'demo', schedule: '0 * * * *' }))
    await ctx.database.db
      .updateTable('collection_target')
      .set({ last_scheduled_at: new Date(Date.now() - 86_400_000) })
      .where('workspace_id', '=', workspaceId)
      .execute()
    const other = await ctx.openInstance()
    try {
      const now = new Date()
      for (let round = 0; round < 3; round++) {
        const at = new Date(now.getTime() + round * 60 * 60_000)
        await Promise.all([scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, at), scheduleDueRuns(other.app.database.db, other.app.jobs.tasks, at)])
      }
      const runs = await runsOf(workspaceId)
      expect(runs).toHaveLength(15)
      for (const target of targets) expect(runs.filter((r) => r.target_ids?.[0] === target)).toHaveLength(3)
    } finally {
      await other.close()
    }
  })
})
