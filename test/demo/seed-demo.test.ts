import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { sql } from 'kysely'
import { DEMO_WORKSPACE_ID, seedDemo } from '../../src/demo/seed-demo.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'

const COUNTED = ['response', 'mention', 'citation', 'aio_observation', 'aio_appearance', 'brand', 'prompt', 'model'] as const

describe.each(testBackends)('demo workspace (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {}
    for (const table of COUNTED) {
      const row = await ctx.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', DEMO_WORKSPACE_ID)
        .executeTakeFirstOrThrow()
      out[table] = Number(row.n)
    }
    const sums = await ctx.database.db
      .selectFrom('mention')
      .select((eb) => [eb.fn.sum<number>('occurrences').as('occurrences'), eb.fn.sum<number>('position').as('positions')])
      .where('workspace_id', '=', DEMO_WORKSPACE_ID)
      .executeTakeFirstOrThrow()
    out.occurrences = Number(sums.occurrences)
    out.positions = Number(sums.positions)
    return out
  }

  it('is deterministic for a date, skips work when current, and rebuilds for a new date', async () => {
    const first = await seedDemo(ctx.database.db, { today: '2026-06-30' })
    expect(first.refreshed).toBe(true)
    const firstCounts = await counts()
    expect(firstCounts.response).toBe(first.responses)
    expect(firstCounts.mention).toBeGreaterThan(firstCounts.response) // several brands per answer
    expect(firstCounts.citation).toBeGreaterThan(0)
    expect(firstCounts.aio_appearance).toBeGreaterThan(0)

    const again = await seedDemo(ctx.database.db, { today: '2026-06-30' })
    expect(again.refreshed).toBe(false)
    expect(again.key).not.toBe(first.key)

    // A forced rebuild for the same date gives the very same numbers.
    await ctx.database.db.deleteFrom('response').where('workspace_id', '=', DEMO_WORKSPACE_ID).where('external_id', 'like', '%-p01-%').execute()
    expect((await counts()).response).toBeLessThan(firstCounts.response)
    // In smaller transactions (the embedded database's serve --demo seeds 100 at a time, so
    // requests wait less for each): the same numbers, and no transaction larger than asked.
    const progress: number[] = []
    const rebuilt = await seedDemo(ctx.database.db, { today: '2026-06-30', batchSize: 250, onProgress: (done) => progress.push(done) })
    expect(rebuilt.refreshed).toBe(true)
    expect(await counts()).toEqual(firstCounts)
    const steps = progress.map((done, i) => done - (progress[i - 1] ?? 0))
    expect(Math.max(...steps)).toBe(250)
    expect(progress.at(-1)).toBe(rebuilt.responses + rebuilt.observations)

    // The demo key works and the old one was revoked.
    expect((await ctx.get('/api/v1/filters', rebuilt.key)).statusCode).toBe(200)
    expect((await ctx.get('/api/v1/filters', first.key)).statusCode).toBe(401)

    // "Another day" by the injected clock: the refresh replaces every tenant table's rows,
    // so every rollup equals a rebuild from the facts (a missed table would double up).
    const later = await seedDemo(ctx.database.db, { clock: () => new Date('2026-07-01T09:30:00Z') })
    expect(later.refreshed).toBe(true)
    const range = (await ctx.get('/api/v1/filters', later.key)).json().data.date_range
    expect(range.latest_data).toBe('2026-07-01')
    // Nothing stored is dated after the clock that built it.
    const newest = await ctx.database.db
      .selectFrom('response')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('workspace_id', '=', DEMO_WORKSPACE_ID)
      .executeTakeFirstOrThrow()
    expect(new Date(newest.at as Date | string).getTime()).toBeLessThanOrEqual(Date.parse('2026-07-01T09:30:00Z'))
    expect(new Date(newest.at as Date | string).getTime()).toBeGreaterThan(Date.parse('2026-07-01T00:00:00Z'))
    const db = ctx.database.db
    const { rows } = await sql<{ facts: number; rolled: number }>`
      select (select sum(occurrences) from mention where workspace_id = ${DEMO_WORKSPACE_ID}) as facts,
             (select sum(occurrences) from monthly_brand_totals where workspace_id = ${DEMO_WORKSPACE_ID}) as rolled`.execute(db)
    expect(Number(rows[0].rolled)).toBe(Number(rows[0].facts))
    const refreshed = await rollupSnapshot(db, DEMO_WORKSPACE_ID)
    expect(refreshed.monthly_response_stats.length).toBeGreaterThan(0)
    await rebuildRollups(db, DEMO_WORKSPACE_ID)
    expectSameRollups(await rollupSnapshot(db, DEMO_WORKSPACE_ID), refreshed, expect)
  }, 300_000)
})
