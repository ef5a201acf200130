// The statements of GET /prompts/{id} (30 days ending the dataset's last day, its busiest
// prompt), over the facts and over the prompt's rollups (migration 0025), each under
// EXPLAIN (ANALYZE, BUFFERS): the buffers and rows each reads, to compare datasets of
// different sizes (the work of a rollup read should not follow the number of answers).
//   DATABASE_URL=postgres://…/beacon_bench_x npm run bench:prompt-detail -- --dataset bench/.dataset-x.json [--rounds 7]
// Migrates first (0025's backfill on an older dataset) and says how long that took.
// Prints a table and writes bench/results/<date>-prompt-detail-statements.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely'
import pg from 'pg'
import type { Database } from '../src/db/schema.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { resolveAnalyticsFilters } from '../src/queries/analytics-filters.js'
import { getPromptDetail } from '../src/queries/prompts/get-prompt-detail.js'
import type { ReadStrategy } from '../src/queries/rollup-conditions.js'
import { addDays } from '../src/core/date-range.js'

const { values } = parseArgs({ options: { dataset: { type: 'string', default: 'bench/.dataset.json' }, rounds: { type: 'string', default: '7' } } })
// One EXPLAIN ANALYZE of a millisecond statement on a shared machine is noise: each
// statement's figures are the median of this many passes (after one to warm the cache).
const rounds = Number(values.rounds)
const url = process.env.DATABASE_URL
if (!url) throw new Error('Set DATABASE_URL to the dataset’s PostgreSQL database (this bench reads plans, which PGlite gives too, but the figures compared are the server’s)')
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string; end_day: string; main: { responses: number } }

const pool = new pg.Pool({ connectionString: url, max: 1 })
const captured: CompiledQuery[] = []
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void (event.level === 'query' && captured.push(event.query)) })

const started = performance.now()
const { applied } = await migrateToLatest(db)
const migrateSeconds = Math.round((performance.now() - started) / 100) / 10
if (applied.length) console.log(`applied ${applied.join(', ')} in ${migrateSeconds} s`)

const ws = dataset.workspace_id
const range = { start: addDays(dataset.end_day, -29), end: dataset.end_day }
const busiest = await sql<{ prompt_id: string }>`
  select prompt_id from response where workspace_id = ${ws} and created_at >= ${range.start}::date group by 1 order by count(*) desc, 1 limit 1`.execute(db)
const promptId = busiest.rows[0]?.prompt_id
if (!promptId) throw new Error(`no responses in ${range.start}..${range.end}: is ${values.dataset} the dataset of this database?`)
const filters = await resolveAnalyticsFilters(db, ws, { start_date: range.start, end_date: range.end })

