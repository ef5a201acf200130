import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { refreshPlannerStatistics } from '../../src/db/dialect.js'

describe.each(testBackends)('planner statistics (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  const analyzedRows = async (table: string) => {
    const { rows } = await sql<{ reltuples: number }>`select reltuples::float8 as reltuples from pg_class where oid = to_regclass(${table})`.execute(ctx.database.db)
    return Number(rows[0].reltuples)
  }

  it.runIf(backend === 'pglite')('analyzes a table once it has grown by more than a tenth, and leaves it alone otherwise', async () => {
    const db = ctx.database.db
    await sql`create table stats_probe (id int primary key, v text)`.execute(db)
    await sql`insert into stats_probe select i, md5(i::text) from generate_series(1, 20000) as i`.execute(db)
    expect(await analyzedRows('stats_probe')).toBeLessThanOrEqual(0)

    expect(await refreshPlannerStatistics(ctx.database)).toContain('public.stats_probe')
    expect(await analyzedRows('stats_probe')).toBe(20000)

    // 5% more: below the trigger.
    await sql`insert into stats_probe select i, md5(i::text) from generate_series(20001, 21000) as i`.execute(db)
    expect(await refreshPlannerStatistics(ctx.database)).not.toContain('public.stats_probe')
    expect(await analyzedRows('stats_probe')).toBe(20000)

    // Doubled: analyzed again, unless a throttled call comes too soon after the last one.
    await sql`insert into stats_probe select i, md5(i::text) from generate_series(21001, 42000) as i`.execute(db)
    expect(await refreshPlannerStatistics(ctx.database, { throttle: true })).toEqual([])
    expect(await refreshPlannerStatistics(ctx.database)).toContain('public.stats_probe')
    expect(await analyzedRows('stats_probe')).toBe(42000)
  })

  it.runIf(backend === 'postgres')('does nothing on a server, where autovacuum keeps statistics', async () => {
    expect(await refreshPlannerStatistics(ctx.database)).toEqual([])
  })
})
