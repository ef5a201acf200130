// Two transactions that lock two rows in opposite orders deadlock on PostgreSQL; the
// server aborts one. retryOnConflict must turn that into a success for both, with every
// write applied exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { isRetryableConflict, retryOnConflict } from '../../src/db/retry-conflicts.js'
import type { DB } from '../../src/db/database.js'
import { sleep } from '../helpers/wait.js'

describe('isRetryableConflict', () => {
  it('knows deadlocks and serialization failures, nothing else', () => {
    expect(isRetryableConflict({ code: '40P01' })).toBe(true)
    expect(isRetryableConflict({ code: '40001' })).toBe(true)
    expect(isRetryableConflict({ code: '23505' })).toBe(false)
    expect(isRetryableConflict(new Error('x'))).toBe(false)
    expect(isRetryableConflict(null)).toBe(false)
  })
})

describe.each(testBackends)('retryOnConflict (%s)', (backend) => {
  let ctx: TestContext
  let db: DB
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    db = ctx.database.db
    await sql`create table retry_probe (id int primary key, n int not null)`.execute(db)
    await sql`insert into retry_probe values (1, 0), (2, 0)`.execute(db)
  })
  afterAll(() => ctx.close())

  it('rolls a failed attempt back to its savepoint and runs it again', async () => {
    let calls = 0
    const result = await db.transaction().execute((trx) =>
      retryOnConflict(
        trx,
        async (inner) => {
          calls += 1
          await sql`update retry_probe set n = n + 1 where id = 1`.execute(inner)
          if (calls === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
          return 'done'
        },
        { baseDelayMs: 1 },
      ),
    )
    expect(result).toBe('done')
    expect(calls).toBe(2)
    // The first attempt's update was undone: one increment, not two.
    const { rows } = await sql<{ n: number }>`select n from retry_probe where id = 1`.execute(db)
    expect(rows[0].n).toBe(1)
  })

  it('gives up after the bounded number of attempts, and never retries other errors', async () => {
    let calls = 0
    const deadlock = () => {
      calls += 1
      return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }))
    }
    await expect(retryOnConflict(db, deadlock, { attempts: 3, baseDelayMs: 1 })).rejects.toThrow('deadlock')
    expect(calls).toBe(3)
    calls = 0
    const other = () => {
      calls += 1
      return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }))
    }
    await expect(retryOnConflict(db, other, { baseDelayMs: 1 })).rejects.toThrow('duplicate key')
    expect(calls).toBe(1)
  })

  it.runIf(backend === 'postgres')('lets two transactions that deadlock both succeed, each write applied once', async () => {
    await sql`update retry_probe set n = 0`.execute(db)
    let retries = 0
    // Each takes one row, waits for the other to take the other row, then wants it.
    const writer = (first: number, second: number) =>
      db.transaction().execute((trx) =>
        retryOnConflict(
          trx,
          async (inner) => {
            await sql`update retry_probe set n = n + 1 where id = ${first}`.execute(inner)
            await sleep(150)
            await sql`update retry_probe set n = n + 10 where id = ${second}`.execute(inner)
          },
          { onRetry: () => (retries += 1), baseDelayMs: 5 },
        ),
      )
    await Promise.all([writer(1, 2), writer(2, 1)])
    expect(retries).toBeGreaterThanOrEqual(1) // the server did abort one of them
    const { rows } = await sql<{ id: number; n: number }>`select id, n from retry_probe order by id`.execute(db)
    expect(rows).toEqual([
      { id: 1, n: 11 },
      { id: 2, n: 11 },
    ])
  })
})
