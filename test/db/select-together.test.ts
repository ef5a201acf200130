// selectTogether sends several selects as one statement and hands back each one's rows:
// the same rows, in the same order, with sums as numbers, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { selectTogether } from '../../src/queries/select-together.js'
import type { DB } from '../../src/db/database.js'

describe.each(testBackends)('selectTogether (%s)', (backend) => {
  let ctx: TestContext
  let db: DB
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    db = ctx.database.db
    await sql`create table together_probe (id int primary key, label text not null, amount bigint not null, tags text[] not null)`.execute(db)
    await sql`insert into together_probe select i, 'row ' || i, i::bigint * 1000000000, array['t' || (i % 3)] from generate_series(1, 50) as i`.execute(db)
  })
  afterAll(() => ctx.close())

  it('returns every select as its own rows, ordered as the select orders them', async () => {
    const ordered = sql<{ id: number; label: string }>`select id, label from together_probe order by amount desc, id limit 5`
    const grouped = sql<{ tag: string; total: number; n: number }>`select tags[1] as tag, sum(amount) as total, count(*) as n from together_probe group by 1 order by 1`
    const empty = sql<{ id: number }>`select id from together_probe where id < 0`
    const arrays = sql<{ tags: string[] }>`select tags from together_probe where id = 7`
    const result = await selectTogether(db, { ordered, grouped, empty, arrays })

    expect(result.ordered).toEqual([50, 49, 48, 47, 46].map((id) => ({ id, label: `row ${id}` })))
    expect(result.empty).toEqual([])
    expect(result.arrays).toEqual([{ tags: ['t1'] }])
    // The same sums as the select run on its own, as numbers (the driver gives bigint sums as text).
    const alone = await grouped.execute(db)
    expect(result.grouped).toEqual(alone.rows.map((row) => ({ tag: row.tag, total: Number(row.total), n: Number(row.n) })))
    expect(result.grouped.map((row) => typeof row.total)).toEqual(['number', 'number', 'number'])
    expect(result.grouped.reduce((sum, row) => sum + row.total, 0)).toBe(1275 * 1e9)
  })

  it('sees the request transaction: one statement, one snapshot', async () => {
    const seen = await db.transaction().execute(async (trx) => {
      await sql`insert into together_probe values (51, 'row 51', 1, array['t0'])`.execute(trx)
      return selectTogether(trx, {
        count: sql<{ n: number }>`select count(*) as n from together_probe`,
        newest: sql<{ id: number }>`select max(id) as id from together_probe`,
      })
    })
    expect(seen).toEqual({ count: [{ n: 51 }], newest: [{ id: 51 }] })
  })
})
