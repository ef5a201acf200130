// The dashboard's distinct cited domains under tags and models come from domain_tag_days
// (migration 0023: per provider × model × single prompt tag × domain, the days cited). The
// count must equal the one over the raw citations after ingest, after a re-analysis, and
// after prompts change tags (one loses all its tags, one gains a tag) and more answers
// arrive, and the table kept by ingestion must equal a rebuild from the facts. Domains are
// chosen so a wrong grain shows: one cited only by an untagged prompt (the '{}' rows), one
// only by a prompt with two tags, one only by one model of a provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { getDashboard } from '../../src/queries/dashboard/get-dashboard.js'
import { resolveAnalyticsFilters, type AnalyticsFilters } from '../../src/queries/analytics-filters.js'
import { reanalyzeWorkspace } from '../../src/ingest/reanalyze.js'
import { updatePrompt } from '../../src/manage/prompts.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { rollupSnapshot } from '../helpers/rollup-snapshot.js'
import { distinctDomainsFromRollup } from '../../src/queries/rollup-conditions.js'
import { APP_ROLE, canUseAppRole, inTransaction } from '../../src/db/tenant-scope.js'

const DAYS = ['2026-05-28', '2026-05-30', '2026-06-02', '2026-06-03', '2026-06-09']

// Provider and model pairs as the ingest API takes them (src/ingest/ingest-responses.ts: a
// model belongs to one provider); two models of openai so a model_ids filter splits one.
const MODELS = [
  ['openai', 'gpt-4o'],
  ['openai', 'gpt-4o-mini'],
  ['anthropic', 'claude-sonnet-4'],
  ['google', 'gemini-2.5-pro'],
] as const

// Filter combinations: tags alone, with providers, with model ids, models alone, an unknown tag.
const FILTERS: { tags?: string[]; models?: string[]; model_ids?: string[] }[] = [
  { tags: ['pricing'] },
  { tags: ['enterprise'], models: ['openai', 'anthropic'] },
  { tags: ['pricing', 'enterprise'], models: ['openai', 'anthropic'] },
  { tags: ['smb'], model_ids: ['gpt-4o-mini'] },
  { tags: ['pricing', 'smb'], models: ['openai'], model_ids: ['gpt-4o'] },
  { model_ids: ['gpt-4o-mini', 'gemini-2.5-pro'] },
  { models: ['google'], model_ids: ['gemini-2.5-pro'] },
  { tags: ['no-such-tag'], models: ['openai'] },
]
const RANGES = [
  { start_date: DAYS[0], end_date: DAYS[4] },
  { start_date: DAYS[1], end_date: DAYS[2] },
  { start_date: DAYS[3], end_date: DAYS[3] },
]

