// Concurrent ingest batches touch the same rollup rows (same days, providers, brands,
// domains, URLs): on PostgreSQL they wait on each other's row locks (the engine upserts in
// key order so they cannot deadlock), and every batch's contribution must count exactly
// once. Deadlocks are timing-dependent: this shows the sums stay exact under concurrency,
// it is not a proof that no lock order could deadlock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { ingestResponses } from '../../src/ingest/ingest-responses.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'

describe.each(testBackends)('concurrent ingest and rollups (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { databasePoolSize: 6 })
  })
  afterAll(() => ctx.close())

  it('six overlapping batches at once all commit and equal a rebuild', async () => {
    const { workspaceId, key } = await ctx.tenant()
    const prompts = [await createPrompt(ctx, key, 'Best CRM?', ['crm']), await createPrompt(ctx, key, 'Cheapest CRM?', ['crm', 'pricing'])]
    for (const name of ['Acme', 'Globex', 'Initech']) await createBrand(ctx, key, { name, domain: `${name.toLowerCase()}.com` })
    const batch = (b: number) =>
      Array.from({ length: 60 }, (_, i) => ({
        external_id: `b${b}-${i}`,
        prompt_id: prompts[(b + i) % 2],
        provider: i % 2 ? 'openai' : 'anthropic',
        model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
        // Reversed order in odd batches: without sorted keys these would lock in opposite orders.
        content:
          b % 2
            ? `Initech, Globex and Acme. https://initech.com/${i % 3} https://acme.com/${i % 4}`
            : `Acme, Globex and Initech. https://acme.com/${i % 4} https://initech.com/${i % 3}`,
        created_at: `2026-06-${String(1 + (i % 5)).padStart(2, '0')}T1${b}:00:00Z`,
      }))
    const results = await Promise.all(Array.from({ length: 6 }, (_, b) => ingestResponses(ctx.database.db, workspaceId, batch(b), { now: new Date('2026-07-01T00:00:00Z') })))
    expect(results.map((r) => r.accepted)).toEqual([60, 60, 60, 60, 60, 60])
    const incremental = await rollupSnapshot(ctx.database.db, workspaceId)
    expect(incremental.daily_brand_totals.length).toBeGreaterThan(10)
    await rebuildRollups(ctx.database.db, workspaceId)
    expectSameRollups(await rollupSnapshot(ctx.database.db, workspaceId), incremental, expect)
  }, 120_000)
})
