// Several processes share one PostgreSQL database (tenants' or test files' schemas): a schema
// dropped by another process while this one migrates must not fail the migration. Kysely
// lists every table of the database with pg_get_serial_sequence(name) to find its own
// bookkeeping tables, and a table whose schema is being dropped fails that listing (3F000).
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/migrate.js'
import { openScratchDatabase } from '../helpers/scratch-schema.js'

const url = process.env.TEST_DATABASE_URL

describe.skipIf(!url)('migrating beside schema drops (postgres)', () => {
  it('migrates fresh schemas while another connection creates and drops schemas with serial columns', async () => {
    const churn = new pg.Client({ connectionString: url })
    await churn.connect()
    let stop = false
    const churning = (async () => {
      while (!stop) {
        const schema = `churn_${randomBytes(5).toString('hex')}`
        await churn.query(`create schema ${schema}; create table ${schema}.t (id serial primary key, a int, b int, c int)`)
        await churn.query(`drop schema ${schema} cascade`)
      }
    })()
    const failures: string[] = []
    try {
      for (let round = 0; round < 12; round++) {
        const scratch = await openScratchDatabase('postgres')
        try {
          await migrateToLatest(scratch.database.db)
        } catch (error) {
          failures.push((error as Error).message)
        } finally {
          await scratch.close()
        }
      }
    } finally {
      stop = true
      await churning
      await churn.end()
    }
    expect(failures).toEqual([])
  }, 300_000)
})
