// What the rollup keys' width costs a rebuild (issue 32 item 2: where the 10M build's time
// goes). The heaviest statement of the rollup phase, daily_mention_stats' (src/rollups/
// families/mention-stats.ts), fills a table keyed by day × provider × model × tag set × brand,
// where provider and model are text and the tag set a text[] compared element by element in
// every sort comparison and index probe. This bench runs that statement as the family declares
// it (its own select, rendered by the engine's scopeSql) beside the same grouping with the tag
// set, and then also provider and model, replaced by small integers numbered from the
// workspace's prompts and models (what a narrow-keyed rollup table would hold), and
// daily_prompt_mention_stats' statement beside the same with the provider numbered. Each
// variant inserts its rows, in its key's order, into a temporary table with its key (an
// empty-table rebuild, as bench:data runs it), under the rebuild's settings (jit off,
// work_mem 256 MB, hash aggregation off); the variants alternate, `--rounds` times, and the
// narrow rows are checked to map back to exactly the declared rows.
//   DATABASE_URL=postgres://…/beacon_bench_1m npx tsx bench/rollup-key-width.ts --dataset bench/.dataset-1m.json [--rounds 3]
// Prints each variant's seconds (median, min, max) and table size; writes
// bench/results/<date>-rollup-key-width.json. Reads only; everything it writes is temporary.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely'
import pg from 'pg'
import type { Database } from '../src/db/schema.js'
import { mentionStats } from '../src/rollups/families/mention-stats.js'
import { promptMentionStats } from '../src/rollups/families/prompt-detail-stats.js'
import { scopeSql } from '../src/rollups/types.js'

const { values } = parseArgs({ options: { dataset: { type: 'string', default: 'bench/.dataset.json' }, rounds: { type: 'string', default: '3' } } })
const url = process.env.DATABASE_URL
if (!url) throw new Error('Set DATABASE_URL to a bench:data PostgreSQL database (the figures compared are the server’s)')
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string; main: { responses: number; mentions: number } }
const rounds = Number(values.rounds)
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number of at least 1')

const pool = new pg.Pool({ connectionString: url, max: 1 })
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
const ws = dataset.workspace_id
const declared = (family: { select: (scope: ReturnType<typeof scopeSql>) => RawBuilder<unknown> }) => family.select(scopeSql({ workspaceId: ws }))

const MEASURES = 'responses integer, occurrences bigint, position_sum bigint, sentiment_sum numeric, sentiment_count integer'
// The measures exactly as the families compute them.
const measureSql = sql`count(*) as responses, sum(m.occurrences) as occurrences, sum(m.position) as position_sum,
  coalesce(sum(m.sentiment::numeric), 0) as sentiment_sum, count(m.sentiment) as sentiment_count`
const day = sql`(m.created_at at time zone 'UTC')::date`

interface Variant {
  name: string
  table: string
  columns: string
  key: string
  insert: RawBuilder<unknown>
}
const variants: Variant[] = [
  {
    name: 'daily_mention_stats as declared (text provider, model, text[] tags)',
    table: 'kw_mention_declared',
    columns: `workspace_id uuid, day date, provider text, model text, tags text[], brand_id uuid, ${MEASURES}`,
    key: 'workspace_id, day, provider, model, tags, brand_id',
    insert: sql`insert into kw_mention_declared select * from (${declared(mentionStats)}) c order by c.day, c.provider, c.model, c.tags, c.brand_id`,
  },
  {
    name: 'daily_mention_stats, tag set numbered',
    table: 'kw_mention_tag_set',
    columns: `workspace_id uuid, day date, provider text, model text, tag_set integer, brand_id uuid, ${MEASURES}`,
    key: 'workspace_id, day, provider, model, tag_set, brand_id',
    insert: sql`insert into kw_mention_tag_set select * from (
      select m.workspace_id, ${day} as day, m.provider, m.model, p.tag_set, m.brand_id, ${measureSql}
      from mention m join kw_prompt_tag_set p on p.id = m.prompt_id
      where m.workspace_id = ${ws} group by 1, 2, 3, 4, 5, 6) c order by 2, 3, 4, 5, 6`,
  },
  {
    name: 'daily_mention_stats, provider, model and tag set numbered',
    table: 'kw_mention_narrow',
    columns: `workspace_id uuid, day date, provider smallint, model smallint, tag_set integer, brand_id uuid, ${MEASURES}`,
    key: 'workspace_id, day, provider, model, tag_set, brand_id',
    insert: sql`insert into kw_mention_narrow select * from (
      select m.workspace_id, ${day} as day, v.provider_number, v.model_number, p.tag_set, m.brand_id, ${measureSql}
      from mention m join kw_prompt_tag_set p on p.id = m.prompt_id join kw_model v on v.provider = m.provider and v.model = m.model
      where m.workspace_id = ${ws} group by 1, 2, 3, 4, 5, 6) c order by 2, 3, 4, 5, 6`,
  },
  {
    name: 'daily_prompt_mention_stats as declared (text provider)',
    table: 'kw_prompt_declared',
    columns: `workspace_id uuid, day date, prompt_id uuid, brand_id uuid, provider text, ${MEASURES}`,
    // The table's own key order (migration 0025: the prompt first).
    key: 'workspace_id, prompt_id, day, brand_id, provider',
    insert: sql`insert into kw_prompt_declared select * from (${declared(promptMentionStats)}) c order by c.prompt_id, c.day, c.brand_id, c.provider`,
  },
  {
    name: 'daily_prompt_mention_stats, provider numbered',
    table: 'kw_prompt_narrow',
    columns: `workspace_id uuid, day date, prompt_id uuid, brand_id uuid, provider smallint, ${MEASURES}`,
    key: 'workspace_id, prompt_id, day, brand_id, provider',
    insert: sql`insert into kw_prompt_narrow select * from (
      select m.workspace_id, ${day} as day, m.prompt_id, m.brand_id, v.provider_number, ${measureSql}
      from mention m join (select distinct provider, provider_number from kw_model) v on v.provider = m.provider
      where m.workspace_id = ${ws} group by 1, 3, 2, 4, 5) c order by 3, 2, 4, 5`,
  },
]

