// Brand and prompt writes change what analysis and the rollups are computed from: the brand
// list (mentions) and a prompt's tags (the tag-set rollups). An ingestion batch holds this
// workspace lock shared, from before it reads them until it commits; those writes take it
// exclusively. So a batch either commits before the write (and the write's re-analysis or
// rebuild sees it) or reads what the write committed. Without it, a batch analysed with the
// old brands, or rolled up under a prompt's old tags, could commit after the re-analysis or
// rebuild passed it, and stay wrong for good (issue 17).
// Transaction-scoped: released at commit or rollback, and a no-op outside a transaction.
import { sql } from 'kysely'
import type { DB } from './database.js'

export async function lockAnalysisInputs(trx: DB, workspaceId: string, mode: 'read' | 'write'): Promise<void> {
  const key = `beacon.analysis-inputs:${workspaceId}`
  if (mode === 'read') await sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`.execute(trx)
  else await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx)
}

/**
 * One re-analysis batch of a workspace at a time. Each batch retracts the rollup
 * contribution of the mentions it finds and adds that of the ones it writes; two runs
 * over the same answers (a job retried while its lost run was in fact still going) stay
 * exact only if their batches do not interleave.
 */
export async function lockReanalysisBatch(trx: DB, workspaceId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`beacon.reanalysis:${workspaceId}`}, 0))`.execute(trx)
}
