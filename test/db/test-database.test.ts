// The test helper creates TEST_DATABASE_URL's database when it is missing, even when
// several test files race to do it, and says clearly when PostgreSQL cannot be used.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { ensureTestDatabase } from '../helpers/test-database.js'

const url = process.env.TEST_DATABASE_URL

async function query(connectionString: string, statement: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    return (await client.query(statement, values)).rows
  } finally {
    await client.end()
  }
}

describe('ensureTestDatabase', () => {
  it('explains an unreachable server instead of failing later', async () => {
    await expect(ensureTestDatabase('postgres://postgres@127.0.0.1:1/nowhere')).rejects.toThrow(/cannot use PostgreSQL at 127\.0\.0\.1:1 .*unset TEST_DATABASE_URL/)
    await expect(ensureTestDatabase('postgres://postgres@127.0.0.1:5432/')).rejects.toThrow(/names no database/)
  })

  it.skipIf(!url)('creates a missing database once when eight callers race', async () => {
    const name = `beacon_fresh_${randomBytes(4).toString('hex')}`
    const fresh = new URL(url!)
    fresh.pathname = `/${name}`
    const admin = new URL(url!)
    admin.pathname = '/postgres'
    try {
      await Promise.all(Array.from({ length: 8 }, () => ensureTestDatabase(fresh.toString())))
      expect(await query(fresh.toString(), 'select current_database() as name')).toEqual([{ name }])
      await ensureTestDatabase(fresh.toString()) // exists: nothing to do
    } finally {
      await query(admin.toString(), `drop database if exists ${name}`)
    }
  })
})
