// The fast path (daily rollups, per-domain probes) must equal a straightforward query over
// the raw facts for any filter combination. Random combinations on the demo workspace,
// which goes through the real ingestion and analysis pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { seedDemo } from '../../src/demo/seed-demo.js'
import { getDashboard } from '../../src/queries/dashboard/get-dashboard.js'
import { resolveAnalyticsFilters, type AnalyticsFilters } from '../../src/queries/analytics-filters.js'
import { percentage, roundPosition, roundSentiment } from '../../src/queries/rounding.js'
import { addDays } from '../../src/core/date-range.js'
import { addMentionRollups, rebuildRollups, retractMentionRollups } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'
import { getSources } from '../../src/queries/sources/get-sources.js'
import { getUrls } from '../../src/queries/urls/get-urls.js'
import { getUrlsDetailed } from '../../src/queries/urls/get-urls-detailed.js'
import { getBrandDetail } from '../../src/queries/brands/get-brand-detail.js'
import { getPromptPerformance } from '../../src/queries/prompts/get-prompt-performance.js'

// Mid-month, so the 90 demo days start and end inside a month: a range's edge month then
// either has responses outside the range (read by day) or none (read from the monthly
// row, see calendarRollupRows), and both must equal the facts.
const TODAY = '2026-06-17'

/** The definitions of docs/metrics.md, written directly over the fact tables. */
async function referenceDashboard(ctx: TestContext, workspaceId: string, f: AnalyticsFilters) {
  const where = (t: string) =>
    sql.join(
      [
        sql`${sql.ref(`${t}.workspace_id`)} = ${workspaceId}`,
        sql`${sql.ref(`${t}.created_at`)} >= ${f.from}`,
        sql`${sql.ref(`${t}.created_at`)} < ${f.to}`,
        ...(f.providers.length ? [sql`${sql.ref(`${t}.provider`)} = any(${f.providers}::text[])`] : []),
        ...(f.modelIds.length ? [sql`${sql.ref(`${t}.model`)} = any(${f.modelIds}::text[])`] : []),
        ...(f.tags.length
          ? [sql`exists (select 1 from prompt p where p.workspace_id = ${workspaceId} and p.id = ${sql.ref(`${t}.prompt_id`)} and p.tags && ${f.tags}::text[])`]
          : []),
      ],
      sql` and `,
    )
  const db = ctx.database.db
  const total = Number((await sql<{ n: number }>`select count(*) as n from response r where ${where('r')}`.execute(db)).rows[0].n)
  const perBrand = (
    await sql<{ name: string; responses: number; occurrences: number; s: number | null; sc: number; p: number }>`
      select b.name, count(m.brand_id) as responses, coalesce(sum(m.occurrences), 0) as occurrences,
             sum(m.sentiment::numeric) as s, count(m.sentiment) as sc, coalesce(sum(m.position), 0) as p
      from brand b left join mention m on m.workspace_id = b.workspace_id and m.brand_id = b.id and ${where('m')}
      where b.workspace_id = ${workspaceId} and b.is_active
      group by b.name`.execute(db)
  ).rows
  const sources = Number((await sql<{ n: number }>`select count(distinct c.domain) as n from citation c where ${where('c')}`.execute(db)).rows[0].n)
  const brands: Record<string, unknown> = {}
  for (const row of perBrand) {
    brands[row.name] = {
      visibility_score: percentage(Number(row.responses), total),
      sentiment_avg: Number(row.sc) > 0 ? roundSentiment(Number(row.s) / Number(row.sc)) : 0,
      position_avg: Number(row.responses) > 0 ? roundPosition(Number(row.p) / Number(row.responses)) : 0,
      mention_count: Number(row.occurrences),
    }
  }
  return { brands, total_sources: sources, total_mentions: perBrand.reduce((n, r) => n + Number(r.occurrences), 0) }
}

