// A rebuild (rebuildRest in src/rollups/engine.ts) folds each coarser bucket from the next
// finer one (months from days, quarters from months, years from quarters) and a fold family
// from its source's rows at its bucket, where ingestion folds every bucket from the batch's
// days. Every rollup table must hold the same rows after a rebuild as after ingestion, for
// facts across month, quarter and year boundaries and on both sides of UTC midnight, with
// months left empty between them, also when only some families (a fold without its source)
// are rebuilt, and into tables without the workspace's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { sql } from 'kysely'
import { analyzeIfStale, rebuildRollups, ROLLUP_TABLES } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'

const DAYS = ['2024-11-15', '2024-12-31', '2025-01-01', '2025-02-10', '2025-03-31', '2025-04-01', '2025-06-30', '2025-10-01', '2025-12-31', '2026-01-01', '2026-02-14']
const URLS = ['https://acme.com/pricing', 'https://acme.com/blog', 'https://wikipedia.org/wiki/CRM', 'https://rival.com/features', 'https://g2.com/crm']

describe.each(testBackends)('a rebuild from the facts (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { key: string; workspaceId: string }

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
        // Just after and just before UTC midnight: the rollups' days are UTC days.
        created_at: `${day}T${['00:00:00', '12:30:00', '23:59:59'][i]}Z`,
        content: i === 2 ? `Rival is fine, answer ${d}-${i}.` : `Acme and Rival compared, answer ${d}-${i}.`,
        citations: URLS.filter((_, u) => (d + i + u) % 3 !== 0).map((url) => ({ url, title: `${url} ${d}` })),
      })),
    )
    await ingest(ctx, tenant.key, batch)
  }, 300_000)
  afterAll(() => ctx.close())

  it('gives the rows ingestion keeps', async () => {
    const db = ctx.database.db
    const incremental = await rollupSnapshot(db, tenant.workspaceId)
    expect(incremental.yearly_url_stats.length).toBeGreaterThan(0)
    expect(incremental.domain_tag_days.length).toBeGreaterThan(0)
    expect(incremental.daily_brand_domain_stats.length).toBeGreaterThan(0)
    expect(incremental.monthly_mention_stats_by_provider.length).toBeGreaterThan(0)
    await rebuildRollups(db, tenant.workspaceId)
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    // A subset of the families: the others are left as they were. A fold rebuilt without its
    // source (response-stats-by-provider) sums its own select's rows; with it, the source's.
    await rebuildRollups(db, tenant.workspaceId, { families: ['url-stats', 'domain-prompt-days', 'mention-stats-by-provider', 'mention-stats', 'response-stats-by-provider'] })
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    // A rebuild that left a table empty, or did not delete first, would differ from ingestion.
    await sql`delete from monthly_mention_stats_by_provider where workspace_id = ${tenant.workspaceId}`.execute(db)
    await rebuildRollups(db, tenant.workspaceId, { families: ['mention-stats', 'mention-stats-by-provider'] })
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    // Into tables without the workspace's rows (bench:data): plain inserts, no difference. The
    // numbering tables stay, since the URL rollups store their numbers.
    const emptied = ROLLUP_TABLES.filter((table) => table !== 'workspace_url' && table !== 'workspace_domain')
    for (const table of emptied) await sql`delete from ${sql.table(table)} where workspace_id = ${tenant.workspaceId}`.execute(db)
    await rebuildRollups(db, tenant.workspaceId)
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    // Only the daily tables empty: the days are inserted, the coarser tables folded from them
    // and given the difference (none).
    for (const table of emptied.filter((t) => t.startsWith('daily_'))) await sql`delete from ${sql.table(table)} where workspace_id = ${tenant.workspaceId}`.execute(db)
    await rebuildRollups(db, tenant.workspaceId)
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
  }, 120_000)

  it('repairs damaged rows and leaves the right ones and other workspaces alone', async () => {
    const db = ctx.database.db
    const incremental = await rollupSnapshot(db, tenant.workspaceId)
    // Another workspace's rows, which the rebuild's difference must not touch.
    const other = await ctx.tenant()
    await createBrand(ctx, other.key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    const otherPrompt = await createPrompt(ctx, other.key, 'crm', ['crm'])
    await ingest(ctx, other.key, [
      { provider: 'openai', model: 'gpt-4o', prompt_id: otherPrompt, created_at: `${DAYS[2]}T10:00:00Z`, content: 'Acme.', citations: [{ url: URLS[0], title: 't' }] },
    ])
    const otherBefore = await rollupSnapshot(db, other.workspaceId)
    // In every table: one row deleted, one measure changed, one stray row under a key the
    // facts do not have. The rebuild writes only the difference (replaceRows), so each kind
    // must be found.
    const { rows: columns } = await sql<{ table: string; column: string; type: string }>`
      select table_name as table, column_name as column, data_type as type from information_schema.columns
      where table_schema = current_schema() and table_name = any(${ROLLUP_TABLES as string[]}::text[]) order by table_name, ordinal_position`.execute(db)
    const damaged: string[] = []
    for (const table of ROLLUP_TABLES) {
      if (table === 'workspace_url' || table === 'workspace_domain') continue
      const cols = columns.filter((c) => c.table === table)
      const ws = tenant.workspaceId
      const count = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where workspace_id = ${ws}`.execute(db)
      if (count.rows[0].n < 3) continue
      damaged.push(table)
      const strayKey = cols.find((c) => ['day', 'month', 'quarter', 'year', 'provider', 'domain'].includes(c.column))!
      const strayValue = strayKey.type === 'date' ? '1999-01-01' : 'stray.example'
      await sql`insert into ${sql.table(table)} select * from jsonb_populate_record(null::${sql.table(table)},
        (select to_jsonb(t) || jsonb_build_object(${strayKey.column}::text, ${strayValue}::text) from ${sql.table(table)} t where workspace_id = ${ws} limit 1))`.execute(db)
      const measure = cols[cols.length - 1]
      const bumped =
        measure.type === 'datemultirange'
          ? sql`${sql.ref(measure.column)} + datemultirange(daterange('1990-01-01', '1990-01-02'))`
          : measure.type.startsWith('timestamp')
            ? sql`${sql.ref(measure.column)} + interval '1 day'`
            : sql`${sql.ref(measure.column)} + 1`
      await sql`update ${sql.table(table)} set ${sql.ref(measure.column)} = ${bumped}
        where ctid = (select ctid from ${sql.table(table)} where workspace_id = ${ws} and ${sql.ref(strayKey.column)}::text <> ${strayValue} order by ctid limit 1)`.execute(db)
      await sql`delete from ${sql.table(table)} where ctid = (select ctid from ${sql.table(table)} where workspace_id = ${ws} and ${sql.ref(strayKey.column)}::text <> ${strayValue} order by ctid desc limit 1)`.execute(
        db,
      )
      expect((await rollupSnapshot(db, ws))[table], table).not.toEqual(incremental[table])
    }
    expect(damaged.length).toBeGreaterThan(20)
    // The same value at another numeric scale is a different row to a reader that prints it:
    // the rebuild rewrites it as a delete and insert did.
    await sql`update daily_mention_stats set sentiment_sum = sentiment_sum + 0.000 where workspace_id = ${tenant.workspaceId}`.execute(db)
    await rebuildRollups(db, tenant.workspaceId)
    expectSameRollups(await rollupSnapshot(db, tenant.workspaceId), incremental, expect)
    const { rows: scaled } = await sql<{ n: number }>`
      select count(*)::int as n from daily_mention_stats where workspace_id = ${tenant.workspaceId} and sentiment_sum::text like '%.000'`.execute(db)
    expect(scaled[0].n).toBe(0)
    expectSameRollups(await rollupSnapshot(db, other.workspaceId), otherBefore, expect)
  }, 120_000)

  it('analyzes the fact tables when they lack statistics, and not again when they have them', async () => {
    const db = ctx.database.db
    // A table that does not exist is skipped, not an error.
    await analyzeIfStale(db, ['response', 'mention', 'citation', 'no_such_table'])
    const { rows } = await sql<{ name: string; tuples: number }>`
      select relname as name, reltuples::float8 as tuples from pg_class where oid in ('response'::regclass, 'mention'::regclass, 'citation'::regclass)`.execute(db)
    for (const row of rows) expect(row.tuples, row.name).toBeGreaterThanOrEqual(0)
    expect(await analyzeIfStale(db, ['response', 'mention', 'citation'])).toEqual([])
    await rebuildRollups(db, tenant.workspaceId, { analyze: true })
  }, 120_000)
})
