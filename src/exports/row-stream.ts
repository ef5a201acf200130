// The one place where exports differ per backend. Both hand out the rows of a RowSource in
// batches, pulled by the consumer (backpressure), and give back everything on close().
// - PostgreSQL: a dedicated pool client, a read-only REPEATABLE READ transaction (one
//   snapshot for the whole file) and a server-side cursor through pg-query-stream.
// - PGlite: one connection shared by every request, so no cursor may stay open across
//   awaits; keyset pages through Kysely let other requests in between pages.
import { once } from 'node:events'
import type pg from 'pg'
import QueryStream from 'pg-query-stream'
import type { DatabaseHandle } from '../db/database.js'
import { refreshPlannerStatistics } from '../db/dialect.js'
import type { ExportRow, RowSource } from './export-types.js'

export interface RowStream extends AsyncIterable<ExportRow[]> {
  /** Ends the read and releases the connection; safe to call any number of times, at any point. */
  close(): Promise<void>
}

export interface RowStreamOptions {
  /** rows per cursor fetch (PostgreSQL) or per page (PGlite) */
  batchSize?: number
  /**
   * PostgreSQL: the row-level security scope of the cursor's transaction, as every request
   * transaction has it (src/db/tenant-scope.ts): the workspace, and the role to switch to.
   */
  scope?: { workspaceId: string; role?: string }
}

const DEFAULT_BATCH_SIZE = 2000
const CLOSE_TIMEOUT_MS = 5000

/**
 * Opens the rows and reads the first batch before returning, so a failing query is an
 * error response rather than a file that breaks off after its headers.
 */
export function openRowStream(database: DatabaseHandle, source: RowSource, options: RowStreamOptions = {}): Promise<RowStream> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const { pool } = database.connection
  return pool ? openCursor(pool, source, batchSize, options.scope) : openPages(database, source, batchSize)
}

async function openPages(database: DatabaseHandle, source: RowSource, batchSize: number): Promise<RowStream> {
  const { db } = database
  // A thousand pages are planned one by one: plan them for the table as it is now.
  await refreshPlannerStatistics(database)
  // PGlite runs each query synchronously on this thread and settles it as a microtask, so
  // page after page would never give the event loop a turn: /healthz and other tenants'
  // requests would wait for the whole file. A macrotask turn before each page lets them in.
  const fetch = async (after: ExportRow | null) => {
    await new Promise((resolve) => setImmediate(resolve))
    return (await db.executeQuery(source.page(after, batchSize))).rows
  }
  let closed = false
  let next: ExportRow[] | null = await fetch(null)
  return {
    async *[Symbol.asyncIterator]() {
      while (next && !closed) {
        const batch = next
        next = null
        if (batch.length > 0) yield batch
        if (batch.length < batchSize || closed) return
        next = await fetch(batch[batch.length - 1])
      }
    },
    async close() {
      closed = true
      next = null
    },
  }
}

async function openCursor(pool: pg.Pool, source: RowSource, batchSize: number, scope: RowStreamOptions['scope']): Promise<RowStream> {
  const client = await pool.connect()
  let stream: QueryStream
  let first: ExportRow[] | null
  try {
    await client.query('begin transaction isolation level repeatable read, read only')
    if (scope?.role) await client.query(`set local role ${client.escapeIdentifier(scope.role)}`)
    if (scope) await client.query(`select set_config('app.workspace_id', $1, true)`, [scope.workspaceId])
    const { sql, parameters } = source.all()
    stream = client.query(new QueryStream(sql, parameters as unknown[], { batchSize, highWaterMark: batchSize }))
    // An error while nobody is reading must not crash the process; readBatch reports it.
    stream.on('error', () => {})
    first = await readBatch(stream)
  } catch (error) {
    // The connection's state is unknown after a failed query: drop it rather than reuse it.
    client.release(error as Error)
    throw error
  }
  let ended = first === null
  let closing: Promise<void> | undefined

  async function release(): Promise<void> {
    if (!stream.destroyed) stream.destroy()
    try {
      // Destroying the stream closes the portal; wait for that before ending the transaction.
      await withTimeout(stream.closed ? Promise.resolve() : once(stream, 'close').then(() => undefined), CLOSE_TIMEOUT_MS)
      await withTimeout(client.query(ended ? 'commit' : 'rollback'), CLOSE_TIMEOUT_MS)
      client.release()
    } catch (error) {
      client.release(error instanceof Error ? error : new Error(String(error)))
    }
  }

  return {
    async *[Symbol.asyncIterator]() {
      if (first) {
        const batch = first
        first = null
        yield batch
      }
      while (!closing) {
        const batch = await readBatch(stream)
        if (batch === null) {
          ended = !closing
          return
        }
        yield batch
      }
    },
    close() {
      closing ??= release()
      return closing
    },
  }
}

/** Every row the stream has buffered, waiting for more when it has none; null at the end. */
async function readBatch(stream: QueryStream): Promise<ExportRow[] | null> {
  for (;;) {
    const rows: ExportRow[] = []
    let row: ExportRow | null
    while ((row = stream.read() as ExportRow | null) !== null) rows.push(row)
    if (rows.length > 0) return rows
    if (stream.readableEnded || stream.destroyed) {
      if (stream.errored) throw stream.errored
      return null
    }
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done)
        stream.off('end', done)
        stream.off('close', done)
        stream.off('error', failed)
        resolve()
      }
      const failed = (error: Error) => {
        done()
        reject(error)
      }
      stream.on('readable', done)
      stream.on('end', done)
      stream.on('close', done)
      stream.on('error', failed)
    })
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`export cleanup took longer than ${ms} ms`)), ms)
    }),
  ])
}
