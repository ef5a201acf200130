// Which fact-table index each read, export, re-analysis and rollup statement uses (issue 32:
// the covering indexes of the fact tables were 3.9 GB at 1M responses against 2.0 GB of
// heap). Runs the application's own query functions against a dataset (the computed
// fallbacks forced with strategy 'facts' or with a filter no rollup serves), captures every
// statement they send, and explains each: as the schema is, and with `--drop` indexes
// dropped inside a transaction that is rolled back (BEGIN; DROP INDEX …; EXPLAIN; ROLLBACK),
// so the same run is its own yardstick.
//   DATABASE_URL=postgres://…/copy npx tsx bench/fact-index-audit.ts --dataset bench/.dataset-1m.json \
//     [--drop citation_prompt_idx,citation_url_idx] [--rounds 3] [--label before] [--only sources]
// Writes bench/results/<date>-fact-index-audit-<label>.json. Never run it on a shared
// database with --drop: the DROP takes an exclusive lock on the table until the rollback.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely'
import pg from 'pg'
import type { Database } from '../src/db/schema.js'
import { addDays } from '../src/core/date-range.js'
import { resolveAnalyticsFilters, type AnalyticsQuery } from '../src/queries/analytics-filters.js'
import { getSources } from '../src/queries/sources/get-sources.js'
import { getUrls } from '../src/queries/urls/get-urls.js'
import { getUrlsDetailed } from '../src/queries/urls/get-urls-detailed.js'
import { getPromptDetail } from '../src/queries/prompts/get-prompt-detail.js'
import { getPromptPerformance } from '../src/queries/prompts/get-prompt-performance.js'
import { getBrandDetail } from '../src/queries/brands/get-brand-detail.js'
import { getResponsePreviews } from '../src/queries/responses/get-response-previews.js'
import { getResponseDetail } from '../src/queries/responses/get-response-detail.js'
import { buildDigest } from '../src/digest/build-digest.js'
import { EXPORT_DEFINITIONS } from '../src/exports/definitions/index.js'
import { readResponseBatch } from '../src/ingest/reanalyze.js'
import { FAMILIES } from '../src/rollups/registry.js'
import { scopeSql } from '../src/rollups/types.js'
import type { DB } from '../src/db/database.js'

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/.dataset.json' },
    drop: { type: 'string', default: '' },
    rounds: { type: 'string', default: '3' },
    label: { type: 'string', default: 'audit' },
    only: { type: 'string' },
  },
})
const url = process.env.DATABASE_URL
if (!url) throw new Error('Set DATABASE_URL to a COPY of the dataset’s PostgreSQL database (--drop locks the fact tables while it explains)')
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string; end_day: string }
const drops = values.drop.split(',').filter(Boolean)
const rounds = Number(values.rounds)

const pool = new pg.Pool({ connectionString: url, max: 1 })
const captured: CompiledQuery[] = []
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void (event.level === 'query' && captured.push(event.query)) })
const ws = dataset.workspace_id
const end = dataset.end_day
const filtersOf = (days: number, query: AnalyticsQuery = {}) =>
  resolveAnalyticsFilters(db, ws, { start_date: addDays(end, -(days - 1)), end_date: end, ...query }, new Date(`${end}T12:00:00Z`))

const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows[0]
const brand = await one(sql<{ id: string }>`select id from brand where workspace_id = ${ws} and is_primary`)
const prompt = await one(sql<{ prompt_id: string }>`
  select prompt_id from response where workspace_id = ${ws} and created_at >= ${addDays(end, -29)}::date group by 1 order by count(*) desc, 1 limit 1`)
const someDomain = await one(sql<{ domain: string }>`select domain from citation where workspace_id = ${ws} and created_at >= ${addDays(end, -1)}::date limit 1`)
const someResponse = await one(sql<{ id: string }>`select id from response where workspace_id = ${ws} and created_at >= ${addDays(end, -1)}::date limit 1`)
const batchIds = (await sql<{ id: string }>`select id from response where workspace_id = ${ws} and created_at >= ${addDays(end, -3)}::date limit 500`.execute(db)).rows.map(
  (r) => r.id,
)
const page = { page: 1, perPage: 50 }
const providers = { models: ['openai'] }

