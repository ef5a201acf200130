// Ingest throughput through the real HTTP API (validation, analysis, storage).
//   npx tsx bench/ingest-throughput.ts [--responses 20000] [--batch 500] [--concurrency 2]
//   npx tsx bench/ingest-throughput.ts --dataset bench/.dataset-1m.json   # into a dataset's database
//   npx tsx bench/ingest-throughput.ts --dataset bench/.dataset-1m.json --new-workspace   # into a workspace created now
// Backend: DATABASE_URL (postgres://…) or in-memory PGlite when unset. PostgreSQL runs
// in a fresh schema that is dropped afterwards: its tables start empty, so that rate says
// nothing about how ingest fares beside millions of stored answers. With --dataset (a file
// written by `npm run bench:data`, DATABASE_URL pointing at its database) the responses go
// into one of the dataset's noise workspaces (bench-noise-9: 2% of the main workspace's
// answers) in the dataset's own tables: every insert descends the fact indexes and rollup
// keys the dataset's answers fill and competes with them for the cache. Afterwards the run
// takes out what it added (its responses and their facts, the brands and prompts it added,
// its key and jobs) and rebuilds that workspace's rollups, and checks that every tenant
// table holds the workspace's rows as before (count and hash). Not the main workspace:
// rebuilding its rollups takes minutes at 10M.
// --new-workspace measures a workspace the planner's statistics do not know (the README's
// scale section, limit 3, fixed in the rollup engine): the run creates a workspace after the dataset's
// ANALYZE (so the statistics estimate it at one row), ingests into it and deletes it and its
// rows afterwards. Its yardstick is the same command without the flag (the known noise
// workspace), or the same command from a worktree of the previous code; the JSON records
// each batch's seconds (the old engine's batches grew with the workspace) and whether the fact
// tables were analysed during the run (which would let the planner know the workspace).
import { readFileSync } from 'node:fs'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { createWorkspace } from '../src/admin/workspaces.js'
import { createApiKey } from '../src/admin/api-key-store.js'
import { sql } from 'kysely'
import type { DB } from '../src/db/database.js'
import { newId } from '../src/db/ids.js'
import { inTransaction } from '../src/db/tenant-scope.js'
import { rebuildRollups, tenantTables } from '../src/rollups/index.js'
import { generateDemoDataset } from '../src/demo/generate-demo.js'
import { waitForJob } from '../test/helpers/test-app.js'

const { values } = parseArgs({
  options: {
    responses: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '2' },
    dataset: { type: 'string' },
    'new-workspace': { type: 'boolean', default: false },
  },
})
const total = Number(values.responses)
const batchSize = Number(values.batch)
const concurrency = Number(values.concurrency)
const url = process.env.DATABASE_URL
const newWorkspace = values['new-workspace']
const backend = url?.startsWith('postgres') ? 'postgres' : 'pglite'
const dataset = values.dataset ? (JSON.parse(readFileSync(values.dataset, 'utf8')) as { database: string; backend: string; main: { responses: number } }) : undefined
if (dataset && (backend !== 'postgres' || dataset.backend !== 'postgres'))
  throw new Error(`--dataset needs DATABASE_URL set to the PostgreSQL database ${values.dataset} was built in (${dataset.database})`)
// The database as bench:data labels it, without the password and the session options.
const label = (databaseUrl: string) => databaseUrl.replace(/\/\/[^@]*@/, '//').replace(/\?.*$/, '')
if (newWorkspace && !dataset) throw new Error('--new-workspace needs --dataset: a workspace is new beside analysed facts, not in a fresh schema')
if (dataset && label(dataset.database) !== label(url!))
  throw new Error(`${values.dataset} was built in ${dataset.database}, but DATABASE_URL points elsewhere: set DATABASE_URL to that database`)

