// Creates or refreshes the demo workspace through the real ingestion and analysis
// pipeline. Ids are derived from names so links into the demo stay valid across
// refreshes; a refresh for the same day with the same data is skipped.
import { v5 as uuidv5 } from 'uuid'
import type { DB } from '../db/database.js'
import { createApiKey } from '../admin/api-key-store.js'
import { SCOPES } from '../auth/scopes.js'
import { compileBrandMatcher } from '../analysis/index.js'
import { ingestAio } from '../ingest/ingest-aio.js'
import { ingestResponses } from '../ingest/ingest-responses.js'
import { todayUtc } from '../core/date-range.js'
import { deleteWorkspaceData } from '../rollups/index.js'
import { inTransaction } from '../db/tenant-scope.js'
import type { AnalysisPool } from '../analysis/analysis-pool.js'
import { DEMO_WORKSPACE_NAME, generateDemoDatasetInSteps, type DemoDataset } from './generate-demo.js'

const NAMESPACE = '5b0c1a52-7d59-4c43-9a8e-2f4f6c1d3e7a'
export const DEMO_WORKSPACE_ID = uuidv5('beacon-demo-workspace', NAMESPACE)
const demoId = (kind: string, key: string) => uuidv5(`${kind}:${key}`, NAMESPACE)
export const DEMO_TARGET_ID = demoId('collection-target', 'openai-demo')

export interface DemoSeedResult {
  workspaceId: string
  key: string
  refreshed: boolean
  responses: number
  observations: number
  brands: number
  prompts: number
  seconds: number
}

async function isCurrent(db: DB, dataset: DemoDataset): Promise<boolean> {
  const row = await db
    .selectFrom('response')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('external_id').as('last')])
    .where('workspace_id', '=', DEMO_WORKSPACE_ID)
    .executeTakeFirst()
  const last = dataset.responses
    .map((r) => r.externalId)
    .sort()
    .at(-1)
  if (Number(row?.n ?? 0) !== dataset.responses.length || row?.last !== last) return false
  // A demo stored before answers carried their searches is refreshed once.
  const searched = await db.selectFrom('search_query').select('response_id').where('workspace_id', '=', DEMO_WORKSPACE_ID).limit(1).executeTakeFirst()
  return searched !== undefined || !dataset.responses.some((r) => r.searchQueries?.length)
}

