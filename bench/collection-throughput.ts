// Collection throughput: a run against a fake provider that answers in 1–2 s (uniform), at
// the default caps (COLLECTION_CONCURRENCY, COLLECTION_REQUESTS_PER_MINUTE, the answer task
// workers), through the real path (jobs, budget, caps, ingest, analysis, rollups).
//   npm run bench:collection [-- --prompts 40 --targets 4 --samples 1]
// Reports answers/s, CPU seconds per answer of this process (process.cpuUsage: on PGlite
// that includes the database; on PostgreSQL the server's CPU is not counted), and the time
// from the run's start (POST) to its first and to all of its answers being in /dashboard.
// Backend: DATABASE_URL (postgres://…, a fresh schema dropped afterwards) or in-memory PGlite.
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
import { PROMPT_DEFS } from '../src/demo/catalog.js'
import { setAdapterOverride } from '../src/collection/adapter-resolver.js'
import type { AnswerAdapter } from '../src/collection/adapters/types.js'

const { values } = parseArgs({
  options: { prompts: { type: 'string', default: '40' }, targets: { type: 'string', default: '4' }, samples: { type: 'string', default: '1' } },
})
const promptCount = Number(values.prompts)
const targetCount = Number(values.targets)
const samples = Number(values.samples)
const url = process.env.DATABASE_URL
const backend = url?.startsWith('postgres') ? 'postgres' : 'pglite'
const PROVIDERS = ['openai', 'anthropic', 'google', 'perplexity'] as const

