// The only place where PGlite and a PostgreSQL server differ. Everything above this file
// speaks one PostgreSQL dialect; here we only decide how to connect and make both
// drivers return the same JavaScript types.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setImmediate as nextLoopTurn } from 'node:timers/promises'
import { lockDataDir } from './data-dir-lock.js'
import { PGlite } from '@electric-sql/pglite'
import { PGliteDialect } from 'kysely-pglite-dialect'
import { PostgresDialect, sql, type Dialect, type Kysely } from 'kysely'
import pg from 'pg'
import { withPreparedStatements } from './prepared-statements.js'

export type Backend = 'pglite' | 'postgres'

// OIDs of the types whose default JS mapping differs between drivers.
const INT8 = 20
const NUMERIC = 1700
const DATE = 1082

// Counts (int8) and averages (numeric) come back as numbers; dates stay 'YYYY-MM-DD'
// strings so no local time zone ever shifts a day.
const toNumber = (value: string) => (value === null ? null : Number(value))
const keepString = (value: string) => value

let pgTypesConfigured = false
function configurePgTypes(): void {
  if (pgTypesConfigured) return
  pg.types.setTypeParser(INT8, toNumber)
  pg.types.setTypeParser(NUMERIC, toNumber)
  pg.types.setTypeParser(DATE, keepString)
  pgTypesConfigured = true
}

export interface Connection {
  backend: Backend
  dialect: Dialect
  /** the pg pool, when on a server: exports use it for cursors */
  pool?: pg.Pool
  /** the embedded database, when on PGlite */
  pglite?: PGlite
  /** what to release after Kysely's destroy has closed the pool or PGlite */
  afterDestroy(): void
}

export async function connect(options: {
  databaseUrl: string | undefined
  dataDir: string
  poolSize: number
  searchPath?: string
  /** how long to wait for a new server connection (default 5 s) */
  connectTimeoutMs?: number
  /**
   * The empty, migrated cluster a new embedded database loads (a `dumpDataDir` archive);
   * defaults to the one the build wrote. The test suite, which runs from the sources, builds
   * its own once per run (test/helpers/global-setup.ts).
   */
  emptyCluster?: Blob
}): Promise<Connection> {
  const { databaseUrl } = options
  if (databaseUrl && databaseUrl.startsWith('postgres')) {
    configurePgTypes()
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
    })
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {})
    // A checked-out client between queries has no listener of its own; a server shutdown
    // would emit an unhandled 'error' and kill the process. The query still rejects, and
    // the pool drops the broken client on release.
    pool.on('connect', (client) => {
      client.on('error', () => {})
      // No JIT compilation for the app's statements. PostgreSQL compiles a statement whose
      // estimated cost passes jit_above_cost, and estimates grow with the tables, not with
      // what a workspace reads: at 11M answers the dashboard under a tags and models filter
      // (a rollup read of ~1,700 pages, 30 ms) was compiled on every request, 40–46 ms of
      // JIT each, three times its time on a 1M database (README, "Beyond one server"). The
      // rollup rebuild already ran without it (REBUILD_SETTINGS). Queued on the new client
      // before the checkout's first query; a server without JIT ignores the setting.
      client.query('set jit = off').catch(() => {})
    })
    return { backend: 'postgres', dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }), pool, afterDestroy: () => {} }
  }
  const parsers = {
    [INT8]: toNumber,
    [NUMERIC]: toNumber,
    [DATE]: keepString,
  }
  if (databaseUrl === 'memory://') {
    const pglite = await PGlite.create({ parsers, loadDataDir: options.emptyCluster ?? emptyDatabaseTemplate() })
    return { backend: 'pglite', dialect: new PGliteDialect(yieldingClient(pglite)), pglite, afterDestroy: () => {} }
  }
  mkdirSync(options.dataDir, { recursive: true })
  const release = lockDataDir(options.dataDir)
  try {
    const fresh = !existsSync(join(options.dataDir, 'PG_VERSION'))
    const pglite = await PGlite.create({ dataDir: options.dataDir, parsers, loadDataDir: fresh ? (options.emptyCluster ?? emptyDatabaseTemplate()) : undefined })
    const dialect = new PGliteDialect(yieldingClient(pglite))
    // The lock goes with close(), or with the process if it never gets there.
    process.once('exit', release)
    return { backend: 'pglite', dialect, pglite, afterDestroy: release }
  } catch (error) {
    release()
    throw error
  }
}