const f30 = await filtersOf(30)
const f365 = await filtersOf(365)
const f30p = await filtersOf(30, providers)
const f365p = await filtersOf(365, providers)
const f30t = await filtersOf(30, { tags: ['pricing'] })

/** Each scenario runs the application's function once; its statements are what gets explained. `analyze: false` explains without running. */
const scenarios: { name: string; run: (db: DB) => Promise<unknown>; analyze?: boolean }[] = [
  { name: 'sources 30d facts', run: (d) => getSources(d, ws, f30, page, 'facts') },
  { name: 'sources 365d models', run: (d) => getSources(d, ws, f365p, page) },
  { name: 'sources 30d models prompt', run: (d) => getSources(d, ws, f30p, { ...page, promptId: prompt.prompt_id }) },
  { name: 'sources 30d page 2 tags', run: (d) => getSources(d, ws, f30t, { page: 2, perPage: 50 }) },
  { name: 'urls-detailed 30d facts', run: (d) => getUrlsDetailed(d, ws, f30, page, 'facts') },
  { name: 'urls-detailed 365d models', run: (d) => getUrlsDetailed(d, ws, f365p, page) },
  { name: 'urls-detailed 30d models prompt', run: (d) => getUrlsDetailed(d, ws, f30p, { ...page, promptId: prompt.prompt_id }) },
  { name: 'urls 30d models source', run: (d) => getUrls(d, ws, f30p, { ...page, sourceId: someDomain.domain }) },
  { name: 'urls 365d (rollups; title lookup)', run: (d) => getUrls(d, ws, f365, page) },
  { name: 'prompts 30d facts', run: (d) => getPromptPerformance(d, ws, brand.id, f30, page, 'facts') },
  { name: 'prompts 30d models', run: (d) => getPromptPerformance(d, ws, brand.id, f30p, page) },
  { name: 'prompt detail 30d facts', run: (d) => getPromptDetail(d, ws, prompt.prompt_id, f30, 'facts') },
  { name: 'prompt detail 365d facts', run: (d) => getPromptDetail(d, ws, prompt.prompt_id, f365, 'facts') },
  { name: 'brand detail 30d facts', run: (d) => getBrandDetail(d, ws, brand.id, f30, 'facts') },
  { name: 'brand detail 30d models', run: (d) => getBrandDetail(d, ws, brand.id, f30p) },
  { name: 'responses 30d models', run: (d) => getResponsePreviews(d, ws, f30p, { page }) },
  { name: 'response detail', run: (d) => getResponseDetail(d, ws, someResponse.id) },
  { name: 'digest', run: (d) => buildDigest(d, ws, { now: new Date(`${end}T12:00:00Z`) }) },
  ...EXPORT_DEFINITIONS.flatMap((def) => [
    { name: `export ${def.type} 30d all`, run: (d: DB) => d.executeQuery(def.source(d, ws, f30).all()) },
    { name: `export ${def.type} 30d page`, run: (d: DB) => d.executeQuery(def.source(d, ws, f30).page(null, 2000)) },
    { name: `export ${def.type} 30d measure`, run: (d: DB) => def.measure(d, ws, f30) },
  ]),
  { name: 'reanalysis read batch', run: (d) => readResponseBatch(d, ws, undefined) },
  ...FAMILIES.map((f) => ({
    name: `rollup batch ${f.name}`,
    run: (d: DB) => sql`select count(*) from (${f.select(scopeSql({ workspaceId: ws, responseIds: batchIds }))}) x`.execute(d),
  })),
  // compiled, not run: a family's whole-workspace select takes minutes at 1M
  ...FAMILIES.map((f) => ({
    name: `rollup rebuild ${f.name}`,
    analyze: false,
    run: async () => void captured.push(sql`select count(*) from (${f.select(scopeSql({ workspaceId: ws }))}) x`.compile(db)),
  })),
]

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  'Shared Hit Blocks'?: number
  'Shared Read Blocks'?: number
  Plans?: PlanNode[]
}
const FACT_TABLES = ['response', 'mention', 'citation', 'aio_observation', 'aio_appearance']
/** The fact-table scans of a plan: Seq:table, Index:name, Index Only:name, Bitmap Index:name (its heap scan is implied). */
const scansOf = (node: PlanNode): string[] => [
  ...((node['Relation Name'] && FACT_TABLES.includes(node['Relation Name']) && node['Node Type'] !== 'Bitmap Heap Scan') ||
  (node['Node Type'] === 'Bitmap Index Scan' && FACT_TABLES.some((t) => node['Index Name']?.startsWith(`${t}_`)))
    ? [`${node['Node Type'].replace(' Scan', '')}:${node['Index Name'] ?? node['Relation Name']}`]
    : []),
  ...(node.Plans ?? []).flatMap(scansOf),
]
const FACT = /\b(response|mention|citation|aio_observation|aio_appearance)\b/

