// A workspace the planner's statistics do not know (created after the last ANALYZE of the
// fact tables) is estimated at one row. The rollup statements of its ingest batches used to
// be planned for that row: the per-response probe took the smallest index that leads with
// workspace_id and read all of the workspace's facts once per response, and
// brand-domain-stats joined all of its citations (README, "Beyond one server", limit 3:
// 75 s for one statement of a 500-response batch, quadratic in the workspace's size). The
// plans must not depend on that estimate: every read of mention, citation and response in a
// batch's statements is an index probe by response id. Built here cheaply: one workspace
// with thousands of analysed facts, then a new one whose facts arrive after the ANALYZE,
// planned as the API's request transaction runs them (the service role under row-level
// security). Its rollups kept by ingestion must still equal a rebuild from the facts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { ingestResponses } from '../../src/ingest/ingest-responses.js'
import { maintenanceStatements, rebuildRollups } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'
import { APP_ROLE, canUseAppRole, inTransaction } from '../../src/db/tenant-scope.js'

const FACT_PROBE_COLUMN: Record<string, string> = { mention: 'response_id', citation: 'response_id', response: 'id' }

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  'Recheck Cond'?: string
  Plans?: PlanNode[]
}

/** Every scan of a fact table in the plan, with the index condition that bounds it. */
function factScans(node: PlanNode, found: { table: string; node: string; index: string; condition: string }[] = []) {
  const table = node['Relation Name']
  // A ModifyTable node names the table it writes (workspace_url's numbering), not a read.
  if (table && table in FACT_PROBE_COLUMN && node['Node Type'] !== 'ModifyTable') {
    // A bitmap heap scan's bound is its bitmap index scan's condition (its recheck).
    found.push({ table, node: node['Node Type'], index: node['Index Name'] ?? '', condition: node['Index Cond'] ?? node['Recheck Cond'] ?? '' })
  }
  for (const child of node.Plans ?? []) factScans(child, found)
  return found
}

const answers = (prefix: string, promptId: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    external_id: `${prefix}-${i}`,
    prompt_id: promptId,
    provider: i % 2 ? 'openai' : 'anthropic',
    model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
    content: `Acme, Globex and Initech. https://acme.com/${i % 7} https://initech.com/${i % 5} https://example.org/${prefix}/${i}`,
    created_at: `2026-06-${String(1 + (i % 9)).padStart(2, '0')}T1${i % 10}:00:00Z`,
  }))

