// Ingest throughput through the real HTTP API (validation, analysis, storage).
//   npx tsx bench/ingest-throughput.ts [--responses 20000] [--batch 500] [--concurrency 2]
// Backend: DATABASE_URL (postgres://…) or in-memory PGlite when unset. PostgreSQL runs
// in a fresh schema that is dropped afterwards.
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
import { generateDemoDataset } from '../src/demo/generate-demo.js'
import { waitForJob } from '../test/helpers/test-app.js'

const { values } = parseArgs({
  options: { responses: { type: 'string', default: '20000' }, batch: { type: 'string', default: '500' }, concurrency: { type: 'string', default: '2' } },
})
const total = Number(values.responses)
const batchSize = Number(values.batch)
const concurrency = Number(values.concurrency)
const url = process.env.DATABASE_URL
const backend = url?.startsWith('postgres') ? 'postgres' : 'pglite'

const schema = backend === 'postgres' ? `bench_ingest_${process.pid}` : undefined
if (schema) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
}
// Everything after the schema exists runs in try/finally so a failed run leaves no schema behind.
const dropSchema = async () => {
  if (!schema) return
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`drop schema if exists ${schema} cascade`)
  await client.query(`drop schema if exists ${schema}_jobs cascade`)
  await client.end()
}
try {
  // A job queue of its own: runs on one database must not pick up each other's jobs.
  const config = { ...loadConfig({}), databaseUrl: url ?? 'memory://', rateLimitPerMinute: 1_000_000, logLevel: 'warn', ...(schema ? { jobsSchema: `${schema}_jobs` } : {}) }
  const database = await openDatabase(config, { searchPath: schema })
  await migrateToLatest(database.db)
  const app = await buildApp({ config, database, logger: false })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })

  const workspace = await createWorkspace(database.db, { name: 'bench', tier: 'premium' })
  const { key } = await createApiKey(database.db, { workspaceId: workspace.id, scopes: ['write:data', 'manage:workspace', 'read:analytics'] })
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return response.json() as Promise<{ data: { id: string; accepted?: number }; job?: { id: string } }>
  }

  const dataset = generateDemoDataset({ today: '2026-06-30' })
  const jobs = new Set<string>()
  for (const brand of dataset.brands) {
    const created = await call('/api/v1/brands', { name: brand.name, domain: brand.domain, aliases: brand.aliases, is_primary: brand.isPrimary })
    if (created.job) jobs.add(created.job.id)
  }
  // Each brand queues a re-analysis of the stored history (empty here): it finishes before
  // the clock starts, so ingest alone is measured. (With one queue per database, runs
  // claimed each other's jobs and failed them on a workspace of another schema.)
  for (const id of jobs) await waitForJob({ app, database }, workspace.id, id, 120_000)
  const promptIds = new Map<string, string>()
  for (const prompt of dataset.prompts) promptIds.set(prompt.key, (await call('/api/v1/prompts', { text: prompt.text, tags: prompt.tags })).data.id)

  const items = Array.from({ length: total }, (_, i) => {
    const r = dataset.responses[i % dataset.responses.length]
    return {
      external_id: `bench-${i}`,
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

  const started = performance.now()
  let next = 0
  let accepted = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]
        accepted += (await call('/api/v1/ingest/responses', { responses: batch })).data.accepted ?? 0
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const result = {
    benchmark: 'ingest-throughput',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
    backend,
    responses: total,
    accepted,
    batch_size: batchSize,
    concurrency,
    seconds: Math.round(seconds * 100) / 100,
    responses_per_second: Math.round(total / seconds),
  }
  console.log(
    `ingest via HTTP on ${backend}: ${total} responses in ${result.seconds} s = ${result.responses_per_second} responses/s (batch ${batchSize}, concurrency ${concurrency})`,
  )
  mkdirSync('bench/results', { recursive: true })
  const file = `bench/results/${result.date.slice(0, 10)}-ingest-${backend}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`wrote ${file}`)
  await app.close()
  await database.close()
} finally {
  await dropSchema()
}
