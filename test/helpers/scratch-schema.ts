import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'

/**
 * A database of its own for a test that migrates step by step (backfills, a migration's up
 * and down): a fresh schema of TEST_DATABASE_URL on PostgreSQL, an in-memory PGlite
 * otherwise. `close` closes it and drops the schema.
 */
export async function openScratchDatabase(backend: string): Promise<{ database: DatabaseHandle; schema: string | undefined; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL
  const schema = backend === 'postgres' ? `test_${randomBytes(6).toString('hex')}` : undefined
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  if (schema) await admin(`create schema ${schema}`)
  const database = await openDatabase({ databaseUrl: schema ? url : 'memory://', dataDir: '', databasePoolSize: 2 }, { searchPath: schema })
  return {
    database,
    schema,
    close: async () => {
      await database.close()
      if (schema) await admin(`drop schema ${schema} cascade`)
    },
  }
}
