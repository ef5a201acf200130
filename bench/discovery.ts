// Competitor discovery time (issue 15): the whole scan (read every answer in batches, tally,
// rank, write suggestions), as the job runs it, on the demo workspace and on N answers.
//   npm run bench:discovery                        # demo (about 5,400 answers) and 100,000 answers
//   npm run bench:discovery -- --responses 20000   # the second figure at another size (0: demo only)
// The N answers are the demo composer's own text (its generator over as many days as needed),
// inserted directly: discovery reads only id, time and text, so no analysis is needed to set it up.
// DATABASE_URL=postgres://… selects PostgreSQL; unset, an in-memory PGlite. Prints a table and
// writes bench/results/discovery-<backend>.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { v5 as uuidv5 } from 'uuid'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { newId } from '../src/db/ids.js'
import { seedDemo } from '../src/demo/seed-demo.js'
import { generateDemoDataset } from '../src/demo/generate-demo.js'
import { discoverBrands, type DiscoveryResult } from '../src/discovery/run-discovery.js'
import { deleteWorkspaceData } from '../src/rollups/index.js'
import { insertColumns } from '../src/ingest/insert-chunks.js'
import { todayUtc, addDays } from '../src/core/date-range.js'

const { values } = parseArgs({ options: { responses: { type: 'string', default: '100000' } } })
const N = Number(values.responses)
if (!Number.isInteger(N) || N < 0) throw new Error('--responses must be a whole number (0: the demo only)')

const databaseUrl = process.env.DATABASE_URL || 'memory://'
const backend = databaseUrl.startsWith('postgres') ? 'postgres' : 'pglite'
const database = await openDatabase({ ...loadConfig({}), databaseUrl })
const db = database.db
await migrateToLatest(db)

interface Row {
  label: string
  responses: number
  seconds: number
  answers_per_second: number
  candidates: number
  suggested: number
  names: string[]
  rerun_seconds: number
  heap_mb: number
}
const rows: Row[] = []

async function measure(label: string, workspaceId: string): Promise<void> {
  global.gc?.()
  const started = performance.now()
  const result: DiscoveryResult = await discoverBrands(db, workspaceId)
  const seconds = (performance.now() - started) / 1000
  const heap = process.memoryUsage().heapUsed / 2 ** 20
  // A second run finds the same names and only updates their evidence.
  const again = performance.now()
  const rerun = await discoverBrands(db, workspaceId)
  const rerunSeconds = (performance.now() - again) / 1000
  if (rerun.suggested !== 0) throw new Error(`a re-run added ${rerun.suggested} suggestions; it should only update`)
  rows.push({
    label,
    responses: result.responses_scanned,
    seconds: Math.round(seconds * 100) / 100,
    answers_per_second: Math.round(result.responses_scanned / seconds),
    candidates: result.candidates,
    suggested: result.suggested,
    names: result.suggestions.map((s) => s.name),
    rerun_seconds: Math.round(rerunSeconds * 100) / 100,
    heap_mb: Math.round(heap),
  })
}

// 1. The demo, as `npm start` builds it.
const demo = await seedDemo(db)
await measure('demo', demo.workspaceId)

// 2. N answers of the demo composer's text in a workspace of their own.
if (N > 0) {
  const workspaceId = uuidv5('bench-discovery', '4b1f0a52-7d59-4c43-9a8e-2f4f6c1d3e7a')
  const existing = await db.selectFrom('workspace').select('id').where('id', '=', workspaceId).executeTakeFirst()
  if (existing) await deleteWorkspaceData(db, workspaceId)
  else await db.insertInto('workspace').values({ id: workspaceId, name: 'Discovery bench', tier: 'premium' }).execute()
  // About 59 answers a day: enough days for N (the generator allows ten years), trimmed to N.
  const days = Math.min(3660, Math.ceil(N / 55) + 1)
  const built = performance.now()
  const dataset = generateDemoDataset({ today: todayUtc(), days })
  if (dataset.responses.length < N) throw new Error(`the generator gives ${dataset.responses.length} answers at most; ask for fewer`)
  const promptIds = new Map(dataset.prompts.map((p) => [p.key, newId()]))
  await db
    .insertInto('brand')
    .values(dataset.brands.map((b) => ({ workspace_id: workspaceId, id: newId(), name: b.name, domain: b.domain, aliases: b.aliases, is_primary: b.isPrimary })))
    .execute()
  await db
    .insertInto('prompt')
    .values(dataset.prompts.map((p) => ({ workspace_id: workspaceId, id: promptIds.get(p.key)!, text: p.text, tags: p.tags })))
    .execute()
  await db
    .insertInto('model')
    .values(dataset.models.map((m) => ({ workspace_id: workspaceId, id: m.id, provider: m.provider, name: m.name })))
    .execute()
  const answers = dataset.responses.slice(0, N)
  for (let i = 0; i < answers.length; i += 5000) {
    const chunk = answers.slice(i, i + 5000).map((r) => ({
      workspace_id: workspaceId,
      id: newId(),
      prompt_id: promptIds.get(r.promptKey)!,
      provider: r.provider,
      model: r.model,
      content: r.content,
      created_at: r.createdAt,
    }))
    await insertColumns(db, 'response', chunk, { workspace_id: 'uuid', id: 'uuid', prompt_id: 'uuid', provider: 'text', model: 'text', content: 'text', created_at: 'timestamptz' })
  }
  console.log(`set-up: ${answers.length} answers over ${days} days (from ${addDays(todayUtc(), -(days - 1))}) in ${Math.round((performance.now() - built) / 1000)} s`)
  await measure(`${N} responses`, workspaceId)
}

console.table(rows.map(({ names, ...row }) => ({ ...row, names: names.slice(0, 6).join(', ') })))
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
const out = new URL(`./results/discovery-${backend}.json`, import.meta.url)
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, backend, note: 'discoverBrands end to end (read in batches of 2,000, tally, rank, write), single thread; rerun = the same scan again, updating evidence only', results: rows }, null, 2)}\n`,
)
console.log(`written ${out.pathname}`)
await database.close()
