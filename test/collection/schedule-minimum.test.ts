// COLLECTION_MIN_INTERVAL_MINUTES (default 60; docs/collection.md): a schedule firing more often
// is refused on create and patch with a 400 that names the minimum, and the scheduler never runs
// a target more often, whatever its stored schedule says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, post } from '../helpers/requests.js'
import { scheduleDueRuns } from '../../src/collection/scheduler.js'
import { checkSchedule, shortestGapMinutes } from '../../src/collection/schedule.js'
import { loadConfig } from '../../src/config.js'
import { AppError } from '../../src/core/errors.js'
import { addTarget } from './helpers.js'

describe('the shortest gap of a schedule', () => {
  it('from the day’s firing times and across midnight', () => {
    const gaps = Object.fromEntries(
      ['* * * * *', '*/5 * * * *', '15,45 * * * *', '0 * * * *', '0 */2 * * *', '0 6 * * *', '0 6 * * 1', '0 0,23 * * 1', '30 23,0 * * *', '0 9-17 * * 1-5'].map((s) => [
        s,
        shortestGapMinutes(s),
      ]),
    )
    expect(gaps).toEqual({
      '* * * * *': 1,
      '*/5 * * * *': 5,
      '15,45 * * * *': 30,
      '0 * * * *': 60,
      '0 */2 * * *': 120,
      '0 6 * * *': 1440,
      '0 6 * * 1': 1440,
      '0 0,23 * * 1': 60,
      '30 23,0 * * *': 60,
      '0 9-17 * * 1-5': 60,
    })
  })

  it('checkSchedule refuses what fires more often than the minimum, naming it and the setting', () => {
    const refusal = (schedule: string, min?: number) => {
      try {
        checkSchedule(schedule, 'UTC', min)
        return 'accepted'
      } catch (error) {
        expect(error).toBeInstanceOf(AppError)
        return (error as AppError).message
      }
    }
    expect(refusal('*/5 * * * *')).toBe(
      'schedule "*/5 * * * *" fires 5 minutes apart; a target may run at most every 60 minutes (COLLECTION_MIN_INTERVAL_MINUTES). Use e.g. "0 * * * *" for hourly or "0 6 * * *" for 06:00 daily',
    )
    expect(refusal('0 * * * *')).toBe('accepted')
    expect(refusal('0 * * * *', 120)).toMatch(/fires 60 minutes apart; a target may run at most every 120 minutes .*Use e.g. "0 6 \* \* \*"/)
    expect(refusal('*/5 * * * *', 5)).toBe('accepted')
  })

  it('COLLECTION_MIN_INTERVAL_MINUTES defaults to 60 and is at most a day', () => {
    expect(loadConfig({}).collectionMinIntervalMinutes).toBe(60)
    expect(loadConfig({ COLLECTION_MIN_INTERVAL_MINUTES: '15' }).collectionMinIntervalMinutes).toBe(15)
    expect(() => loadConfig({ COLLECTION_MIN_INTERVAL_MINUTES: '2000' })).toThrow(/between 1 and 1440/)
  })
})

describe.each(testBackends)('the minimum interval on targets and the scheduler (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000 })
  }, 120_000)
  afterAll(() => ctx.close())

  it('refuses a schedule more often than hourly on create and patch (400 naming the minimum)', async () => {
    const { key } = await ctx.tenant()
    const created = await post(ctx, '/api/v1/collection/targets', key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '*/15 * * * *' })
    expect(created.statusCode).toBe(400)
    expect(created.json().error).toMatchObject({ param: 'schedule', message: expect.stringContaining('at most every 60 minutes (COLLECTION_MIN_INTERVAL_MINUTES)') })
    const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *' })
    const patched = await post(ctx, `/api/v1/collection/targets/${target}`, key, { schedule: '0,30 * * * *' }, 'PATCH')
    expect([patched.statusCode, patched.json().error?.param]).toEqual([400, 'schedule'])
    expect((await ctx.get(`/api/v1/collection/targets/${target}`, key)).json().data.schedule).toBe('0 * * * *')
    // An hourly schedule in another time zone is fine.
    expect((await post(ctx, `/api/v1/collection/targets/${target}`, key, { schedule: '30 * * * *', timezone: 'Asia/Kolkata' }, 'PATCH')).statusCode).toBe(200)
  })

  const runsOf = async (workspaceId: string) => ctx.database.db.selectFrom('collection_run').select(['id', 'trigger']).where('workspace_id', '=', workspaceId).execute()

  it('runs a stored every-5-minutes schedule at most hourly; with the minimum at 5 it runs every 5 minutes', async () => {
    for (const [minIntervalMinutes, expected] of [
      [undefined, 2],
      [5, 13],
    ] as const) {
      const { key, workspaceId } = await ctx.tenant()
      await createPrompt(ctx, key, 'Best CRM?')
      const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *' })
      // Saved before the minimum existed (the API refuses it now). The passes look at an hour in
      // the past: the runs they create are stamped with the real time, after all of them.
      const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000)
      await ctx.database.db
        .updateTable('collection_target')
        .set({ schedule: '*/5 * * * *', last_scheduled_at: new Date(start.getTime() - 86_400_000) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', target)
        .execute()
      // One pass at each 5-minute slot for an hour, the next hour's first slot included.
      for (let minute = 0; minute <= 60; minute += 5) {
        await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, new Date(start.getTime() + minute * 60_000 + 1_000), { minIntervalMinutes })
      }
      const runs = await runsOf(workspaceId)
      expect(runs.length, `minimum ${minIntervalMinutes ?? 'default'}`).toBe(expected)
      expect(runs.every((run) => run.trigger === 'schedule')).toBe(true)
    }
  })

  it('a target created or rescheduled a minute before its slot still fires at that slot', async () => {
    const { key, workspaceId } = await ctx.tenant()
    await createPrompt(ctx, key, 'Best CRM?')
    const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo', schedule: '0 * * * *' })
    const slot = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000)
    await ctx.database.db
      .updateTable('collection_target')
      .set({ last_scheduled_at: new Date(slot.getTime() - 60_000) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', target)
      .execute()
    // (the pass looks at every workspace: the earlier tests' targets may fire too)
    const created = await scheduleDueRuns(ctx.database.db, ctx.app.jobs.tasks, new Date(slot.getTime() + 1_000))
    const runs = await runsOf(workspaceId)
    expect(runs).toHaveLength(1)
    expect(created).toContain(runs[0].id)
  })
})
