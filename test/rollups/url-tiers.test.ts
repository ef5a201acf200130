// The URL rollups by quarter and year (migration 0022) against the citation facts, after
// ingest, after a re-analysis and after a rebuild; and /urls-detailed read through them
// (whole years, quarters, months, loose days, and partial ones read whole when the rest of
// them is empty) equal to the same read over the facts, for ranges across year and quarter
// boundaries with citations on both sides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post, settled } from '../helpers/requests.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { resolveAnalyticsFilters } from '../../src/queries/analytics-filters.js'
import { getUrlsDetailed } from '../../src/queries/urls/get-urls-detailed.js'
import { getUrls } from '../../src/queries/urls/get-urls.js'
import { addDays } from '../../src/core/date-range.js'

// Days around the boundaries the tiers cut at (year, quarter, month), with gaps between
// them so that some partial units have other responses and some have none.
const DAYS = [
  '2024-11-15',
  '2024-12-31',
  '2025-01-01',
  '2025-02-10',
  '2025-03-31',
  '2025-04-01',
  '2025-05-20',
  '2025-06-30',
  '2025-08-15',
  '2025-10-01',
  '2025-12-31',
  '2026-01-01',
  '2026-02-14',
  '2026-04-02',
]
const URLS = ['https://acme.com/pricing', 'https://acme.com/blog', 'https://wikipedia.org/wiki/CRM', 'https://rival.com/features', 'https://g2.com/crm']

/** The rows every URL tier must hold: citations per URL and calendar unit, straight from the facts. */
async function fromFacts(ctx: TestContext, workspaceId: string, bucket: 'month' | 'quarter' | 'year'): Promise<string[]> {
  const { rows } = await sql<{ row: string }>`
    select json_build_array(f.unit, f.url_id, f.citations, f.first_cited, f.last_cited)::text as row
    from (
      select date_trunc(${sql.lit(bucket)}, c.created_at at time zone 'UTC')::date as unit, u.id as url_id, count(*) as citations,
        min(c.created_at) as first_cited, max(c.created_at) as last_cited
      from citation c join workspace_url u on u.workspace_id = c.workspace_id and u.url = c.url
      where c.workspace_id = ${workspaceId}
      group by 1, 2
    ) f`.execute(ctx.database.db)
  return rows.map((r) => r.row).sort()
}

async function fromTier(ctx: TestContext, workspaceId: string, bucket: 'month' | 'quarter' | 'year'): Promise<string[]> {
  const table = { month: 'monthly_url_stats', quarter: 'quarterly_url_stats', year: 'yearly_url_stats' }[bucket]
  const { rows } = await sql<{ row: string }>`
    select json_build_array(${sql.ref(bucket)}, url_id, citations, first_cited, last_cited)::text as row
    from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(ctx.database.db)
  return rows.map((r) => r.row).sort()
}

describe.each(testBackends)('URL rollups by quarter and year (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { key: string; workspaceId: string }

  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true })
    tenant = await ctx.tenant()
    await createBrand(ctx, tenant.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    const prompt = await createPrompt(ctx, tenant.key, 'best crm tools', ['crm'])
    // Ingest request shape: spec 2.1 (POST /api/v1/ingest/responses).
    const responses = DAYS.flatMap((day, d) =>
      [0, 1, 2].map((i) => ({
        provider: i === 1 ? 'anthropic' : 'openai',
        model: i === 1 ? 'claude-3-5-sonnet' : 'gpt-4o',
        prompt_id: prompt,
        created_at: `${day}T${String(3 + i * 9).padStart(2, '0')}:00:00Z`,
        content: `Acme and Rival compared, answer ${d}-${i}.`,
        // A different subset of the URLs each time, so counts differ per unit.
        citations: URLS.filter((_, u) => (d + i + u) % 3 !== 0).map((url) => ({ url, title: `${url} ${d}` })),
      })),
    )
    await ingest(ctx, tenant.key, responses)
  }, 120_000)
  afterAll(() => ctx.close())

  const expectTiersEqualFacts = async () => {
    for (const bucket of ['month', 'quarter', 'year'] as const) {
      const facts = await fromFacts(ctx, tenant.workspaceId, bucket)
      expect(facts.length).toBeGreaterThan(0)
      expect(await fromTier(ctx, tenant.workspaceId, bucket), bucket).toEqual(facts)
    }
  }

  it('after ingest, the quarterly and yearly rows are the facts folded by quarter and year', async () => {
    expect((await fromTier(ctx, tenant.workspaceId, 'year')).length).toBe(3 * URLS.length)
    await expectTiersEqualFacts()
  })

  it('reads through them equal the facts for ranges across year, quarter and month boundaries', async () => {
    const db = ctx.database.db
    // Every day of DAYS, the day before and after: ranges start and end inside and at the
    // edges of units, with and without responses in the rest of those units.
    const edges = [...new Set(DAYS.flatMap((day) => [addDays(day, -1), day, addDays(day, 1)]))].sort()
    let compared = 0
    for (let i = 0; i < edges.length; i += 2) {
      for (let j = i; j < edges.length; j += 3) {
        const filters = await resolveAnalyticsFilters(db, tenant.workspaceId, { start_date: edges[i], end_date: edges[j] })
        const page = { page: 1, perPage: 3 }
        expect(await getUrlsDetailed(db, tenant.workspaceId, filters, page), `${edges[i]}..${edges[j]}`).toEqual(
          await getUrlsDetailed(db, tenant.workspaceId, filters, page, 'facts'),
        )
        expect(await getUrls(db, tenant.workspaceId, filters, { page: 2, perPage: 2 })).toEqual(await getUrls(db, tenant.workspaceId, filters, { page: 2, perPage: 2 }, 'facts'))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(50)
  }, 120_000)

  it('after a re-analysis and after a rebuild they still equal the facts', async () => {
    // A new brand re-analyses the workspace's history (a background job).
    await settled(ctx, tenant.workspaceId, await post(ctx, '/api/v1/brands', tenant.key, { name: 'Rival', domain: 'rival.com' }))
    const { rows } = await sql<{
      n: number
    }>`select count(*)::int as n from mention m join brand b on b.id = m.brand_id where b.name = 'Rival' and m.workspace_id = ${tenant.workspaceId}`.execute(ctx.database.db)
    expect(rows[0].n).toBeGreaterThan(0)
    await expectTiersEqualFacts()
    await rebuildRollups(ctx.database.db, tenant.workspaceId, { families: ['url-stats'] })
    await expectTiersEqualFacts()
  }, 120_000)
})
