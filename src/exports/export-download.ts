// One file download, start to finish: concurrency gate, quota, rows from the database,
// CSV/TSV text to the socket. The body is pulled by the socket (backpressure); whichever
// ends first (the last row, an error or a client that goes away) gives everything back.
import { Readable } from 'node:stream'
import type { DB, DatabaseHandle } from '../db/database.js'
import { isDatabaseUnavailable } from '../http/error-handler.js'
import { AppError } from '../core/errors.js'
import type { ConcurrencyGate } from './concurrency-gate.js'
import { createExportWriter, type ExportWriter } from './csv-writer.js'
import { resolveExportFilters, type ExportQuery } from './export-filters.js'
import { peekExportQuota, quotaHeaders, takeExportSlot } from './export-quota.js'
import type { ExportDefinition, ExportRow } from './export-types.js'
import { openRowStream } from './row-stream.js'
import { copyStatement, startCopy } from './copy-export.js'
import { requireDataVersion, type ReadReplicas } from '../db/read-replicas.js'

const BUSY_RETRY_SECONDS = 5
// Characters per write. Large enough to keep per-write overhead low; small enough that
// each chunk stays a young-generation string (V8 puts strings over ~128 KB straight into
// old space, where garbage lingers until a full collection and memory climbs).
const CHUNK_CHARS = 32 * 1024

export interface ExportDownload {
  headers: Record<string, string | number>
  body: Readable
  /** ends the read and frees the gate slot; idempotent */
  close(): Promise<void>
}

export interface ExportDownloadContext {
  database: DatabaseHandle
  gate: ConcurrencyGate
  quotaPerHour: number
  /**
   * How long the client may leave the file unread before the download is cut: a reader that
   * stops would otherwise hold its cursor, connection and gate slot for as long as it stays
   * connected.
   */
  stallMs: number
  /** the request's database access (its workspace-scoped transaction on PostgreSQL) */
  db: DB
  /**
   * Commits and releases the request's transaction. Called once the quota slot is taken and
   * before the cursor takes its own connection, so no request holds one connection while
   * waiting for another (with a full pool, that would deadlock until the pool times out).
   */
  endRequestTransaction: () => Promise<void>
  /** service role for the file's transaction under row-level security, when in use */
  role?: string
  /** replicas the file may be read from, when one has replayed `dataVersion` */
  readReplicas?: ReadReplicas
  /** the workspace's data version the request authenticated with */
  dataVersion?: number
}

/** The file's data rows as text (the preamble comes from the writer). */
interface FileBody extends AsyncIterable<string | Buffer> {
  close(): Promise<void>
}

export async function startExportDownload(context: ExportDownloadContext, workspaceId: string, definition: ExportDefinition, query: ExportQuery): Promise<ExportDownload> {
  const filters = resolveExportFilters(query)
  const releaseSlot = context.gate.tryAcquire(workspaceId)
  if (!releaseSlot) {
    const message =
      context.gate.activeFor(workspaceId) >= context.gate.perKeyCapacity
        ? `This workspace already has ${context.gate.perKeyCapacity} exports being generated; wait for one to finish and retry in ${BUSY_RETRY_SECONDS} s`
        : `Too many exports are being generated on this server right now; retry in ${BUSY_RETRY_SECONDS} s`
    throw new AppError(503, 'export_unavailable', message, { headers: { 'Retry-After': BUSY_RETRY_SECONDS } })
  }
  const writer = exportWriter(definition, query)
  let rows: FileBody
  let limitHeaders: Record<string, string | number> = {}
  try {
    limitHeaders = quotaHeaders(await takeExportSlot(context.db, workspaceId, definition.type, context.quotaPerHour))
    await context.endRequestTransaction()
    rows = await openFileBody(context, workspaceId, definition, filters, writer)
  } catch (error) {
    releaseSlot()
    if (error instanceof AppError) throw error
    if (isDatabaseUnavailable(error)) {
      const unavailable = new AppError(503, 'export_unavailable', `The database is unavailable, so the export cannot be generated; retry in ${BUSY_RETRY_SECONDS} s`, {
        headers: { ...limitHeaders, 'Retry-After': BUSY_RETRY_SECONDS },
      })
      throw Object.assign(unavailable, { cause: error })
    }
    throw error
  }

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= rows.close().finally(releaseSlot)
    return closing
  }
  let stallTimer: NodeJS.Timeout | undefined
  const watch = {
    // Armed only while a chunk waits for the client, so a slow query is never taken for a stall.
    waiting: () => {
      stallTimer = setTimeout(() => body.destroy(new ExportStalledError(context.stallMs)), context.stallMs)
      stallTimer.unref()
    },
    resumed: () => clearTimeout(stallTimer),
  }
  // Destroyed with an error, the body makes Fastify destroy the response and its socket.
  const body: Readable = Readable.from(fileChunks(rows, writer, close, watch), { objectMode: false })
  // Also when the body is destroyed before its first read: the generator's finally would
  // never run then.
  body.once('close', () => {
    clearTimeout(stallTimer)
    void close()
  })
  return { headers: fileHeaders(definition, filters, writer, limitHeaders), body, close }
}

