// Re-runs brand analysis over a workspace's stored responses and AI overviews after its
// brand list changed, so history reflects the brands as they are now. Works in batches,
// each its own short transaction, so other requests interleave instead of waiting.
import type { Insertable } from 'kysely'
import type { DB } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { analyzeResponse, findAioAppearances, findMentionMatches, type BrandMatcher } from '../analysis/index.js'
import { loadBrandMatcher } from './brand-terms.js'
import { insertInChunks } from './insert-chunks.js'
import { inTransaction } from '../db/tenant-scope.js'
import { addMentionRollups, retractMentionRollups } from '../rollups/index.js'
import { bumpDataVersion } from '../db/data-version.js'

export interface ReanalysisProgress {
  responses: number
  observations: number
}

const BATCH = 500

/**
 * Replaces the brand facts of `table`'s rows batch by batch in id order: each batch reads
 * its rows, deletes their old facts and inserts the new ones in one transaction.
 */
async function rewriteInBatches<T extends 'response' | 'aio_observation', F extends 'mention' | 'aio_appearance'>(
  db: DB,
  workspaceId: string,
  spec: {
    table: T
    columns: readonly (keyof Database[T] & string)[]
    facts: F
    factKey: 'response_id' | 'observation_id'
    analyse: (row: Record<string, unknown>) => Insertable<Database[F]>[]
    /** Runs in the batch's transaction before its old facts are deleted, and after the new ones are in. */
    beforeDelete?: (trx: DB, ids: string[]) => Promise<void>
    afterInsert?: (trx: DB, ids: string[]) => Promise<void>
  },
  onBatch: (rows: number) => void,
): Promise<void> {
  let after: string | undefined
  for (;;) {
    const rows = await inTransaction(db, async (trx) => {
      let query = trx
        .selectFrom(spec.table as 'response')
        .select(spec.columns as never)
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .limit(BATCH)
      if (after) query = query.where('id', '>', after)
      const batch = (await query.execute()) as unknown as (Record<string, unknown> & { id: string })[]
      if (batch.length === 0) return batch
      const facts = batch.flatMap((row) => spec.analyse(row))
      const ids = batch.map((r) => r.id)
      await spec.beforeDelete?.(trx, ids)
      await trx
        .deleteFrom(spec.facts as 'mention')
        .where('workspace_id', '=', workspaceId)
        .where(spec.factKey as 'response_id', 'in', ids)
        .execute()
      await insertInChunks(facts, 2000, (chunk) => trx.insertInto(spec.facts as 'mention').values(chunk as never).execute())
      await spec.afterInsert?.(trx, ids)
      return batch
    })
    if (rows.length === 0) return
    after = rows[rows.length - 1].id
    onBatch(rows.length)
  }
}

export async function reanalyzeWorkspace(
  db: DB,
  workspaceId: string,
  options: { onProgress?: (progress: ReanalysisProgress) => void; matcher?: BrandMatcher } = {},
): Promise<ReanalysisProgress> {
  const matcher = options.matcher ?? (await loadBrandMatcher(db, workspaceId))
  const progress: ReanalysisProgress = { responses: 0, observations: 0 }

  await rewriteInBatches(
    db,
    workspaceId,
    {
      table: 'response',
      columns: ['id', 'content', 'prompt_id', 'provider', 'model', 'created_at'],
      facts: 'mention',
      factKey: 'response_id',
      // The mention rollups stay exact batch by batch: the old mentions' contribution is
      // subtracted before they go, the new ones' added once they are in.
      beforeDelete: (trx, ids) => retractMentionRollups(trx, workspaceId, ids),
      afterInsert: (trx, ids) => addMentionRollups(trx, workspaceId, ids),
      analyse: (raw) => {
        const row = raw as { id: string; content: string; prompt_id: string; provider: string; model: string; created_at: Date }
        // Cheap match first: the NLP parse is only worth it when some brand is named.
        // Only mentions depend on brands; citations and response sentiment stay as stored.
        if (findMentionMatches(row.content, matcher).length === 0) return []
        return analyzeResponse({ content: row.content }, matcher).mentions.map((m) => ({
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
        }))
      },
    },
    (n) => {
      progress.responses += n
      options.onProgress?.({ ...progress })
    },
  )

  await rewriteInBatches(
    db,
    workspaceId,
    {
      table: 'aio_observation',
      columns: ['id', 'prompt_id', 'observed_at', 'overview_text', 'has_aio'],
      facts: 'aio_appearance',
      factKey: 'observation_id',
      analyse: (raw) => {
        const row = raw as { id: string; prompt_id: string; observed_at: Date; overview_text: string | null; has_aio: boolean }
        if (!row.has_aio || !row.overview_text) return []
        return findAioAppearances(row.overview_text, matcher).map((a) => ({
          workspace_id: workspaceId,
          observation_id: row.id,
          brand_id: a.brandId,
          prompt_id: row.prompt_id,
          observed_at: row.observed_at,
          position: a.position,
        }))
      },
    },
    (n) => {
      progress.observations += n
      options.onProgress?.({ ...progress })
    },
  )
  await bumpDataVersion(db, workspaceId)
  return progress
}