interface Explained {
  ms: number | null
  buffers: number
  scans: string[]
}
async function explain(client: pg.PoolClient, query: CompiledQuery, analyze: boolean): Promise<Explained> {
  const { rows } = await client.query(`explain (${analyze ? 'analyze, buffers, ' : ''}format json) ${query.sql}`, query.parameters as unknown[])
  const plan = (rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time'?: number }] })['QUERY PLAN'][0]
  return {
    ms: plan['Execution Time'] ?? null,
    buffers: (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0),
    scans: [...new Set(scansOf(plan.Plan))],
  }
}
/** The median of `rounds` passes after one warm-up (one pass of a millisecond statement on a shared machine is noise). */
async function measured(client: pg.PoolClient, query: CompiledQuery, analyze: boolean, dropped: boolean): Promise<Explained> {
  const passes: Explained[] = []
  for (let i = 0; i < (analyze ? rounds + 1 : 1); i++) {
    if (dropped) {
      await client.query('begin')
      for (const name of drops) await client.query(`drop index ${pg.escapeIdentifier(name)}`)
    }
    try {
      passes.push(await explain(client, query, analyze))
    } finally {
      if (dropped) await client.query('rollback')
    }
  }
  const kept = analyze ? passes.slice(1) : passes
  kept.sort((a, b) => (a.ms ?? 0) - (b.ms ?? 0))
  return kept[Math.floor(kept.length / 2)]
}

const results: { scenario: string; statement: string; as_is: Explained; dropped?: Explained }[] = []
for (const scenario of scenarios) {
  if (values.only && !scenario.name.includes(values.only)) continue
  captured.length = 0
  await db
    .transaction()
    .execute(async (trx) => {
      await scenario.run(trx)
      // nothing a scenario does is kept (the rollup and export statements only read)
      throw Object.assign(new Error('rollback'), { rollback: true })
    })
    .catch((error: { rollback?: boolean }) => {
      if (!error.rollback) throw error
    })
  const statements = captured.filter((q) => FACT.test(q.sql) && !/^(begin|commit|rollback)/i.test(q.sql))
  const client = await pool.connect()
  try {
    for (const query of statements) {
      const analyze = scenario.analyze !== false
      const asIs = await measured(client, query, analyze, false)
      const row = {
        scenario: scenario.name,
        statement: query.sql.replace(/\s+/g, ' ').slice(0, 90),
        as_is: asIs,
        ...(drops.length ? { dropped: await measured(client, query, analyze, true) } : {}),
      }
      results.push(row)
      const fmt = (e: Explained) => `${e.ms === null ? '   plan' : `${e.ms.toFixed(1).padStart(7)} ms`} ${String(e.buffers).padStart(7)} buf  ${e.scans.join(' ')}`
      console.log(`${scenario.name.padEnd(38)} ${fmt(asIs)}${row.dropped ? `\n${''.padEnd(34)}drop ${fmt(row.dropped)}` : ''}`)
    }
  } finally {
    client.release()
  }
}

mkdirSync('bench/results', { recursive: true })
const out = `bench/results/${end}-fact-index-audit-${values.label}.json`
writeFileSync(out, JSON.stringify({ dataset: values.dataset, drop: drops, rounds, load: loadavg(), results }, null, 2))
console.log(`wrote ${out}`)
await db.destroy()
