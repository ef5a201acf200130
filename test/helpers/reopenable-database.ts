// A database of its own that can be closed and opened again, as a restarted process would
// open it: a PGlite data directory, or a PostgreSQL schema (with one for pg-boss).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { runAdminStatements } from '../../src/db/admin-statements.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import type { TestBackend } from './test-app.js'
import { testDatabaseUrl } from './test-database.js'

export interface ReopenableDatabase {
  /** pg-boss's schema for this database */
  jobsSchema: string
  open(): Promise<DatabaseHandle>
  cleanup(): Promise<void>
}

export function reopenableDatabase(backend: TestBackend, prefix = 'beacon-jobs-'): ReopenableDatabase {
  const id = randomBytes(5).toString('hex')
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const schema = `test_${id}`
  const jobsSchema = `test_${id}_jobs`
  return {
    jobsSchema,
    async open(): Promise<DatabaseHandle> {
      if (backend === 'postgres') {
        const url = testDatabaseUrl()
        await runAdminStatements(url, `create schema if not exists ${schema}`)
        const database = await openDatabase({ databaseUrl: url, dataDir: dir, databasePoolSize: 4 }, { searchPath: schema })
        await migrateToLatest(database.db)
        return database
      }
      const database = await openDatabase({ databaseUrl: undefined, dataDir: dir, databasePoolSize: 1 })
      await migrateToLatest(database.db)
      return database
    },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true })
      if (backend === 'postgres') {
        await runAdminStatements(testDatabaseUrl(), `drop schema if exists ${schema} cascade`, `drop schema if exists ${jobsSchema} cascade`)
      }
    },
  }
}
