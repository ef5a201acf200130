// Ingestion analyses a batch before its transaction with the brand list this process last
// compiled, and checks that list under the analysis-inputs lock. A list changed since then
// (here: written straight to the database, as another instance would) must not leave the
// batch analysed with the old brands: it is analysed again with the current ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { ingestResponses } from '../../src/ingest/ingest-responses.js'
import { AnalysisPool, MIN_PARALLEL_BATCH, type AnalysisInput } from '../../src/analysis/analysis-pool.js'
import type { BrandMatcher } from '../../src/analysis/index.js'
import type { KyselyPlugin } from 'kysely'
import { lastBrandMatcher } from '../../src/ingest/brand-terms.js'

describe.each(testBackends)('early analysis at ingest (%s)', (backend) => {
  let ctx: TestContext
  // Worker threads, as the server uses them (batches of MIN_PARALLEL_BATCH or more).
  const pool = new AnalysisPool(2)
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(async () => {
    await pool.close()
    await ctx.close()
  })

  it('analyses again with the current brands when the list changed after the last compile', async () => {
    const db = ctx.database.db
    const { workspaceId } = await ctx.tenant()
    const promptId = crypto.randomUUID()
    await db.insertInto('prompt').values({ workspace_id: workspaceId, id: promptId, text: 'Best CRM?' }).execute()
    const acme = (await db.insertInto('brand').values({ workspace_id: workspaceId, id: crypto.randomUUID(), name: 'Acme' }).returning('id').executeTakeFirstOrThrow()).id
    const batch = (name: string) =>
      Array.from({ length: MIN_PARALLEL_BATCH }, (_, i) => ({
        external_id: `${name}-${i}`,
        prompt_id: promptId,
        provider: 'openai',
        model: 'gpt-4o',
        content: `Acme is fine. Initech is excellent (${i}).`,
        created_at: '2026-06-01T10:00:00Z',
      }))
    const mentionedBrands = async () =>
      (await db.selectFrom('mention').select('brand_id').distinct().where('workspace_id', '=', workspaceId).orderBy('brand_id').execute()).map((m) => m.brand_id)

    expect((await ingestResponses(db, workspaceId, batch('first'), { pool })).accepted).toBe(MIN_PARALLEL_BATCH)
    expect(await mentionedBrands()).toEqual([acme])
    const stale = lastBrandMatcher(workspaceId)
    expect(stale).toBeDefined()

    // A new brand, unknown to the matcher this process holds.
    const initech = (await db.insertInto('brand').values({ workspace_id: workspaceId, id: crypto.randomUUID(), name: 'Initech' }).returning('id').executeTakeFirstOrThrow()).id
    expect(lastBrandMatcher(workspaceId)).toBe(stale)
    expect((await ingestResponses(db, workspaceId, batch('second'), { pool })).accepted).toBe(MIN_PARALLEL_BATCH)

    const secondMentions = await db
      .selectFrom('mention as m')
      .innerJoin('response as r', (join) => join.onRef('r.workspace_id', '=', 'm.workspace_id').onRef('r.id', '=', 'm.response_id'))
      .select(['m.brand_id', 'm.position'])
      .where('m.workspace_id', '=', workspaceId)
      .where('r.external_id', 'like', 'second-%')
      .execute()
    // Every response of the second batch names both brands, Initech second.
    expect(secondMentions.filter((m) => m.brand_id === initech).map((m) => m.position)).toEqual(Array(MIN_PARALLEL_BATCH).fill(2))
    expect(secondMentions.filter((m) => m.brand_id === acme)).toHaveLength(MIN_PARALLEL_BATCH)
    expect(lastBrandMatcher(workspaceId)).not.toBe(stale)
  })

  it('opens no transaction while the batch is analysed (on PGlite every request would wait for it)', async () => {
    const { workspaceId } = await ctx.tenant()
    const promptId = crypto.randomUUID()
    await ctx.database.db.insertInto('prompt').values({ workspace_id: workspaceId, id: promptId, text: 'Best CRM?' }).execute()
    // Every statement ingestion sends, in order with the analysis's start and end.
    const events: string[] = []
    const recorder: KyselyPlugin = {
      transformQuery: (args) => (events.push(`query ${args.node.kind}`), args.node),
      transformResult: async (args) => args.result,
    }
    const db = ctx.database.db.withPlugin(recorder)
    // Analysis that takes a while, as worker threads do (above all while they start):
    // it ends once ingestion has sent a statement, or after many event-loop turns.
    class SlowPool extends AnalysisPool {
      override async analyze(items: readonly AnalysisInput[], matcher: BrandMatcher) {
        events.push('analysis started')
        const sent = events.length
        for (let turn = 0; turn < 500 && events.length === sent; turn++) await new Promise((done) => setImmediate(done))
        const results = await super.analyze(items, matcher)
        events.push('analysis ended')
        return results
      }
    }
    const slowPool = new SlowPool(0)
    const items = [{ external_id: 'slow-1', prompt_id: promptId, provider: 'openai', model: 'gpt-4o', content: 'Acme is fine.', created_at: '2026-06-01T10:00:00Z' }]
    expect((await ingestResponses(db, workspaceId, items, { pool: slowPool })).accepted).toBe(1)
    const during = events.slice(events.indexOf('analysis started') + 1, events.indexOf('analysis ended'))
    expect(during).toEqual([])
    expect(events.slice(events.indexOf('analysis ended')).length).toBeGreaterThan(3) // the transaction's statements, after
  })
})
