import { randomBytes } from 'node:crypto'
import { runAdminStatements } from '../../src/db/admin-statements.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { testDatabaseUrl } from './test-database.js'

/**
 * A database of its own for a test that migrates step by step (backfills, a migration's up
 * and down): a fresh schema of TEST_DATABASE_URL on PostgreSQL, an in-memory PGlite
 * otherwise. `close` closes it and drops the schema.
 */
export async function openScratchDatabase(backend: string): Promise<{ database: DatabaseHandle; schema: string | undefined; close: () => Promise<void> }> {
  const url = backend === 'postgres' ? testDatabaseUrl() : undefined
  const schema = url ? `test_${randomBytes(6).toString('hex')}` : undefined
  if (url) await runAdminStatements(url, `create schema ${schema}`)
  const database = await openDatabase({ databaseUrl: url ?? 'memory://', dataDir: '', databasePoolSize: 2 }, { searchPath: schema })
  return {
    database,
    schema,
    close: async () => {
      await database.close()
      if (url) await runAdminStatements(url, `drop schema ${schema} cascade`)
    },
  }
}