// Fresh-schema mode: the tables of a schema of this run's own. Dataset mode: the dataset's
// tables (the default search path) and one of its workspaces.
const tag = `bench_ingest_${process.pid}`
const schema = backend === 'postgres' && !dataset ? tag : undefined
const jobsSchema = backend === 'postgres' ? `${tag}_jobs` : undefined
if (schema) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
}
let database: Awaited<ReturnType<typeof openDatabase>> | undefined
/** Dataset mode: what the run added to the dataset's workspace, taken out again by cleanUp. */
const added = { workspaceId: '', created: false, keyId: '', brandIds: [] as string[], promptIds: [] as string[], externalPrefix: `${tag}-`, startedAt: new Date() }
let rowsBefore: Record<string, string> | undefined
/** Each tenant table's rows of the workspace, as a count and a hash of their text. */
const workspaceRows = async (db: DB, workspaceId: string) => {
  const digests: Record<string, string> = {}
  for (const table of await tenantTables(db)) {
    if (table === 'api_key' || table === 'job') continue
    const { rows } = await sql<{ n: string; digest: string | null }>`select count(*) as n, md5(string_agg(t::text, ',' order by t::text)) as digest
      from ${sql.table(table)} t where workspace_id = ${workspaceId}`.execute(db)
    digests[table] = `${rows[0].n} rows ${rows[0].digest ?? ''}`
  }
  return digests
}
/** Deletes `column in ids` of the workspace from every tenant table that has the column. */
const deleteReferencing = async (db: DB, column: string, ids: readonly string[], except: readonly string[]) => {
  if (ids.length === 0) return
  const { rows } = await sql<{ table: string }>`select table_name as table from information_schema.columns
    where table_schema = current_schema() and column_name = ${column}`.execute(db)
  for (const { table } of rows) {
    if (except.includes(table)) continue
    await sql`delete from ${sql.table(table)} where workspace_id = ${added.workspaceId} and ${sql.ref(column)} = any(${ids}::uuid[])`.execute(db)
  }
}
// Everything after the schema exists runs in try/finally so a failed run leaves no schema
// (nor, in dataset mode, rows of its own) behind.
const cleanUp = async () => {
  if (dataset && database && added.workspaceId && added.created) {
    // A workspace of the run's own: every tenant table's rows of it, then the workspace.
    const ws = added.workspaceId
    await inTransaction(database.db, async (trx) => {
      for (const table of await tenantTables(trx)) await sql`delete from ${sql.table(table)} where workspace_id = ${ws}`.execute(trx)
      await sql`delete from workspace where id = ${ws}`.execute(trx)
    })
    console.log(`deleted workspace ${ws} and its rows`)
  } else if (dataset && database && added.workspaceId) {
    const db = database.db
    const ws = added.workspaceId
    const started = performance.now()
    await inTransaction(db, async (trx) => {
      const responseIds = (await sql<{ id: string }>`select id from response where workspace_id = ${ws} and external_id like ${`${added.externalPrefix}%`}`.execute(trx)).rows.map(
        (r) => r.id,
      )
      await deleteReferencing(trx, 'response_id', responseIds, [])
      await sql`delete from response where workspace_id = ${ws} and id = any(${responseIds}::uuid[])`.execute(trx)
      await deleteReferencing(trx, 'brand_id', added.brandIds, ['brand'])
      await deleteReferencing(trx, 'prompt_id', added.promptIds, ['prompt'])
      await sql`delete from brand where workspace_id = ${ws} and id = any(${added.brandIds}::uuid[])`.execute(trx)
      await sql`delete from prompt where workspace_id = ${ws} and id = any(${added.promptIds}::uuid[])`.execute(trx)
      await sql`delete from job where workspace_id = ${ws} and created_at >= ${added.startedAt}`.execute(trx)
      if (added.keyId) await sql`delete from api_key where workspace_id = ${ws} and id = ${added.keyId}`.execute(trx)
    })
    // The day sets and first/last-cited dates cannot be retracted: the workspace's rollups are
    // built again from its facts (the product's rebuild), then the URLs and domains only the
    // run cited lose their numbers.
    await rebuildRollups(db, ws)
    await sql`delete from workspace_url u where workspace_id = ${ws}
      and not exists (select 1 from citation c where c.workspace_id = u.workspace_id and c.url = u.url)`.execute(db)
    await sql`delete from workspace_domain d where workspace_id = ${ws}
      and not exists (select 1 from citation c where c.workspace_id = d.workspace_id and c.domain = d.domain)`.execute(db)
    if (rowsBefore) {
      const after = await workspaceRows(db, ws)
      const changed = Object.keys({ ...rowsBefore, ...after }).filter((t) => rowsBefore![t] !== after[t])
      if (changed.length) {
        process.exitCode = 1
        console.error(`cleanup left ${changed.map((t) => `${t} ${rowsBefore![t]} -> ${after[t]}`).join(', ')} in workspace ${ws}`)
      } else console.log(`restored workspace ${ws} (every tenant table's rows as before, by count and hash) in ${Math.round((performance.now() - started) / 1000)} s`)
    }
  }
  await database?.close()
  if (!jobsSchema) return
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  if (schema) await client.query(`drop schema if exists ${schema} cascade`)
  await client.query(`drop schema if exists ${jobsSchema} cascade`)
  await client.end()
}
try {
  // A job queue of its own: runs on one database must not pick up each other's jobs.
  const config = { ...loadConfig({}), databaseUrl: url ?? 'memory://', rateLimitPerMinute: 1_000_000, logLevel: 'warn', ...(jobsSchema ? { jobsSchema } : {}) }
  database = await openDatabase(config, { searchPath: schema })
  await migrateToLatest(database.db)
  const db = database.db
  const app = await buildApp({ config, database, logger: false })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })

  const demo = generateDemoDataset({ today: '2026-06-30' })
  const promptIds = new Map<string, string>()
  let workspaceId: string
  let key: string
  if (dataset) {
    if (newWorkspace) {
      workspaceId = added.workspaceId = (await createWorkspace(db, { name: tag, tier: 'premium' })).id
      added.created = true
    } else {
      const noise = await db.selectFrom('workspace').select('id').where('name', '=', 'bench-noise-9').executeTakeFirst()
      if (!noise) throw new Error(`${values.dataset}: no workspace bench-noise-9 in ${dataset.database}; build the dataset again with npm run bench:data`)
      workspaceId = added.workspaceId = noise.id
    }
    if (!added.created) rowsBefore = await workspaceRows(db, workspaceId)
    const created = await createApiKey(db, { workspaceId, scopes: ['write:data', 'manage:workspace', 'read:analytics'], name: tag })
    key = created.key
    added.keyId = created.id
    // The demo's brands and prompts, written directly: through the API each brand would queue
    // a re-analysis of the workspace's stored answers, which the clean-up could not undo.
    for (const brand of demo.brands) {
      const id = newId()
      added.brandIds.push(id)
      await db
        .insertInto('brand')
        .values({ workspace_id: workspaceId, id, name: `${brand.name} (${tag})`, domain: brand.domain, aliases: [brand.name, ...brand.aliases], is_primary: false })
        .execute()
    }
    for (const prompt of demo.prompts) {
      const id = newId()
      added.promptIds.push(id)
      promptIds.set(prompt.key, id)
      await db.insertInto('prompt').values({ workspace_id: workspaceId, id, text: prompt.text, tags: prompt.tags }).execute()
    }
  } else {
    const workspace = await createWorkspace(db, { name: 'bench', tier: 'premium' })
    workspaceId = workspace.id
    ;({ key } = await createApiKey(db, { workspaceId, scopes: ['write:data', 'manage:workspace', 'read:analytics'] }))
  }
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return response.json() as Promise<{ data: { id: string; accepted?: number }; job?: { id: string } }>
  }
  if (!dataset) {
    const jobs = new Set<string>()
    for (const brand of demo.brands) {
      const created = await call('/api/v1/brands', { name: brand.name, domain: brand.domain, aliases: brand.aliases, is_primary: brand.isPrimary })
      if (created.job) jobs.add(created.job.id)
    }
    // Each brand queues a re-analysis of the stored history (empty here): it finishes before
    // the clock starts, so ingest alone is measured. (With one queue per database, runs
    // claimed each other's jobs and failed them on a workspace of another schema.)
    for (const id of jobs) await waitForJob({ app, database }, workspaceId, id, 120_000)
    for (const prompt of demo.prompts) promptIds.set(prompt.key, (await call('/api/v1/prompts', { text: prompt.text, tags: prompt.tags })).data.id)
  }

  const items = Array.from({ length: total }, (_, i) => {
    const r = demo.responses[i % demo.responses.length]
    return {
      external_id: `${added.externalPrefix}${i}`,
      prompt_id: promptIds.get(r.promptKey),
      provider: r.provider,
      model: r.model,
      content: r.content,
      created_at: r.createdAt,
      citations: r.citations,
    }
  })
  const batches: unknown[][] = []
  for (let i = 0; i < items.length; i += batchSize) batches.push(items.slice(i, i + batchSize))

  // When the fact tables were last analysed: an ANALYZE during the run (autovacuum) would
  // let the planner know a new workspace from then on.
  const analysedAt = async () =>
    (
      await sql<{ analysed: string }>`select string_agg(relname || ' ' || coalesce(greatest(last_analyze, last_autoanalyze)::text, 'never'), ', ' order by relname) as analysed
        from pg_stat_user_tables where relname in ('response', 'mention', 'citation') and schemaname = current_schema()`.execute(db)
    ).rows[0]?.analysed ?? ''
  const analysedBefore = backend === 'postgres' ? await analysedAt() : ''
  const started = performance.now()
  let next = 0
  let accepted = 0
  const batchSeconds: number[] = []
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const index = next++
        const batchStarted = performance.now()
        accepted += (await call('/api/v1/ingest/responses', { responses: batches[index] })).data.accepted ?? 0
        batchSeconds[index] = Math.round(performance.now() - batchStarted) / 1000
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const analysedAfter = backend === 'postgres' ? await analysedAt() : ''
  const result = {
    benchmark: 'ingest-throughput',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
    backend,
    // Fresh schema (empty tables) or a new workspace beside a dataset's stored answers.
    into: dataset
      ? { dataset: values.dataset, stored_responses_main_workspace: dataset.main.responses, workspace: added.created ? 'new (created after the last ANALYZE)' : 'bench-noise-9' }
      : 'fresh schema',
    fact_tables_analysed: { before: analysedBefore, after: analysedAfter, during_run: analysedBefore !== analysedAfter },
    responses: total,
    accepted,
    batch_size: batchSize,
    concurrency,
    seconds: Math.round(seconds * 100) / 100,
    responses_per_second: Math.round(total / seconds),
    batch_seconds: batchSeconds,
  }
  console.log(
    `ingest via HTTP on ${backend}${dataset ? ` beside ${dataset.main.responses.toLocaleString('en')} stored responses, into ${added.created ? 'a new workspace' : 'bench-noise-9'}` : ''}: ${total} responses in ${result.seconds} s = ${result.responses_per_second} responses/s (batch ${batchSize}, concurrency ${concurrency}); batches ${batchSeconds.join(' ')} s${result.fact_tables_analysed.during_run ? '; the fact tables were analysed during the run' : ''}`,
  )
  mkdirSync('bench/results', { recursive: true })
  const size = dataset ? `-${dataset.main.responses >= 1_000_000 ? `${Math.round(dataset.main.responses / 1_000_000)}m` : `${Math.round(dataset.main.responses / 1000)}k`}` : ''
  const file = `bench/results/${result.date.slice(0, 10)}-ingest-${backend}${size}${added.created ? '-new-workspace' : ''}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`wrote ${file}`)
  await app.close()
} finally {
  await cleanUp()
}
