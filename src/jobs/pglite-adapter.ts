// pg-boss on the embedded database (docs/jobs.md). pg-boss accepts `db: { executeSql }`
// instead of a pool. Its migrations and maintenance send multi-statement scripts without
// parameters, which PGlite runs only through `exec`; everything with parameters goes through
// the extended protocol (`query`). Both go through Kysely's one PGlite connection, so a
// pg-boss statement never lands inside a transaction Kysely has open on that connection.
import { CompiledQuery } from 'kysely'
import type { PGlite } from '@electric-sql/pglite'
import type { DB } from '../db/database.js'

export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

export function pgliteExecutor(db: DB, pglite: PGlite): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (values === undefined || values.length === 0) {
        // Held for the whole script: Kysely's driver hands its single connection to one user at a time.
        return db.connection().execute(async () => {
          const results = await pglite.exec(text)
          return { rows: results.at(-1)?.rows ?? [] }
        })
      }
      const result = await db.executeQuery(CompiledQuery.raw(text, values))
      return { rows: [...result.rows] }
    },
  }
}

/** pg-boss statements inside a Kysely transaction (or on its connection): a job is enqueued atomically with the write that needs it. */
export function kyselyExecutor(db: DB): SqlExecutor {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []))
      return { rows: [...result.rows] }
    },
  }
}