const client = await pool.connect()
const run = async (statement: RawBuilder<unknown>) => {
  const compiled = statement.compile(db)
  await client.query(compiled.sql, compiled.parameters as unknown[])
}
await client.query(`set jit = off; set work_mem = '256MB'; set enable_hashagg = off; set max_parallel_workers_per_gather = 0`)
// The numbers a narrow-keyed schema would keep: tag sets from the workspace's prompts, providers
// and models from the workspace's answers (a daily rollup already lists every pair).
await client.query(
  `create temp table kw_prompt_tag_set as
     select p.id, s.tag_set from prompt p
     join (select tags, (row_number() over (order by tags))::int as tag_set from (select distinct tags from prompt where workspace_id = $1) d) s on s.tags = p.tags
     where p.workspace_id = $1`,
  [ws],
)
await client.query(
  `create temp table kw_model as
     select provider, model, (dense_rank() over (order by provider))::smallint as provider_number, (row_number() over (order by provider, model))::smallint as model_number
     from (select distinct provider, model from daily_brand_totals where workspace_id = $1) d`,
  [ws],
)
await client.query('analyze kw_prompt_tag_set; analyze kw_model')
for (const v of variants) await client.query(`create temp table ${v.table} (${v.columns}, primary key (${v.key}))`)

const seconds = new Map<string, number[]>(variants.map((v) => [v.name, []]))
const rows = new Map<string, number>()
for (let round = 1; round <= rounds; round++) {
  // Alternate the order each round, so the machine's load falls on every variant.
  const order = round % 2 ? variants : [...variants].reverse()
  for (const v of order) {
    await client.query(`truncate ${v.table}`)
    const started = performance.now()
    await run(v.insert)
    seconds.get(v.name)!.push((performance.now() - started) / 1000)
    rows.set(v.name, Number((await client.query(`select count(*) as n from ${v.table}`)).rows[0].n))
    process.stderr.write(`round ${round}: ${v.name} ${seconds.get(v.name)!.at(-1)!.toFixed(1)} s\n`)
  }
}

// The narrow rows are the declared rows, numbered: map them back and compare every column both ways.
const difference = async (a: string, b: string) => Number((await client.query(`select count(*) as n from ((${a} except all ${b}) union all (${b} except all ${a})) d`)).rows[0].n)
const measures = 'responses, occurrences, position_sum, sentiment_sum, sentiment_count'
const declaredMention = `select workspace_id, day, provider, model, tags, brand_id, ${measures} from kw_mention_declared`
const mismatched = {
  tag_set: await difference(
    declaredMention,
    `select c.workspace_id, c.day, c.provider, c.model, s.tags, c.brand_id, ${measures} from kw_mention_tag_set c join (select distinct p.tags, t.tag_set from prompt p join kw_prompt_tag_set t on t.id = p.id) s on s.tag_set = c.tag_set`,
  ),
  narrow: await difference(
    declaredMention,
    `select c.workspace_id, c.day, v.provider, v.model, s.tags, c.brand_id, ${measures} from kw_mention_narrow c
       join kw_model v on v.provider_number = c.provider and v.model_number = c.model
       join (select distinct p.tags, t.tag_set from prompt p join kw_prompt_tag_set t on t.id = p.id) s on s.tag_set = c.tag_set`,
  ),
  prompt_provider: await difference(
    `select workspace_id, day, prompt_id, brand_id, provider, ${measures} from kw_prompt_declared`,
    `select c.workspace_id, c.day, c.prompt_id, c.brand_id, v.provider, ${measures} from kw_prompt_narrow c join (select distinct provider, provider_number from kw_model) v on v.provider_number = c.provider`,
  ),
}
const sizes = new Map<string, number>()
for (const v of variants) sizes.set(v.name, Number((await client.query(`select pg_total_relation_size('${v.table}') as b`)).rows[0].b))
client.release()
await db.destroy()

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const round1 = (x: number) => Math.round(x * 10) / 10
const results = variants.map((v) => {
  const s = seconds.get(v.name)!
  return {
    variant: v.name,
    rows: rows.get(v.name),
    seconds: s.map(round1),
    median_seconds: round1(median(s)),
    min_seconds: round1(Math.min(...s)),
    max_seconds: round1(Math.max(...s)),
    megabytes: Math.round(sizes.get(v.name)! / 1e6),
  }
})
for (const r of results)
  console.log(`${r.variant.padEnd(66)} ${String(r.rows).padStart(9)} rows  median ${r.median_seconds} s (${r.min_seconds}–${r.max_seconds})  ${r.megabytes} MB`)
console.log(`rows that differ from the declared rows once mapped back: ${JSON.stringify(mismatched)}`)
if (Object.values(mismatched).some((n) => n !== 0)) process.exitCode = 1
mkdirSync('bench/results', { recursive: true })
const out = `bench/results/${new Date().toISOString().slice(0, 10)}-rollup-key-width.json`
writeFileSync(
  out,
  `${JSON.stringify({ benchmark: 'rollup key width (issue 32 item 2)', database: url.replace(/\/\/[^@]*@/, '//'), responses: dataset.main.responses, mentions: dataset.main.mentions, rounds, load_average_end: loadavg(), results, mismatched }, null, 2)}\n`,
)
console.log(`wrote ${out}`)