// PGlite runs each query synchronously on this thread, and a query's promise resolves as a
// microtask, so a batch of queries chained one after another (a re-analysis batch, an
// ingest) never lets the event loop reach its I/O phase: a /healthz or dashboard request
// that arrived meanwhile waits for the whole batch. Before a query, once this much time has
// passed since the last turn of the loop, we yield one turn (setImmediate runs after I/O).
// Measured with bench:heavy-tenants on PGlite: worst /healthz 3.6 s -> 0.54 s.
const YIELD_AFTER_MS = 8

type PGliteClient = ConstructorParameters<typeof PGliteDialect>[0]

/** The client Kysely's PGlite driver uses (query and close), yielding to the event loop between queries. */
function yieldingClient(pglite: PGlite): PGliteClient {
  let lastTurn = performance.now()
  const client = {
    async query(text: string, params?: unknown[]) {
      if (performance.now() - lastTurn >= YIELD_AFTER_MS) {
        await nextLoopTurn()
        lastTurn = performance.now()
      }
      return pglite.query(text, params)
    },
    close: () => pglite.close(),
  }
  // The driver calls only query() and close(); the cast states that narrower contract.
  return client as unknown as PGliteClient
}

// A table is analyzed again once its main fork has grown past this many pages plus this
// share of its size at the last analyze: about autovacuum's default trigger (10%).
const ANALYZE_MIN_PAGES = 8
const ANALYZE_GROWTH = 1.1
const THROTTLE_MS = 10_000
const lastRefreshed = new WeakMap<object, number>()

/**
 * PostgreSQL's autovacuum re-gathers a table's planner statistics as it grows; PGlite runs
 * no autovacuum, so a table filled after it was created keeps the estimates of an empty
 * one and the planner picks plans made for a handful of rows. (Measured: each keyset page
 * of a 100,000-response export took 230 ms instead of about 1 ms, because the planner
 * walked one prompt's index and sorted every row of it.) This analyzes the tables of the
 * current schema that grew by more than a tenth since their last analyze. Call it after
 * writes and before long reads; with `throttle`, at most once every 10 s. On a
 * PostgreSQL server it does nothing: autovacuum is there.
 */
export async function refreshPlannerStatistics<DB>(database: { db: Kysely<DB>; backend: Backend }, options: { throttle?: boolean } = {}): Promise<string[]> {
  if (database.backend !== 'pglite') return []
  const now = Date.now()
  if (options.throttle && now - (lastRefreshed.get(database.db) ?? 0) < THROTTLE_MS) return []
  lastRefreshed.set(database.db, now)
  // relpages is what the last analyze saw (0 before the first one).
  const { rows } = await sql<{ name: string }>`
    select format('%I.%I', n.nspname, c.relname) as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = current_schema()
      and pg_relation_size(c.oid) > (${sql.lit(ANALYZE_MIN_PAGES)} + ${sql.lit(ANALYZE_GROWTH)} * greatest(c.relpages, 0)) * current_setting('block_size')::int`.execute(
    database.db,
  )
  // Names come from the catalog, quoted by format('%I').
  if (rows.length) await sql.raw(`analyze ${rows.map((row) => row.name).join(', ')}`).execute(database.db)
  return rows.map((row) => row.name)
}

/**
 * The empty, migrated cluster the build writes at install (scripts/build-server.mjs), when
 * running from the build: a new embedded database loads it instead of running PostgreSQL's
 * initdb inside PGlite, which costs seconds of CPU on every fresh start (docs/performance.md).
 * From the sources (tests) there is none, and PGlite creates the cluster itself.
 */
function emptyDatabaseTemplate(): Blob | undefined {
  const template = new URL('../empty-database.tar.gz', import.meta.url)
  return existsSync(template) ? new Blob([readFileSync(template)]) : undefined
}
