// A large workspace's rebuild reads its facts a calendar month at a time (rebuildRest in
// src/rollups/engine.ts): daily and monthly rows are inserted per month, quarters, years and
// the day-set tables merge their rows across months. Every rollup table must hold the same
// rows as after ingestion (the incremental path) and as a rebuild in one statement, for
// facts across month, quarter and year boundaries, with months left empty between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { sql } from 'kysely'
import { analyzeIfStale, rebuildRollups, rebuildSliceBoundaries } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'

const DAYS = ['2024-11-15', '2024-12-31', '2025-01-01', '2025-02-10', '2025-03-31', '2025-04-01', '2025-06-30', '2025-10-01', '2025-12-31', '2026-01-01', '2026-02-14']
const URLS = ['https://acme.com/pricing', 'https://acme.com/blog', 'https://wikipedia.org/wiki/CRM', 'https://rival.com/features', 'https://g2.com/crm']

describe.each(testBackends)('a rebuild a month at a time (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { key: string; workspaceId: string }
  let responses = 0

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    tenant = await ctx.tenant()
    await createBrand(ctx, tenant.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    await createBrand(ctx, tenant.key, { name: 'Rival', domain: 'rival.com' })
    const prompts = [await createPrompt(ctx, tenant.key, 'best crm tools', ['crm', 'smb']), await createPrompt(ctx, tenant.key, 'crm pricing', [])]
    // Ingest request shape: spec 2.1 (POST /api/v1/ingest/responses).
    const batch = DAYS.flatMap((day, d) =>
      [0, 1, 2].map((i) => ({
        provider: i === 1 ? 'anthropic' : 'openai',
        model: i === 1 ? 'claude-3-5-sonnet' : 'gpt-4o',
        prompt_id: prompts[(d + i) % 2],
        // Just after and just before UTC midnight: the slices are cut at UTC midnights.
        created_at: `${day}T${['00:00:00', '12:30:00', '23:59:59'][i]}Z`,
        content: i === 2 ? `Rival is fine, answer ${d}-${i}.` : `Acme and Rival compared, answer ${d}-${i}.`,
        citations: URLS.filter((_, u) => (d + i + u) % 3 !== 0).map((url) => ({ url, title: `${url} ${d}` })),
      })),
    )
    responses = batch.length
    await ingest(ctx, tenant.key, batch)
  }, 120_000)
  afterAll(() => ctx.close())

  it('cuts the facts at the first of each month from the first to the last response', async () => {
    expect(await rebuildSliceBoundaries(ctx.database.db, tenant.workspaceId, responses + 1)).toEqual([])
    const boundaries = await rebuildSliceBoundaries(ctx.database.db, tenant.workspaceId, responses)
    expect(boundaries[0]).toBe('2024-12-01')
    expect(boundaries.at(-1)).toBe('2026-02-01')
    expect(boundaries).toHaveLength(15)
  })

  it('gives the rows ingestion keeps, and the rows of a rebuild in one statement', async () => {
    const db = ctx.database.db
    const incremental = await rollupSnapshot(db, tenant.workspaceId)
    expect(incremental.yearly_url_stats.length).toBeGreaterThan(0)
    expect(incremental.domain_tag_days.length).toBeGreaterThan(0)
    expect(incremental.daily_brand_domain_stats.length).toBeGreaterThan(0)
    // A month per statement (every workspace is "large" at a threshold of one response).
    await rebuildRollups(db, tenant.workspaceId, { sliceResponses: 1 })
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    await rebuildRollups(db, tenant.workspaceId, { sliceResponses: Infinity })
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    // A subset of the families, sliced: the others are left as they were.
    await rebuildRollups(db, tenant.workspaceId, { families: ['url-stats', 'domain-prompt-days', 'mention-stats-by-provider', 'mention-stats'], sliceResponses: 1 })
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
  }, 120_000)

  it('analyzes the fact tables when they lack statistics, and not again when they have them', async () => {
    const db = ctx.database.db
    // A table that does not exist is skipped, not an error.
    await analyzeIfStale(db, ['response', 'mention', 'citation', 'no_such_table'])
    const { rows } = await sql<{ name: string; tuples: number }>`
      select relname as name, reltuples::float8 as tuples from pg_class where oid in ('response'::regclass, 'mention'::regclass, 'citation'::regclass)`.execute(db)
    for (const row of rows) expect(row.tuples, row.name).toBeGreaterThanOrEqual(0)
    expect(await analyzeIfStale(db, ['response', 'mention', 'citation'])).toEqual([])
    await rebuildRollups(db, tenant.workspaceId, { analyze: true, sliceResponses: 1 })
  }, 120_000)
})