const schema = backend === 'postgres' ? `bench_collect_${process.pid}` : undefined
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(statement)
  await client.end()
}
if (schema) await admin(`create schema ${schema}`)
try {
  // Default caps; only the budget is raised (it is not what is measured here).
  const defaults = loadConfig({})
  const config = {
    ...defaults,
    databaseUrl: url ?? 'memory://',
    rateLimitPerMinute: 1_000_000,
    logLevel: 'warn',
    collectionDailyBudgetUsd: 1_000_000,
    // Knobs to compare against the defaults: COLLECTION_WORKERS, JOBS_POLL_SECONDS.
    ...(process.env.COLLECTION_WORKERS ? { collectionWorkers: Number(process.env.COLLECTION_WORKERS) } : {}),
    ...(process.env.JOBS_POLL_SECONDS ? { jobsPollSeconds: Number(process.env.JOBS_POLL_SECONDS) } : {}),
    ...(schema ? { jobsSchema: `${schema}_jobs` } : {}),
  }
  let inFlight = 0
  let maxInFlight = 0
  const fake: AnswerAdapter = {
    kind: 'openai',
    async ask(request) {
      inFlight += 1
      maxInFlight = Math.max(maxInFlight, inFlight)
      const latencyMs = 1000 + Math.random() * 1000
      await new Promise((resolve) => setTimeout(resolve, latencyMs))
      inFlight -= 1
      const content = `${request.prompt}\n\nBenchbrand is a solid choice; Otherbrand is popular too. Compare plans at https://benchbrand.com/pricing and read https://reviews.example.org/pm.`
      return {
        content,
        citations: [{ url: 'https://en.wikipedia.org/wiki/Project_management_software', title: 'Project management software' }],
        modelServed: request.target.model,
        tokensIn: 20,
        tokensOut: 300,
        webSearchCalls: 0,
        latencyMs,
        raw: { output_text: content },
      }
    },
  }
  setAdapterOverride({ answer: () => fake })
  const database = await openDatabase(config, { searchPath: schema })
  await migrateToLatest(database.db)
  const app = await buildApp({ config, database, logger: false })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const workspace = await createWorkspace(database.db, { name: 'bench', tier: 'premium' })
  const { key } = await createApiKey(database.db, { workspaceId: workspace.id, scopes: ['write:data', 'manage:workspace', 'read:analytics'] })
  const call = async <T = { id: string }>(method: string, path: string, body?: unknown): Promise<{ data: T }> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'cache-control': 'no-cache' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as { data: T }
  }
  await call('POST', '/api/v1/brands', { name: 'Benchbrand', domain: 'benchbrand.com', is_primary: true })
  await call('POST', '/api/v1/brands', { name: 'Otherbrand' })
  for (let i = 0; i < promptCount; i++)
    await call('POST', '/api/v1/prompts', { text: PROMPT_DEFS[i % PROMPT_DEFS.length].text + (i >= PROMPT_DEFS.length ? ` (${i})` : ''), tags: ['bench'] })
  for (let i = 0; i < targetCount; i++) await call('POST', '/api/v1/collection/targets', { provider: PROVIDERS[i % 4], model: `fake-${i}`, samples })
  const planned = promptCount * targetCount * samples
  const today = new Date().toISOString().slice(0, 10)
  const inDashboard = async () => {
    const { data } = await call<{ brands: Record<string, { mention_count: number }> }>('GET', `/api/v1/dashboard?start_date=${today}&end_date=${today}`)
    return data.brands.Benchbrand?.mention_count ?? 0
  }

  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const run = (await call('POST', '/api/v1/collection/runs', {})).data
  let firstVisibleMs: number | undefined
  let allVisibleMs: number | undefined
  let state = ''
  for (;;) {
    const visible = await inDashboard()
    const now = performance.now() - started
    if (visible > 0 && firstVisibleMs === undefined) firstVisibleMs = now
    const current = (await call<{ state: string; succeeded: number }>('GET', `/api/v1/collection/runs/${run.id}`)).data
    state = current.state
    if (visible >= planned) {
      allVisibleMs = now
      break
    }
    if (state === 'failed' || state === 'cancelled') break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const finished = (
    await call<{ state: string; succeeded: number; failed: number; started_at: string; finished_at: string; created_at: string }>('GET', `/api/v1/collection/runs/${run.id}`)
  ).data
  const runSeconds = (new Date(finished.finished_at).getTime() - new Date(finished.created_at).getTime()) / 1000
  const result = {
    benchmark: 'collection-throughput',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
    backend,
    caps: {
      concurrency_per_provider: config.collectionConcurrency,
      requests_per_minute_per_provider: config.collectionRequestsPerMinute,
      answer_workers: config.collectionWorkers,
      jobs_poll_seconds: config.jobsPollSeconds,
    },
    fake_latency_ms: '1000-2000 uniform',
    prompts: promptCount,
    targets: targetCount,
    samples,
    planned,
    state: finished.state,
    succeeded: finished.succeeded,
    failed: finished.failed,
    max_requests_in_flight: maxInFlight,
    run_seconds: Math.round(runSeconds * 100) / 100,
    answers_per_second: Math.round((finished.succeeded / runSeconds) * 100) / 100,
    cpu_seconds_per_answer: Math.round(((cpu.user + cpu.system) / 1e6 / Math.max(1, finished.succeeded)) * 10000) / 10000,
    first_answer_in_dashboard_seconds: firstVisibleMs === undefined ? null : Math.round(firstVisibleMs / 10) / 100,
    all_answers_in_dashboard_seconds: allVisibleMs === undefined ? null : Math.round(allVisibleMs / 10) / 100,
    wall_seconds: Math.round(seconds * 100) / 100,
  }
  console.log(
    `collection on ${backend}: ${result.succeeded}/${planned} answers in ${result.run_seconds} s = ${result.answers_per_second} answers/s ` +
      `(max ${maxInFlight} in flight), ${result.cpu_seconds_per_answer} CPU s/answer; in /dashboard: first after ${result.first_answer_in_dashboard_seconds} s, all after ${result.all_answers_in_dashboard_seconds} s`,
  )
  mkdirSync('bench/results', { recursive: true })
  const file = `bench/results/${result.date.slice(0, 10)}-collection-${backend}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`wrote ${file}`)
  setAdapterOverride(undefined)
  await app.close()
  await database.close()
} finally {
  if (schema) {
    await admin(`drop schema if exists ${schema} cascade`)
    await admin(`drop schema if exists ${schema}_jobs cascade`)
  }
}
