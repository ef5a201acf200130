// Marked statements run as named prepared statements on PostgreSQL (parsed once per
// connection, then bound); everything else stays unnamed. PGlite runs the same text.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepared, statementName } from '../../src/db/prepared-statements.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

describe('statementName', () => {
  it('names marked texts only, one name per text', () => {
    expect(statementName('select 1')).toBeUndefined()
    const first = statementName('/* prepared */ select 1 as test_one')
    expect(first).toMatch(/^beacon_\d+$/)
    expect(statementName('/* prepared */ select 1 as test_one')).toBe(first)
    expect(statementName('/* prepared */ select 2 as test_two')).not.toBe(first)
  })
})

describe.each(testBackends)('prepared statements (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { databasePoolSize: 1 })
  })
  afterAll(() => ctx.close())

  it('a marked statement gives the same rows, and on PostgreSQL is prepared once on its connection', async () => {
    const statement = (n: number) => prepared(sql<{ doubled: number }>`select ${n}::int * 2 as doubled`)
    await ctx.database.db.transaction().execute(async (trx) => {
      for (const n of [1, 2, 3, 4, 5, 6, 7]) expect((await statement(n).execute(trx)).rows).toEqual([{ doubled: n * 2 }])
      await sql`select ${1}::int as unmarked`.execute(trx)
      if (backend !== 'postgres') return
      const { rows } = await sql<{ statement: string; runs: number }>`
        select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where statement like '%doubled%' or statement like '%unmarked%'`.execute(trx)
      // One statement for seven executions; the unmarked one is not kept.
      expect(rows).toEqual([{ statement: expect.stringContaining('/* prepared */ select $1::int * 2 as doubled'), runs: 7 }])
    })
  })
})