export async function seedDemo(
  db: DB,
  options: {
    today?: string
    /** The clock (default: the system's): decides today's date and the revocation time. */
    clock?: () => Date
    onProgress?: (done: number, total: number) => void
    /** Called with the new key before the data is written, so a dashboard link can be shown while it arrives. */
    onKey?: (key: string) => void
    /** Threads for the analysis at ingest (default: analysed on this thread). */
    pool?: AnalysisPool
    /** Answers (and AI overviews) per ingest transaction (default 1,000; `backgroundWriteBatch`: fewer on the embedded database, where requests wait for each). */
    batchSize?: number
  } = {},
): Promise<DemoSeedResult> {
  const started = performance.now()
  const clock = options.clock ?? (() => new Date())
  const today = options.today ?? todayUtc(clock())
  const now = clock()
  // Today's answers end at the present moment: none is dated later than the clock.
  // In steps: `beacon serve --demo` is already answering requests.
  const dataset = await generateDemoDatasetInSteps({ today, now })
  const workspace = await db.selectFrom('workspace').select('id').where('id', '=', DEMO_WORKSPACE_ID).executeTakeFirst()
  if (!workspace) await db.insertInto('workspace').values({ id: DEMO_WORKSPACE_ID, name: DEMO_WORKSPACE_NAME, tier: 'premium' }).execute()

  // The key first: `beacon serve --demo` prints the dashboard link while the data is written.
  // A fresh key each start; earlier demo keys are revoked so they don't pile up.
  await db.updateTable('api_key').set({ revoked_at: now }).where('workspace_id', '=', DEMO_WORKSPACE_ID).where('name', '=', 'demo').where('revoked_at', 'is', null).execute()
  const key = await createApiKey(db, { workspaceId: DEMO_WORKSPACE_ID, scopes: [...SCOPES], name: 'demo' })
  options.onKey?.(key.key)

  // What ingestion may accept: the clock, or the end of a `today` given ahead of it (tests pin dates).
  const acceptUntil = new Date(Math.max(now.getTime(), Date.parse(`${today}T23:59:59Z`)))
  const refreshed = !workspace || !(await isCurrent(db, dataset))
  if (refreshed) {
    // Every tenant table (the catalog's list, rollups included); the keys stay.
    if (workspace) await inTransaction(db, (trx) => deleteWorkspaceData(trx, DEMO_WORKSPACE_ID, { keep: ['api_key'] }))

    const promptIds = new Map(dataset.prompts.map((p) => [p.key, demoId('prompt', p.key)]))
    await db
      .insertInto('brand')
      .values(
        dataset.brands.map((b) => ({
          workspace_id: DEMO_WORKSPACE_ID,
          id: demoId('brand', b.key),
          name: b.name,
          domain: b.domain,
          aliases: b.aliases,
          icon_url: b.iconUrl,
          is_primary: b.isPrimary,
        })),
      )
      .execute()
    await db
      .insertInto('prompt')
      .values(dataset.prompts.map((p) => ({ workspace_id: DEMO_WORKSPACE_ID, id: promptIds.get(p.key)!, text: p.text, tags: p.tags })))
      .execute()
    await db
      .insertInto('model')
      .values(dataset.models.map((m) => ({ workspace_id: DEMO_WORKSPACE_ID, id: m.id, provider: m.provider, name: m.name })))
      .execute()

    const matcher = compileBrandMatcher(dataset.brands.map((b) => ({ id: demoId('brand', b.key), name: b.name, aliases: b.aliases, domain: b.domain })))
    const total = dataset.responses.length + dataset.aio.length
    let done = 0
    const batchSize = options.batchSize ?? 1000
    for (let i = 0; i < dataset.responses.length; i += batchSize) {
      const batch = dataset.responses.slice(i, i + batchSize).map((r) => ({
        external_id: r.externalId,
        prompt_id: promptIds.get(r.promptKey)!,
        provider: r.provider,
        model: r.model,
        content: r.content,
        created_at: r.createdAt,
        citations: r.citations,
        search_queries: r.searchQueries,
      }))
      await ingestResponses(db, DEMO_WORKSPACE_ID, batch, { matcher, now: acceptUntil, pool: options.pool })
      done += batch.length
      options.onProgress?.(done, total)
    }
    for (let i = 0; i < dataset.aio.length; i += batchSize) {
      const batch = dataset.aio.slice(i, i + batchSize).map((o) => ({
        external_id: o.externalId,
        prompt_id: promptIds.get(o.promptKey)!,
        observed_at: o.observedAt,
        has_aio: o.hasAio,
        overview_text: o.overviewText,
      }))
      await ingestAio(db, DEMO_WORKSPACE_ID, batch, { matcher, now: acceptUntil })
      done += batch.length
      options.onProgress?.(done, total)
    }
  }

  // A demo collection target (api "demo": answers from the demo composer, no network), so
  // `beacon collect --workspace "${DEMO_WORKSPACE_NAME}"` works without a provider key.
  await db
    .insertInto('collection_target')
    .values({
      workspace_id: DEMO_WORKSPACE_ID,
      id: DEMO_TARGET_ID,
      kind: 'answer',
      provider: 'openai',
      model: 'gpt-4o-mini',
      api: 'demo',
      web_search: true,
      samples: 1,
      last_scheduled_at: clock(),
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
    .execute()

  return {
    workspaceId: DEMO_WORKSPACE_ID,
    key: key.key,
    refreshed,
    responses: dataset.responses.length,
    observations: dataset.aio.length,
    brands: dataset.brands.length,
    prompts: dataset.prompts.length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }
}
