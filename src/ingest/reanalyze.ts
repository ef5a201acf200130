// Re-runs brand analysis over a workspace's stored responses and AI overviews after its
// brand list changed, so history reflects the brands as they are now. Works in batches in
// id order: a batch is read, analysed (responses on the worker-thread pool, outside any
// transaction), then its old facts are replaced in one short transaction that also marks
// the workspace's cached answers stale. Other requests interleave between batches.
// The API runs this as a background job (src/jobs/reanalysis-job.ts); the CLI inline.
import type { DB } from '../db/database.js'
import { findAioAppearances, findMentionMatches, type BrandMatcher } from '../analysis/index.js'
import { analyzeInline, type AnalysisPool } from '../analysis/analysis-pool.js'
import { loadBrandMatcher } from './brand-terms.js'
import { insertColumns, insertInChunks } from './insert-chunks.js'
import { inTransaction } from '../db/tenant-scope.js'
import { addMentionRollups, retractMentionRollups } from '../rollups/index.js'
import { bumpDataVersion } from '../db/data-version.js'
import { lockAnalysisInputs, lockReanalysisBatch } from '../db/analysis-lock.js'

export interface ReanalysisProgress {
  responses: number
  observations: number
}

export const REANALYSIS_BATCH = 500

export interface StoredResponse {
  id: string
  content: string
  prompt_id: string
  provider: string
  model: string
  created_at: Date
}

export interface StoredObservation {
  id: string
  prompt_id: string
  observed_at: Date
  overview_text: string | null
  has_aio: boolean
}

/** Analysis runs on these; without a pool, on the main thread (yielding between slices). */
export type Analyser = Pick<AnalysisPool, 'analyze'>
const inline: Analyser = { analyze: analyzeInline }

/** How many responses and AI overviews a re-analysis of the workspace goes through. */
export async function countReanalysisWork(db: DB, workspaceId: string): Promise<ReanalysisProgress> {
  const [responses, observations] = await Promise.all([
    db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('aio_observation')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
  ])
  return { responses: Number(responses.n), observations: Number(observations.n) }
}

export function readResponseBatch(db: DB, workspaceId: string, after: string | undefined, limit = REANALYSIS_BATCH): Promise<StoredResponse[]> {
  return db
    .selectFrom('response')
    .select(['id', 'content', 'prompt_id', 'provider', 'model', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
    .orderBy('id')
    .limit(limit)
    .execute()
}

export function readObservationBatch(db: DB, workspaceId: string, after: string | undefined, limit = REANALYSIS_BATCH): Promise<StoredObservation[]> {
  return db
    .selectFrom('aio_observation')
    .select(['id', 'prompt_id', 'observed_at', 'overview_text', 'has_aio'])
    .where('workspace_id', '=', workspaceId)
    .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
    .orderBy('id')
    .limit(limit)
    .execute()
}

/**
 * Replaces the mentions of one batch of responses in one transaction, and keeps the mention
 * rollups exact batch by batch: the old mentions' contribution is retracted before they go
 * and the new ones' added once they are in. So the numbers are right after every commit,
 * and a crash between batches leaves nothing to repair but the batches not yet done.
 */
export async function reanalyzeResponseBatch(db: DB, workspaceId: string, rows: readonly StoredResponse[], matcher: BrandMatcher, analyser: Analyser = inline): Promise<void> {
  if (rows.length === 0) return
  // Cheap match first: the NLP parse (sentiment) is only worth it when some brand is named.
  // Only mentions depend on brands; citations and response sentiment stay as stored.
  const named = rows.filter((row) => findMentionMatches(row.content, matcher).length > 0)
  const analyses = await analyser.analyze(
    named.map((row) => ({ content: row.content })),
    matcher,
  )
  const mentions = named.flatMap((row, i) =>
    analyses[i].mentions.map((m) => ({
      workspace_id: workspaceId,
      response_id: row.id,
      brand_id: m.brandId,
      prompt_id: row.prompt_id,
      provider: row.provider,
      model: row.model,
      created_at: row.created_at,
      occurrences: m.occurrences,
      position: m.position,
      sentiment: m.sentiment,
    })),
  )
  const ids = rows.map((r) => r.id)
  await inTransaction(db, async (trx) => {
    // Like an ingest batch: a tag edit's rollup rebuild must not interleave with this one.
    await lockAnalysisInputs(trx, workspaceId, 'read')
    await lockReanalysisBatch(trx, workspaceId)
    await retractMentionRollups(trx, workspaceId, ids)
    await trx.deleteFrom('mention').where('workspace_id', '=', workspaceId).where('response_id', 'in', ids).execute()
    // One array parameter per column: far less SQL to parse than a VALUES list (as ingestion does).
    await insertColumns(trx, 'mention', mentions, {
      workspace_id: 'uuid',
      response_id: 'uuid',
      brand_id: 'uuid',
      prompt_id: 'uuid',
      provider: 'text',
      model: 'text',
      created_at: 'timestamptz',
      occurrences: 'int4',
      position: 'int4',
      sentiment: 'float8',
    })
    await addMentionRollups(trx, workspaceId, ids)
    await bumpDataVersion(trx, workspaceId)
  })
}

/** Replaces the brand appearances of one batch of AI overviews (matching only: no NLP). */
export async function reanalyzeObservationBatch(db: DB, workspaceId: string, rows: readonly StoredObservation[], matcher: BrandMatcher): Promise<void> {
  if (rows.length === 0) return
  const appearances = rows.flatMap((row) =>
    !row.has_aio || !row.overview_text
      ? []
      : findAioAppearances(row.overview_text, matcher).map((a) => ({
          workspace_id: workspaceId,
          observation_id: row.id,
          brand_id: a.brandId,
          prompt_id: row.prompt_id,
          observed_at: row.observed_at,
          position: a.position,
        })),
  )
  await inTransaction(db, async (trx) => {
    await trx
      .deleteFrom('aio_appearance')
      .where('workspace_id', '=', workspaceId)
      .where(
        'observation_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
    await insertInChunks(appearances, 2000, (chunk) => trx.insertInto('aio_appearance').values(chunk).execute())
    await bumpDataVersion(trx, workspaceId)
  })
}

export interface ReanalysisOptions {
  matcher?: BrandMatcher
  analyser?: Analyser
  batchSize?: number
  /** after each committed batch, with the counts so far; may throw to stop between batches */
  afterBatch?: (progress: ReanalysisProgress) => void | Promise<void>
}

/** Responses first, then AI overviews. */
export async function reanalyzeWorkspace(db: DB, workspaceId: string, options: ReanalysisOptions = {}): Promise<ReanalysisProgress> {
  const matcher = options.matcher ?? (await loadBrandMatcher(db, workspaceId))
  const batchSize = options.batchSize ?? REANALYSIS_BATCH
  const progress: ReanalysisProgress = { responses: 0, observations: 0 }

  for (let after: string | undefined; ;) {
    const rows = await readResponseBatch(db, workspaceId, after, batchSize)
    if (rows.length === 0) break
    await reanalyzeResponseBatch(db, workspaceId, rows, matcher, options.analyser)
    after = rows[rows.length - 1].id
    progress.responses += rows.length
    await options.afterBatch?.({ ...progress })
  }

  for (let after: string | undefined; ;) {
    const rows = await readObservationBatch(db, workspaceId, after, batchSize)
    if (rows.length === 0) break
    await reanalyzeObservationBatch(db, workspaceId, rows, matcher)
    after = rows[rows.length - 1].id
    progress.observations += rows.length
    await options.afterBatch?.({ ...progress })
  }
  return progress
}
