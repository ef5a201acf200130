// The app's PostgreSQL connections run without JIT compilation (src/db/dialect.ts): with the
// server's default jit_above_cost, a rollup read on a large database was compiled on every
// request and JIT took longer than the read. A new connection and a reused one both say so.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

const postgres = testBackends.includes('postgres')

describe.skipIf(!postgres)('JIT on app connections (postgres)', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('postgres', { databasePoolSize: 2 })
  })
  afterAll(() => ctx.close())

  it('is off on every pooled connection, in and outside transactions', async () => {
    const jit = async () => (await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(ctx.database.db)).rows[0].jit
    // Two at once: both pool connections are opened, each must have the setting.
    const [first, second] = await Promise.all([
      ctx.database.db
        .transaction()
        .execute(async (trx) => (await sql<{ jit: string; pid: number }>`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx)).rows[0]),
      ctx.database.db
        .transaction()
        .execute(async (trx) => (await sql<{ jit: string; pid: number }>`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx)).rows[0]),
    ])
    expect(first.pid).not.toBe(second.pid)
    expect([first.jit, second.jit]).toEqual(['off', 'off'])
    expect(await jit()).toBe('off')
  })
})
