// Re-runs brand analysis over a workspace's stored responses and AI overviews after its
// brand list changed, so history reflects the brands as they are now. Works in batches,
// each its own short transaction, so other requests interleave instead of waiting.
import type { DB } from '../db/database.js'
import type { Insertable } from 'kysely'
import type { Database } from '../db/schema.js'
import { analyzeResponse, findAioAppearances, findMentionMatches, type BrandMatcher } from '../analysis/index.js'
import { loadBrandMatcher } from './brand-terms.js'
import { insertInChunks } from './insert-chunks.js'
import { inTransaction } from '../db/tenant-scope.js'
import { rebuildRollups } from './rollups.js'
import { bumpDataVersion } from '../db/data-version.js'

export interface ReanalysisProgress {
  responses: number
  observations: number
}

const BATCH = 500

export async function reanalyzeWorkspace(
  db: DB,
  workspaceId: string,
  options: { onProgress?: (progress: ReanalysisProgress) => void; matcher?: BrandMatcher } = {},
): Promise<ReanalysisProgress> {
  const matcher = options.matcher ?? (await loadBrandMatcher(db, workspaceId))
  const progress: ReanalysisProgress = { responses: 0, observations: 0 }

  let after: string | undefined
  for (;;) {
    const batch = await inTransaction(db, async (trx) => {
      let query = trx
        .selectFrom('response')
        .select(['id', 'content', 'prompt_id', 'provider', 'model', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .limit(BATCH)
      if (after) query = query.where('id', '>', after)
      const rows = await query.execute()
      if (rows.length === 0) return rows
      const mentions: Insertable<Database['mention']>[] = []
      for (const row of rows) {
        // Only mentions depend on brands; citations and response sentiment stay as stored.
        // Cheap match first: the NLP parse is only worth it when some brand is named.
        if (findMentionMatches(row.content, matcher).length === 0) continue
        const analysis = analyzeResponse({ content: row.content }, matcher)
        for (const m of analysis.mentions) {
          mentions.push({
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
          })
        }
      }
      await trx
        .deleteFrom('mention')
        .where('workspace_id', '=', workspaceId)
        .where(
          'response_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
      await insertInChunks(mentions, 2000, (chunk) => trx.insertInto('mention').values(chunk).execute())
      return rows
    })
    if (batch.length === 0) break
    after = batch[batch.length - 1].id
    progress.responses += batch.length
    options.onProgress?.({ ...progress })
  }

  // Mentions changed: the rollups are recomputed from them in one statement set.
  await rebuildRollups(db, workspaceId)

  after = undefined
  for (;;) {
    const batch = await inTransaction(db, async (trx) => {
      let query = trx
        .selectFrom('aio_observation')
        .select(['id', 'prompt_id', 'observed_at', 'overview_text', 'has_aio'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .limit(BATCH)
      if (after) query = query.where('id', '>', after)
      const rows = await query.execute()
      if (rows.length === 0) return rows
      const appearances: Insertable<Database['aio_appearance']>[] = []
      for (const row of rows) {
        if (!row.has_aio || !row.overview_text) continue
        for (const a of findAioAppearances(row.overview_text, matcher)) {
          appearances.push({ workspace_id: workspaceId, observation_id: row.id, brand_id: a.brandId, prompt_id: row.prompt_id, observed_at: row.observed_at, position: a.position })
        }
      }
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
      return rows
    })
    if (batch.length === 0) break
    after = batch[batch.length - 1].id
    progress.observations += batch.length
    options.onProgress?.({ ...progress })
  }
  await bumpDataVersion(db, workspaceId)
  return progress
}