/** docs/metrics.md's distinct sources, straight over the citations. */
async function factsCount(ctx: TestContext, workspaceId: string, f: AnalyticsFilters): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(distinct c.domain) as n from citation c
    where c.workspace_id = ${workspaceId} and c.created_at >= ${f.from} and c.created_at < ${f.to}
      and (cardinality(${f.providers}::text[]) = 0 or c.provider = any(${f.providers}::text[]))
      and (cardinality(${f.modelIds}::text[]) = 0 or c.model = any(${f.modelIds}::text[]))
      and (cardinality(${f.tags}::text[]) = 0 or exists (select 1 from prompt p where p.workspace_id = c.workspace_id and p.id = c.prompt_id and p.tags && ${f.tags}::text[]))`.execute(
    ctx.database.db,
  )
  return Number(rows[0].n)
}

describe.each(testBackends)('distinct domains under tags and models from domain_tag_days (%s)', (backend) => {
  let ctx: TestContext
  let workspaceId: string
  let key: string
  let prompts: { untagged: string; pricing: string; pricingEnterprise: string; smb: string }
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    ;({ workspaceId, key } = await ctx.tenant())
    prompts = {
      untagged: await createPrompt(ctx, key, 'Best CRM?'),
      pricing: await createPrompt(ctx, key, 'Cheapest CRM?', ['pricing']),
      pricingEnterprise: await createPrompt(ctx, key, 'CRM for a large sales team, priced per seat?', ['pricing', 'enterprise']),
      smb: await createPrompt(ctx, key, 'CRM for a five-person shop?', ['smb']),
    }
    for (const name of ['Acme', 'Globex']) await createBrand(ctx, key, { name, domain: `${name.toLowerCase()}.com` })
  })
  afterAll(() => ctx.close())

  /** Answers for every prompt, model and day, each citing a shared domain and its own ones. */
  function answers(round: string, promptIds: Record<string, string>) {
    const items: unknown[] = []
    for (const [name, promptId] of Object.entries(promptIds)) {
      MODELS.forEach(([provider, model], m) => {
        DAYS.forEach((day, d) => {
          // Not every combination on every day: the day sets get gaps.
          if ((m + d) % 3 === 2) return
          const urls = [`https://shared.example.com/${d}`, `https://only-${name.toLowerCase()}.example.com/${round}`, `https://${model}-${d % 2}.example.org/`]
          items.push({
            external_id: `${round}-${name}-${model}-${day}`,
            prompt_id: promptId,
            provider,
            model,
            content: `Acme is solid; Globex costs less. ${urls.join(' ')}`,
            created_at: `${day}T${String(8 + m).padStart(2, '0')}:30:00Z`,
          })
        })
      })
    }
    return items
  }

  async function expectExact(stage: string) {
    let compared = 0
    for (const filter of FILTERS) {
      for (const range of RANGES) {
        const filters = await resolveAnalyticsFilters(ctx.database.db, workspaceId, { ...range, ...filter })
        const fast = await getDashboard(ctx.database.db, workspaceId, filters)
        expect(fast.total_sources, `${stage}: ${JSON.stringify({ ...range, ...filter })}`).toBe(await factsCount(ctx, workspaceId, filters))
        if (fast.total_sources > 0) compared++
      }
    }
    // Most combinations must find domains, or the comparison says little.
    expect(compared).toBeGreaterThan(FILTERS.length * RANGES.length * 0.6)
  }

  async function expectKeptEqualsRebuild() {
    const kept = (await rollupSnapshot(ctx.database.db, workspaceId)).domain_tag_days
    await rebuildRollups(ctx.database.db, workspaceId)
    expect((await rollupSnapshot(ctx.database.db, workspaceId)).domain_tag_days).toEqual(kept)
    return kept
  }

  it('equals the facts after ingest, re-analysis, and a tag change with more answers', async () => {
    expect((await ingest(ctx, key, answers('r1', prompts))).accepted).toBeGreaterThan(40)
    const kept = await expectKeptEqualsRebuild()
    // One row per single tag, and '' rows for the untagged prompt.
    const tags = new Set(kept.map((row) => (JSON.parse(row) as { tag: string }).tag))
    expect([...tags].sort()).toEqual(['', 'enterprise', 'pricing', 'smb'])
    await expectExact('after ingest')

    // Re-analysis with another brand list replaces mentions; citations, and so this table, stay.
    await createBrand(ctx, key, { name: 'Initech', domain: 'initech.com' })
    await reanalyzeWorkspace(ctx.database.db, workspaceId)
    expect((await rollupSnapshot(ctx.database.db, workspaceId)).domain_tag_days).toEqual(kept)
    await expectExact('after re-analysis')

    // The pricing prompt loses its tags, the untagged one gains one: their history moves.
    await updatePrompt(ctx.database.db, workspaceId, prompts.pricing, { tags: [] })
    await updatePrompt(ctx.database.db, workspaceId, prompts.untagged, { tags: ['enterprise'] })
    await expectExact('after tag changes')
    // New answers for the now untagged prompt add '' rows by ingestion.
    expect((await ingest(ctx, key, answers('r2', { pricing: prompts.pricing, smb: prompts.smb }))).accepted).toBeGreaterThan(20)
    await expectExact('after more answers')
    await expectKeptEqualsRebuild()
    await expectExact('after a rebuild')
  }, 180_000)

  // Under row-level security PostgreSQL lets only leakproof operators into index conditions;
  // with the tag as a one-element text[] (array equality is not leakproof) the app role's
  // read scanned every row of the workspace: 150-280 ms at 1M responses against 27 ms.
  it.runIf(backend === 'postgres')("reads the filter's tags as an index range under the app role", async () => {
    const filters = await resolveAnalyticsFilters(ctx.database.db, workspaceId, { start_date: DAYS[0], end_date: DAYS.at(-1), tags: ['pricing', 'smb'], model_ids: [MODELS[0][1]] })
    const plan = await inTransaction(ctx.database.db, async (trx) => {
      if (!(await canUseAppRole(trx))) return null
      // With statistics the planner weighs the tag's selectivity (without, it guesses one row per workspace and needs no more key columns).
      await sql`analyze domain_tag_days`.execute(trx)
      await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.workspace_id', ${workspaceId}, true), set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(
        trx,
      )
      const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) select ${distinctDomainsFromRollup(workspaceId, filters)}`.execute(trx)
      return JSON.stringify(rows[0]['QUERY PLAN'])
    })
    if (plan === null) return expect.fail('the test database has no usable beacon_app role; row-level security is not being tested')
    const indexConditions = [...plan.matchAll(/"Index Cond":"([^"]*)"/g)].map((m) => m[1])
    expect(
      indexConditions.some((condition) => condition.includes('tag')),
      plan,
    ).toBe(true)
  })
})