describe.each(testBackends)('rollups equal the raw facts (%s)', (backend) => {
  let ctx: TestContext
  let workspaceId: string
  let models: string[]
  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true })
    workspaceId = (await seedDemo(ctx.database.db, { today: TODAY })).workspaceId
    models = (await ctx.database.db.selectFrom('model').select('id').where('workspace_id', '=', workspaceId).execute()).map((m) => m.id)
  }, 180_000)
  afterAll(() => ctx.close())

  const filterArbitrary = () =>
    fc.record({
      startOffset: fc.integer({ min: 0, max: 95 }),
      length: fc.integer({ min: 0, max: 95 }),
      providers: fc.subarray(['openai', 'anthropic', 'google', 'perplexity']),
      modelCount: fc.integer({ min: 0, max: 3 }),
      modelSeed: fc.integer({ min: 0, max: 7 }),
      tags: fc.subarray(['pricing', 'enterprise', 'smb', 'comparison', 'how-to', 'no-such-tag'], { maxLength: 3 }),
    })

  it('dashboard: identical for random filter combinations', async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary(), async (input) => {
        const start = addDays(TODAY, -input.startOffset)
        const end = addDays(start, Math.min(input.length, input.startOffset + 3))
        const modelIds = Array.from({ length: input.modelCount }, (_, i) => models[(input.modelSeed + i * 3) % models.length])
        const filters = await resolveAnalyticsFilters(ctx.database.db, workspaceId, {
          start_date: start,
          end_date: end,
          models: input.providers,
          model_ids: [...new Set(modelIds)],
          tags: input.tags,
        })
        const fast = await getDashboard(ctx.database.db, workspaceId, filters)
        const reference = await referenceDashboard(ctx, workspaceId, filters)
        expect(fast.brands).toEqual(reference.brands)
        expect(fast.total_sources).toBe(reference.total_sources)
        expect(fast.total_mentions).toBe(reference.total_mentions)
      }),
      {
        numRuns: Number(process.env.EXACTNESS_RUNS ?? 40),
        // The whole demo window and past both ends (both edge months read from the monthly
        // table), and ranges ending inside the data (the last month read by day).
        examples: [
          [{ startOffset: 95, length: 98, providers: [], modelCount: 0, modelSeed: 0, tags: [] }],
          [{ startOffset: 95, length: 98, providers: ['openai', 'anthropic'], modelCount: 0, modelSeed: 0, tags: ['pricing', 'enterprise'] }],
          [{ startOffset: 60, length: 50, providers: ['google'], modelCount: 2, modelSeed: 1, tags: ['smb'] }],
        ],
      },
    )
  }, 300_000)

  // The citation rollups (sources, URLs, a brand's top sources) against the same reads
  // over the raw facts, for random ranges (whole months, loose days, both) and pages.
  it('sources, URLs and brand sources: identical to the facts for random ranges', async () => {
    const db = ctx.database.db
    const brands = (await db.selectFrom('brand').select('id').where('workspace_id', '=', workspaceId).orderBy('id').execute()).map((b) => b.id)
    const domains = (await sql<{ domain: string }>`select distinct domain from citation where workspace_id = ${workspaceId} order by 1`.execute(db)).rows.map((r) => r.domain)
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          startOffset: fc.integer({ min: 0, max: 100 }),
          length: fc.integer({ min: 0, max: 100 }),
          page: fc.integer({ min: 1, max: 4 }),
          perPage: fc.constantFrom(1, 5, 20, 100),
          brand: fc.nat(),
          domain: fc.option(fc.nat(), { nil: undefined }),
        }),
        async (input) => {
          const start = addDays(TODAY, -input.startOffset)
          const filters = await resolveAnalyticsFilters(db, workspaceId, { start_date: start, end_date: addDays(start, input.length) })
          const page = { page: input.page, perPage: input.perPage }
          expect(await getSources(db, workspaceId, filters, page)).toEqual(await getSources(db, workspaceId, filters, page, 'facts'))
          expect(await getUrlsDetailed(db, workspaceId, filters, page)).toEqual(await getUrlsDetailed(db, workspaceId, filters, page, 'facts'))
          const sourceId = input.domain === undefined ? undefined : domains[input.domain % domains.length]
          expect(await getUrls(db, workspaceId, filters, { ...page, sourceId })).toEqual(await getUrls(db, workspaceId, filters, { ...page, sourceId }, 'facts'))
          const brandId = brands[input.brand % brands.length]
          expect(await getBrandDetail(db, workspaceId, brandId, filters)).toEqual(await getBrandDetail(db, workspaceId, brandId, filters, 'facts'))
        },
      ),
      {
        numRuns: Number(process.env.EXACTNESS_RUNS ?? 40),
        examples: [
          [{ startOffset: 95, length: 100, page: 1, perPage: 20, brand: 0, domain: undefined }],
          [{ startOffset: 40, length: 45, page: 2, perPage: 5, brand: 3, domain: 2 }],
        ],
      },
    )
  }, 300_000)

  it("prompt performance and a brand's top prompts: identical to the facts under tags", async () => {
    const db = ctx.database.db
    const brands = (await db.selectFrom('brand').select('id').where('workspace_id', '=', workspaceId).orderBy('id').execute()).map((b) => b.id)
    await fc.assert(
      fc.asyncProperty(filterArbitrary(), fc.nat(), async (input, brand) => {
        const start = addDays(TODAY, -input.startOffset)
        const filters = await resolveAnalyticsFilters(db, workspaceId, {
          start_date: start,
          end_date: addDays(start, input.length),
          tags: input.tags,
          models: input.modelCount === 0 ? [] : input.providers,
        })
        const brandId = brands[brand % brands.length]
        expect(await getPromptPerformance(db, workspaceId, brandId, filters)).toEqual(await getPromptPerformance(db, workspaceId, brandId, filters, undefined, 'facts'))
        expect(await getBrandDetail(db, workspaceId, brandId, filters)).toEqual(await getBrandDetail(db, workspaceId, brandId, filters, 'facts'))
      }),
      { numRuns: Number(process.env.EXACTNESS_RUNS ?? 40) },
    )
  }, 300_000)

  // Ingestion adds each batch to the rollups (the engine's incremental path); a rebuild
  // from the facts must give the very same rows in every rollup table.
  it('rollups kept by ingestion equal a rebuild from the facts', async () => {
    const db = ctx.database.db
    const incremental = await rollupSnapshot(db, workspaceId)
    expect(incremental.daily_url_stats.length).toBeGreaterThan(100)
    expect(incremental.domain_prompt_days.length).toBeGreaterThan(10)
    expect(incremental.daily_prompt_brand_stats.length).toBeGreaterThan(100)
    expect(incremental.monthly_mention_stats.length).toBeGreaterThan(100)
    await rebuildRollups(db, workspaceId)
    expectSameRollups(await rollupSnapshot(db, workspaceId), incremental, expect)
  }, 120_000)

  // Re-analysis replaces mentions batch by batch: retract the old ones' contribution,
  // replace the facts, add the new ones'. Some rows must reach zero and go, others change.
  it('retract + add around changed mentions equals a rebuild from the facts', async () => {
    const db = ctx.database.db
    const before = await rollupSnapshot(db, workspaceId)
    const ids = (await sql<{ id: string }>`select id from response where workspace_id = ${workspaceId} order by id limit 400`.execute(db)).rows.map((r) => r.id)
    const dropped = (await db.selectFrom('brand').select('id').where('workspace_id', '=', workspaceId).orderBy('id').executeTakeFirstOrThrow()).id
    await db.transaction().execute(async (trx) => {
      await retractMentionRollups(trx, workspaceId, ids)
      const old = await trx.selectFrom('mention').selectAll().where('workspace_id', '=', workspaceId).where('response_id', 'in', ids).execute()
      await trx.deleteFrom('mention').where('workspace_id', '=', workspaceId).where('response_id', 'in', ids).execute()
      // One brand disappears from these responses, the others change their measures.
      const replaced = old
        .filter((m) => m.brand_id !== dropped)
        .map((m) => ({ ...m, occurrences: m.occurrences + 1, position: m.position + 1, sentiment: m.sentiment === null ? 0.5 : null }))
      if (replaced.length) await trx.insertInto('mention').values(replaced).execute()
      await addMentionRollups(trx, workspaceId, ids)
    })
    const after = await rollupSnapshot(db, workspaceId)
    expect(after.daily_mention_stats).not.toEqual(before.daily_mention_stats)
    expect(after.daily_brand_domain_stats.length).toBeLessThanOrEqual(before.daily_brand_domain_stats.length)
    // Facts-only families did not move.
    expect(after.daily_response_stats).toEqual(before.daily_response_stats)
    expect(after.daily_url_stats).toEqual(before.daily_url_stats)
    await rebuildRollups(db, workspaceId)
    expectSameRollups(await rollupSnapshot(db, workspaceId), after, expect)
  }, 120_000)

  // Retracting without adding back: every row of those responses' mentions must go, not
  // linger at zero.
  it('retracting mentions that are then deleted leaves no zero rows', async () => {
    const db = ctx.database.db
    const ids = (await sql<{ id: string }>`select id from response where workspace_id = ${workspaceId} order by id desc limit 50`.execute(db)).rows.map((r) => r.id)
    await db.transaction().execute(async (trx) => {
      await retractMentionRollups(trx, workspaceId, [...ids, ...ids.slice(0, 5)])
      await trx.deleteFrom('mention').where('workspace_id', '=', workspaceId).where('response_id', 'in', ids).execute()
    })
    const after = await rollupSnapshot(db, workspaceId)
    const { rows } = await sql<{ n: number }>`select count(*) as n from daily_brand_totals where workspace_id = ${workspaceId} and responses = 0`.execute(db)
    expect(Number(rows[0].n)).toBe(0)
    await rebuildRollups(db, workspaceId)
    expectSameRollups(await rollupSnapshot(db, workspaceId), after, expect)
  }, 120_000)

  it('stays exact after a prompt changes tags and after a rebuild', async () => {
    const prompt = await ctx.database.db.selectFrom('prompt').select(['id', 'tags']).where('workspace_id', '=', workspaceId).orderBy('id').executeTakeFirstOrThrow()
    const { updatePrompt } = await import('../../src/manage/prompts.js')
    await updatePrompt(ctx.database.db, workspaceId, prompt.id, { tags: ['no-such-tag', ...prompt.tags] })
    const filters = await resolveAnalyticsFilters(ctx.database.db, workspaceId, { start_date: addDays(TODAY, -89), end_date: TODAY, tags: ['no-such-tag'] })
    const fast = await getDashboard(ctx.database.db, workspaceId, filters)
    expect(fast.total_mentions).toBeGreaterThan(0)
    expect(fast).toMatchObject(await referenceDashboard(ctx, workspaceId, filters))
    const untagged = await resolveAnalyticsFilters(ctx.database.db, workspaceId, { start_date: addDays(TODAY, -89), end_date: TODAY, models: ['openai', 'google'] })
    const untaggedBefore = await getDashboard(ctx.database.db, workspaceId, untagged)
    expect(untaggedBefore).toMatchObject(await referenceDashboard(ctx, workspaceId, untagged))
    await rebuildRollups(ctx.database.db, workspaceId)
    expect(await getDashboard(ctx.database.db, workspaceId, filters)).toEqual(fast)
    expect(await getDashboard(ctx.database.db, workspaceId, untagged)).toEqual(untaggedBefore)
  }, 120_000)
})
