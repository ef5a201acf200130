// Export rows as objects, for the CSV writer: on PGlite, where exports are written this
// way (on a PostgreSQL server the server writes the file: copy-export.ts). PGlite has one
// connection shared by every request, so no cursor may stay open across awaits; keyset
// pages through Kysely let other requests in between pages. The rows of a RowSource come
// in batches, pulled by the consumer (backpressure); close() ends the read.
import type { DatabaseHandle } from '../db/database.js'
import { refreshPlannerStatistics } from '../db/dialect.js'
import type { ExportRow, RowSource } from './export-types.js'

export interface RowStream extends AsyncIterable<ExportRow[]> {
  /** Ends the read and releases the connection; safe to call any number of times, at any point. */
  close(): Promise<void>
}

export interface RowStreamOptions {
  /** rows per page */
  batchSize?: number
}

const DEFAULT_BATCH_SIZE = 2000

/**
 * Opens the rows and reads the first batch before returning, so a failing query is an
 * error response rather than a file that breaks off after its headers.
 */
export async function openRowStream(database: DatabaseHandle, source: RowSource, options: RowStreamOptions = {}): Promise<RowStream> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
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
