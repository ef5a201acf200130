// Build seconds and bytes of every fact-table index as the catalog defines it (what
// bench/copy-load.ts rebuilds after a bulk load), each built once more under a temporary
// name inside a transaction that is rolled back: the database is left as it was. With both
// an old and a new definition in the catalog, one run times both sets side by side (the old
// set is the yardstick): --old lists indexes only the old schema has, --new those only the
// new one has; every other index counts in both.
//   DATABASE_URL=postgres://…/copy npx tsx bench/fact-index-build.ts --old a_idx,b_idx --new c_idx,d_idx [--label x]
// maintenance_work_mem as the bulk load sets it (512 MB). One connection: the sum is the
// work; the parallel load spreads it over its connections.
// Writes bench/results/<date>-fact-index-build-<label>.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'

const { values } = parseArgs({ options: { old: { type: 'string', default: '' }, new: { type: 'string', default: '' }, label: { type: 'string', default: 'build' } } })
const url = process.env.DATABASE_URL
if (!url) throw new Error('Set DATABASE_URL to a copy of the dataset (each build holds a lock on its table while it runs)')
const oldOnly = new Set(values.old.split(',').filter(Boolean))
const newOnly = new Set(values.new.split(',').filter(Boolean))
const FACT_TABLES = ['response', 'mention', 'citation', 'aio_observation', 'aio_appearance']

const client = new pg.Client({ connectionString: url })
await client.connect()
const { rows: indexes } = await client.query<{ name: string; table: string; def: string; bytes: string }>(
  `select i.indexrelid::regclass::text as name, i.indrelid::regclass::text as table, pg_get_indexdef(i.indexrelid) as def, pg_relation_size(i.indexrelid) as bytes
     from pg_index i where i.indrelid::regclass::text = any($1::text[]) order by 2, 1`,
  [FACT_TABLES],
)
for (const name of [...oldOnly, ...newOnly])
  if (!indexes.some((i) => i.name === name)) throw new Error(`no index ${name} on the fact tables: create the new definitions beside the old ones first`)

// Old and new definitions of the same table alternate, so load on the shared machine falls on both.
const olds = indexes.filter((i) => oldOnly.has(i.name))
const news = indexes.filter((i) => newOnly.has(i.name))
const shared = indexes.filter((i) => !oldOnly.has(i.name) && !newOnly.has(i.name))
const order = [...Array(Math.max(olds.length, news.length)).keys()].flatMap((k) => [olds[k], news[k]].filter(Boolean)).concat(shared)

interface Built {
  name: string
  table: string
  set: 'old' | 'new' | 'both'
  seconds: number
  bytes: number
}
const built: Built[] = []
for (const index of order) {
  const temporary = `${index.name}_timing`
  const statement = index.def.replace(/^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON )/, `$1${client.escapeIdentifier(temporary)}$3`)
  await client.query('begin')
  try {
    await client.query(`set local maintenance_work_mem = '512MB'`)
    const started = performance.now()
    await client.query(statement)
    const seconds = (performance.now() - started) / 1000
    const { rows } = await client.query<{ bytes: string }>('select pg_relation_size($1::regclass) as bytes', [temporary])
    built.push({ name: index.name, table: index.table, set: oldOnly.has(index.name) ? 'old' : newOnly.has(index.name) ? 'new' : 'both', seconds, bytes: Number(rows[0].bytes) })
    console.log(`${index.name.padEnd(34)} ${built.at(-1)!.set.padEnd(5)} ${seconds.toFixed(1).padStart(6)} s ${(Number(rows[0].bytes) / 2 ** 20).toFixed(0).padStart(6)} MB`)
  } finally {
    await client.query('rollback')
  }
}

const total = (set: 'old' | 'new') => {
  const mine = built.filter((b) => b.set === set || b.set === 'both')
  return { seconds: Math.round(mine.reduce((s, b) => s + b.seconds, 0) * 10) / 10, megabytes: Math.round(mine.reduce((s, b) => s + b.bytes, 0) / 2 ** 20) }
}
const summary = { old: total('old'), new: total('new') }
console.log(`old schema: ${summary.old.seconds} s, ${summary.old.megabytes} MB of fact indexes; new: ${summary.new.seconds} s, ${summary.new.megabytes} MB`)
mkdirSync('bench/results', { recursive: true })
const out = `bench/results/${new Date().toISOString().slice(0, 10)}-fact-index-build-${values.label}.json`
writeFileSync(out, JSON.stringify({ database: url.replace(/\/\/[^@]*@/, '//'), load: loadavg(), summary, built }, null, 2))
console.log(`wrote ${out}`)
await client.end()
