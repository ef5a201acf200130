import { Kysely } from 'kysely'
import type { Config } from '../config.js'
import { connect, type Backend, type Connection } from './dialect.js'
import type { Database } from './schema.js'

export type DB = Kysely<Database>

const CLOSE_TIMEOUT_MS = 10_000

/**
 * Responses per transaction for background writes (re-analysis, the demo's seeding): on the
 * embedded database 100, since PGlite has one connection and every request waits for the
 * transaction in progress to end (a batch of 100 keeps that wait under 750 ms on 2 cores:
 * README, "Security and reliability"; the demo seeded 1,000 at a time and reads waited up to
 * 2.2 s); on PostgreSQL undefined, the writer's own default.
 */
export const backgroundWriteBatch = (backend: Backend): number | undefined => (backend === 'pglite' ? 100 : undefined)

export interface DatabaseHandle {
  db: DB
  backend: Backend
  connection: Connection
  /** the schema search path the connections were opened with (tests use one schema per file) */
  searchPath?: string
  close(): Promise<void>
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
  options: { searchPath?: string; emptyCluster?: Blob } = {},
): Promise<DatabaseHandle> {
  const connection = await connect({
    emptyCluster: options.emptyCluster,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    searchPath: options.searchPath,
  })
  const db = new Kysely<Database>({ dialect: connection.dialect })
  let closed = false
  return {
    db,
    backend: connection.backend,
    connection,
    searchPath: options.searchPath,
    async close() {
      if (closed) return
      closed = true
      // Kysely's destroy ends the pool / closes PGlite through the driver. A pool waits for
      // every checked-out client; a client lost to a dead server must not hang shutdown.
      let timer: NodeJS.Timeout | undefined
      await Promise.race([db.destroy(), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()))])
      clearTimeout(timer)
      connection.afterDestroy()
    },
  }
}
