// The write path for AI-overview observations: same rules as responses (all-or-nothing,
// idempotent by external_id, one transaction); brands are found in overview_text.
import type { DB } from '../db/database.js'
import type { Insertable } from 'kysely'
import type { Database } from '../db/schema.js'
import { newId } from '../db/ids.js'
import { findAioAppearances, type BrandMatcher } from '../analysis/index.js'
import { loadBrandMatcher } from './brand-terms.js'
import { batchError, type IngestResult } from './ingest-responses.js'
import { insertInChunks } from './insert-chunks.js'
import { freshItems, insertIdempotent } from './idempotent-insert.js'
import { bumpDataVersion } from '../db/data-version.js'
import { inTransaction } from '../db/tenant-scope.js'
import { lockAnalysisInputs } from '../db/analysis-lock.js'
import { validateAioItems, type ItemProblem } from './validate-items.js'

export async function ingestAio(db: DB, workspaceId: string, rawItems: unknown[], options: { matcher?: BrandMatcher; now?: Date } = {}): Promise<IngestResult> {
  const { items, problems, total } = validateAioItems(rawItems, options.now)
  if (total) throw batchError(problems, 'observations', total)
  if (items.length === 0) return { accepted: 0, duplicates: 0 }

  return inTransaction(db, async (trx) => {
    // Brands and tags cannot change under this batch until it commits.
    await lockAnalysisInputs(trx, workspaceId, 'read')
    const promptIds = [...new Set(items.map((i) => i.prompt_id))]
    const known = new Set((await trx.selectFrom('prompt').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', promptIds).execute()).map((r) => r.id))
    const referenceProblems: ItemProblem[] = []
    items.forEach((item, index) => {
      if (!known.has(item.prompt_id)) referenceProblems.push({ index, field: 'prompt_id', message: `no prompt ${item.prompt_id} in this workspace` })
    })
    if (referenceProblems.length) throw batchError(referenceProblems, 'observations')

    const fresh = await freshItems(trx, 'aio_observation', workspaceId, items)

    const matcher = options.matcher ?? (await loadBrandMatcher(trx, workspaceId))
    const observations: Insertable<Database['aio_observation']>[] = []
    const appearances: Insertable<Database['aio_appearance']>[] = []
    for (const item of fresh) {
      const id = newId()
      const observedAt = new Date(item.observed_at)
      const text = item.has_aio ? (item.overview_text ?? null) : null
      observations.push({
        workspace_id: workspaceId,
        id,
        prompt_id: item.prompt_id,
        observed_at: observedAt,
        has_aio: item.has_aio,
        overview_text: text,
        external_id: item.external_id ?? null,
      })
      if (text) {
        for (const a of findAioAppearances(text, matcher)) {
          appearances.push({ workspace_id: workspaceId, observation_id: id, brand_id: a.brandId, prompt_id: item.prompt_id, observed_at: observedAt, position: a.position })
        }
      }
    }
    const inserted = await insertIdempotent(trx, 'aio_observation', observations, {
      workspace_id: 'uuid',
      id: 'uuid',
      prompt_id: 'uuid',
      observed_at: 'timestamptz',
      has_aio: 'bool',
      overview_text: 'text',
      external_id: 'text',
    })
    await insertInChunks(
      appearances.filter((a) => inserted.has(a.observation_id)),
      2000,
      (chunk) => trx.insertInto('aio_appearance').values(chunk).execute(),
    )
    if (inserted.size) await bumpDataVersion(trx, workspaceId)
    return { accepted: inserted.size, duplicates: items.length - inserted.size }
  })
}