describe.each(testBackends)('rollup statements of a workspace the statistics do not know (%s)', (backend) => {
  let ctx: TestContext
  let fresh: { workspaceId: string; responseIds: string[] }
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    const db = ctx.database.db
    // The known workspace: a few answers through ingestion (prompt, brands, models), then
    // thousands more copied in SQL, with their mentions and citations; then ANALYZE.
    const known = await ctx.tenant()
    const knownPrompt = await createPrompt(ctx, known.key, 'Best CRM?')
    for (const name of ['Acme', 'Globex', 'Initech']) await createBrand(ctx, known.key, { name, domain: `${name.toLowerCase()}.com` })
    await ingestResponses(db, known.workspaceId, answers('known', knownPrompt, 20), { now: new Date('2026-07-01T00:00:00Z') })
    await sql`
      insert into response (workspace_id, id, prompt_id, provider, model, content, created_at)
      select workspace_id, gen_random_uuid(), prompt_id, provider, model, content, created_at - g * interval '1 minute'
      from response, generate_series(1, 400) g where workspace_id = ${known.workspaceId}`.execute(db)
    await sql`
      insert into mention (workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position)
      select r.workspace_id, r.id, b.id, r.prompt_id, r.provider, r.model, r.created_at, 1, 1
      from response r join brand b on b.workspace_id = r.workspace_id where r.workspace_id = ${known.workspaceId} and r.external_id is null`.execute(db)
    await sql`
      insert into citation (workspace_id, response_id, url, domain, prompt_id, provider, model, created_at)
      select r.workspace_id, r.id, 'https://' || d || '/' || (extract(epoch from r.created_at)::bigint % 50), d, r.prompt_id, r.provider, r.model, r.created_at
      from response r, unnest(array['acme.com', 'initech.com', 'example.org']) d where r.workspace_id = ${known.workspaceId} and r.external_id is null`.execute(db)
    for (const table of ['response', 'mention', 'citation', 'prompt', 'brand', 'workspace_url']) await sql`analyze ${sql.table(table)}`.execute(db)

    // The new workspace: created and ingested after the ANALYZE.
    const created = await ctx.tenant()
    const prompt = await createPrompt(ctx, created.key, 'Cheapest CRM?', ['pricing'])
    for (const name of ['Acme', 'Globex', 'Initech']) await createBrand(ctx, created.key, { name, domain: `${name.toLowerCase()}.com` })
    const result = await ingestResponses(db, created.workspaceId, answers('fresh', prompt, 60), { now: new Date('2026-07-01T00:00:00Z') })
    expect(result.accepted).toBe(60)
    const { rows } = await sql<{ id: string }>`select id from response where workspace_id = ${created.workspaceId} order by id`.execute(db)
    fresh = { workspaceId: created.workspaceId, responseIds: rows.map((r) => r.id) }
  }, 180_000)
  afterAll(() => ctx.close())

  it('keeps rollups by ingestion that equal a rebuild from the facts', async () => {
    const db = ctx.database.db
    const kept = await rollupSnapshot(db, fresh.workspaceId)
    expect(kept.daily_brand_domain_stats.length).toBeGreaterThan(10)
    await rebuildRollups(db, fresh.workspaceId)
    expectSameRollups(await rollupSnapshot(db, fresh.workspaceId), kept, expect)
  })

  it.runIf(backend === 'postgres')('probes the facts by response id, whatever the workspace is estimated at', async () => {
    const plans = await inTransaction(ctx.database.db, async (trx) => {
      if (!(await canUseAppRole(trx))) return null
      // The estimate is what the bug turned on: the statistics must not know the new workspace.
      const { rows: estimate } = await sql<{
        'QUERY PLAN': { Plan: { 'Plan Rows': number } }[]
      }>`explain (format json) select * from mention where workspace_id = ${fresh.workspaceId}`.execute(trx)
      expect(estimate[0]['QUERY PLAN'][0].Plan['Plan Rows']).toBeLessThan(5)
      // As the API's ingest runs them: the service role, the request's workspace.
      await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.workspace_id', ${fresh.workspaceId}, true)`.execute(trx)
      const found: { statement: number; scans: ReturnType<typeof factScans> }[] = []
      for (const [i, statement] of maintenanceStatements(fresh.workspaceId, fresh.responseIds).entries()) {
        const { rows } = await sql<{ 'QUERY PLAN': { Plan: PlanNode }[] }>`explain (format json) ${statement}`.execute(trx)
        found.push({ statement: i, scans: factScans(rows[0]['QUERY PLAN'][0].Plan) })
      }
      return found
    })
    if (plans === null) return expect.fail('the test database has no usable beacon_app role; row-level security is not being tested')
    const scans = plans.flatMap((p) => p.scans.map((s) => ({ statement: p.statement, ...s })))
    // Every family reads facts: mention, citation and response all appear. (The tables joined
    // to them, prompt and workspace_url, are probed per fact row too, scope.lookup; here they
    // are a few rows and a sequential scan is their cheapest read.)
    expect(new Set(scans.map((s) => s.table))).toEqual(new Set(Object.keys(FACT_PROBE_COLUMN)))
    const unbounded = scans.filter((s) => !new RegExp(`\\b${FACT_PROBE_COLUMN[s.table]} = `).test(s.condition))
    expect(unbounded, JSON.stringify(scans, null, 1)).toEqual([])
  })
})