/**
 * The data rows of the file. On a PostgreSQL server, PostgreSQL writes them (COPY, see
 * copy-export.ts), on a replica that has the request's data version when there is one; on
 * PGlite, keyset pages through the CSV writer.
 */
async function openFileBody(
  context: ExportDownloadContext,
  workspaceId: string,
  definition: ExportDefinition,
  filters: ReturnType<typeof resolveExportFilters>,
  writer: ExportWriter,
): Promise<FileBody> {
  const source = definition.source(context.database.db, workspaceId, filters)
  const { pool } = context.database.connection
  if (!pool) return writtenRows(await openRowStream(context.database, source, { batchSize: definition.batchRows }), writer)
  const statement = copyStatement(source.all(), definition.columns, writer.format)
  const { readReplicas, dataVersion } = context
  if (readReplicas && dataVersion !== undefined) {
    const file = await readReplicas.firstUsable(async (replica, role) =>
      startCopy(await replica.pool.connect(), statement, { workspaceId, role }, (client) => requireDataVersion(client, workspaceId, dataVersion)),
    )
    if (file) return file
  }
  return startCopy(await pool.connect(), statement, { workspaceId, role: context.role })
}

/** Row batches through the writer, in chunks of about CHUNK_CHARS. */
function writtenRows(rows: AsyncIterable<ExportRow[]> & { close(): Promise<void> }, writer: ExportWriter): FileBody {
  return {
    async *[Symbol.asyncIterator]() {
      // Records per chunk adapt to the row width seen so far, aiming at CHUNK_CHARS.
      let perChunk = 64
      for await (const batch of rows) {
        for (let i = 0; i < batch.length;) {
          const chunk = writer.records(batch.slice(i, i + perChunk))
          i += perChunk
          perChunk = Math.max(1, Math.min(4096, Math.floor((perChunk * CHUNK_CHARS) / Math.max(chunk.length, 1))))
          yield chunk
        }
      }
    },
    close: () => rows.close(),
  }
}

/**
 * HEAD of a file export: the headers a download would carry, with the quota as it stands.
 * Takes no quota slot and no gate slot, and reads no rows (clients and proxies send HEAD
 * to probe a link; that must not cost a download).
 */
export async function describeExportDownload(
  db: DB,
  workspaceId: string,
  definition: ExportDefinition,
  query: ExportQuery,
  quotaPerHour: number,
): Promise<Record<string, string | number>> {
  const filters = resolveExportFilters(query)
  const state = await peekExportQuota(db, workspaceId, quotaPerHour)
  return fileHeaders(definition, filters, exportWriter(definition, query), quotaHeaders(state))
}

function exportWriter(definition: ExportDefinition, query: ExportQuery): ExportWriter {
  const excel = definition.formatOptions && query.excel_compatible === true
  return createExportWriter(definition.columns, { format: excel ? 'tsv' : 'csv', typeHints: definition.formatOptions && query.include_type_hints === true })
}

function fileHeaders(
  definition: ExportDefinition,
  filters: ReturnType<typeof resolveExportFilters>,
  writer: ExportWriter,
  limitHeaders: Record<string, string | number>,
): Record<string, string | number> {
  const filename = `${definition.type}_${filters.range.start}_${filters.range.end}.${writer.extension}`
  return {
    'Content-Type': writer.contentType,
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...limitHeaders,
  }
}

/** The client read nothing for the stall limit; the download is cut. */
export class ExportStalledError extends Error {
  constructor(ms: number) {
    super(`export download cut: the client read nothing for ${Math.round(ms / 1000)} s`)
    this.name = 'ExportStalledError'
  }
}

/**
 * The file's chunks. A yield returns when the consumer pulls the next chunk: the time in
 * between is the client's, and the stall watch measures just that.
 */
async function* fileChunks(rows: FileBody, writer: ExportWriter, close: () => Promise<void>, watch: { waiting(): void; resumed(): void }): AsyncGenerator<string | Buffer> {
  for await (const chunk of rawChunks(rows, writer, close)) {
    watch.waiting()
    try {
      yield chunk
    } finally {
      watch.resumed()
    }
  }
}

async function* rawChunks(rows: FileBody, writer: ExportWriter, close: () => Promise<void>): AsyncGenerator<string | Buffer> {
  try {
    yield writer.preamble()
    yield* rows
  } finally {
    await close()
  }
}
