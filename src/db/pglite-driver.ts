// Kysely's driver for the embedded database, with requests served before background work.
// PGlite is one session: Kysely hands its single connection to one user at a time (a
// statement, or a whole transaction), so everyone else waits in a queue. With the queue of
// kysely-pglite-dialect (first come, first served) a dashboard read arriving during a
// re-analysis job queued behind the job's next batch read, its progress update and its
// transaction, and often behind the following batch's too: the worst /dashboard read
// during `npm run bench:reanalysis` was 1.1–3.4 s against 0.4–0.6 s idle in the same runs.
// Here work started by the job runtime (re-analysis, discovery, pg-boss's polling and
// bookkeeping) waits while a request is waiting, so a request waits for at most the one
// background hold in progress. So the job cannot starve under a steady stream of requests,
// a background user that has waited BACKGROUND_MAX_WAIT_MS goes next anyway.
import { AsyncLocalStorage } from 'node:async_hooks'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'

/** What the driver needs of PGlite: the yielding client of dialect.ts. */
export interface PGliteQueryClient {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>
  close(): Promise<void>
}

const background = new AsyncLocalStorage<true>()

/**
 * Runs `work` (and everything it starts: timers, pg-boss's polling loops) as background
 * work: on the embedded database its statements wait while a request's statement is waiting.
 */
export function runAsBackgroundWork<T>(work: () => T): T {
  return background.run(true, work)
}

export const isBackgroundWork = () => background.getStore() === true

// Long enough that a request's few statements get through between two background holds,
// short enough that a job under a steady read load still makes progress (a re-analysis batch
// is about four holds).
export const BACKGROUND_MAX_WAIT_MS = 250

interface Waiter {
  grant: (connection: PGliteConnection) => void
  since: number
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGliteQueryClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query(compiledQuery.sql, [...compiledQuery.parameters])
    return {
      rows: result.rows as R[],
      ...(result.affectedRows ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    }
  }

  // PGlite returns every row at once; Kysely's stream() gets them in chunks of that array.
  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize <= 0) throw new Error('chunkSize must be a positive integer')
    const { rows } = await this.executeQuery<R>(compiledQuery)
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) }
  }
}

export class PriorityPGliteDriver implements Driver {
  private readonly connection: PGliteConnection
  private busy = false
  private readonly requests: Waiter[] = []
  private readonly backgroundWaiters: Waiter[] = []

  constructor(
    private readonly client: PGliteQueryClient,
    private readonly maxBackgroundWaitMs = BACKGROUND_MAX_WAIT_MS,
  ) {
    this.connection = new PGliteConnection(client)
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true
      return Promise.resolve(this.connection)
    }
    return new Promise((grant) => (isBackgroundWork() ? this.backgroundWaiters : this.requests).push({ grant, since: performance.now() }))
  }

  async releaseConnection(): Promise<void> {
    const next = this.next()
    if (next) next.grant(this.connection)
    else this.busy = false
  }

  /** A request first, unless the longest-waiting background user has waited its limit. */
  private next(): Waiter | undefined {
    const oldest = this.backgroundWaiters[0]
    if (oldest && (this.requests.length === 0 || performance.now() - oldest.since >= this.maxBackgroundWaitMs)) return this.backgroundWaiters.shift()
    return this.requests.shift()
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy(): Promise<void> {
    await this.client.close()
  }
}

/** The PostgreSQL dialect over the embedded database, through PriorityPGliteDriver. */
export class PriorityPGliteDialect implements Dialect {
  constructor(
    private readonly client: PGliteQueryClient,
    private readonly maxBackgroundWaitMs = BACKGROUND_MAX_WAIT_MS,
  ) {}
  createAdapter = () => new PostgresAdapter()
  createDriver = () => new PriorityPGliteDriver(this.client, this.maxBackgroundWaitMs)
  createQueryCompiler = () => new PostgresQueryCompiler()
  createIntrospector = (db: Kysely<unknown>) => new PostgresIntrospector(db)
}