interface Statement {
  statement: string
  /** planning (a statement sent as text is planned each time) */
  plan_ms: number
  ms: number
  /** the fastest pass: on a loaded machine a pass is often descheduled mid-statement (spikes of 3-20 ms in any node), so the minimum is the work */
  min_ms?: number
  buffers: number
  rows: number
  /** The rollup read's one statement: rows and ms of each of its parts (a json_agg subquery per part, in the order it names them). */
  parts?: Record<string, { rows: number; ms: number; min_ms?: number }>
}
/** The parts of the rollup read's statement, in the order get-prompt-detail.ts's selectTogether names them. */
const PARTS = ['byDay', 'prevTotals', 'byBrandProvider', 'prevByBrand', 'withMentions', 'sources', 'brands']
/** Each statement the read sends (the prompt lookup and the brand list included), explained. */
async function explain(strategy: ReadStrategy): Promise<Statement[]> {
  captured.length = 0
  await getPromptDetail(db, ws, promptId!, filters, strategy)
  const queries = [...captured]
  const out: Statement[] = []
  for (const query of queries) {
    const { rows } = await pool.query(`explain (analyze, buffers, format json) ${query.sql}`, query.parameters as unknown[])
    const plan = (rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }] })['QUERY PLAN'][0]
    const initPlans = (plan.Plan.Plans ?? []).filter((node) => node['Parent Relationship'] === 'InitPlan')
    out.push({
      statement: query.sql.replace(/\s+/g, ' ').slice(0, 70),
      plan_ms: plan['Planning Time'],
      ms: plan['Execution Time'],
      buffers: buffers(plan.Plan),
      rows: scanned(plan.Plan),
      ...(initPlans.length === PARTS.length
        ? { parts: Object.fromEntries(initPlans.map((node, i) => [PARTS[i], { rows: scanned(node), ms: node['Actual Total Time'] ?? 0 }])) }
        : {}),
    })
  }
  return out
}
interface PlanNode {
  'Node Type': string
  'Shared Hit Blocks'?: number
  'Shared Read Blocks'?: number
  'Actual Rows'?: number
  'Actual Loops'?: number
  'Actual Total Time'?: number
  'Parent Relationship'?: string
  Plans?: PlanNode[]
}
const buffers = (node: PlanNode) => (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0)
/** Rows the scans at the leaves of the plan produced (what the statement read). */
const scanned = (node: PlanNode): number => (node.Plans?.length ? node.Plans.reduce((n, child) => n + scanned(child), 0) : (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1))

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
/** Each statement's median figures over the passes (rows and buffers do not vary). */
function medianOf(passes: Statement[][]): Statement[] {
  return passes[0]!.map((first, i) => {
    const at = passes.map((pass) => pass[i]!)
    return {
      ...first,
      plan_ms: median(at.map((s) => s.plan_ms)),
      ms: median(at.map((s) => s.ms)),
      min_ms: Math.min(...at.map((s) => s.ms)),
      ...(first.parts
        ? {
            parts: Object.fromEntries(
              Object.entries(first.parts).map(([name, part]) => [
                name,
                {
                  rows: part.rows,
                  ms: Math.round(median(at.map((s) => s.parts![name]!.ms)) * 1000) / 1000,
                  min_ms: Math.min(...at.map((s) => s.parts![name]!.ms)),
                },
              ]),
            ),
          }
        : {}),
    }
  })
}

// Once to warm the cache, then the measured passes, the two reads alternating.
for (const strategy of ['facts', 'auto'] as const) await explain(strategy)
const passes: Record<'facts' | 'auto', Statement[][]> = { facts: [], auto: [] }
for (let i = 0; i < rounds; i++) for (const strategy of ['facts', 'auto'] as const) passes[strategy].push(await explain(strategy))
const result: Record<string, { statements: Statement[]; total: Omit<Statement, 'statement'> }> = {}
for (const strategy of ['facts', 'auto'] as const) {
  const statements = medianOf(passes[strategy])
  const total = statements.reduce(
    (t, s) => ({ plan_ms: t.plan_ms + s.plan_ms, ms: t.ms + s.ms, min_ms: t.min_ms + (s.min_ms ?? s.ms), buffers: t.buffers + s.buffers, rows: t.rows + s.rows }),
    {
      plan_ms: 0,
      ms: 0,
      min_ms: 0,
      buffers: 0,
      rows: 0,
    },
  )
  result[strategy === 'auto' ? 'rollups' : 'facts'] = { statements, total: { ...total, plan_ms: Math.round(total.plan_ms * 100) / 100, ms: Math.round(total.ms * 100) / 100 } }
  console.log(`\n${strategy === 'auto' ? 'rollups' : 'facts'} (${dataset.main.responses.toLocaleString('en')} responses, prompt ${promptId})`)
  console.table(statements.map(({ parts: _parts, ...s }) => ({ ...s, plan_ms: Math.round(s.plan_ms * 100) / 100, ms: Math.round(s.ms * 100) / 100 })))
  for (const s of statements) if (s.parts) console.table(s.parts)
  console.log(
    `total: ${statements.length} statements, ${total.buffers} buffers, ${total.rows} rows, planning ${total.plan_ms.toFixed(2)} ms, execution ${total.ms.toFixed(2)} ms (fastest pass ${total.min_ms.toFixed(2)} ms)`,
  )
}
await db.destroy()

mkdirSync('bench/results', { recursive: true })
const file = `bench/results/${new Date().toISOString().slice(0, 10)}-prompt-detail-statements-${dataset.main.responses}.json`
writeFileSync(
  file,
  JSON.stringify(
    {
      dataset: values.dataset,
      responses: dataset.main.responses,
      prompt_id: promptId,
      range,
      rounds,
      load_average: loadavg(),
      migrate_seconds: applied.length ? migrateSeconds : null,
      ...result,
    },
    null,
    2,
  ),
)
console.log(`wrote ${file}`)
