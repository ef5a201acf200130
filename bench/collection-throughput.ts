// Collection at provider speed (issue 27 item 6, docs/collection.md): 1,000 answers from the
// four native providers, each answering in 20 s (a web-search answer's latency), through the
// REAL adapters and SDKs (openai, @anthropic-ai/sdk, @google/genai, Perplexity's path) against
// the wire-format fakes of test/fakes (shapes from the SDKs' type definitions and the providers'
// docs, see each fake), with the DEFAULT settings (caps, answer workers, job polling); only
// the daily budget and the API rate limit are raised (they are not what is measured).
//   npm run bench:collection [-- --prompts 250 --latency-ms 20000]
//   DATABASE_URL=postgres://… npm run bench:collection     (a fresh schema, dropped afterwards)
// The fakes run in a child process, so this process's CPU (process.cpuUsage) is Beacon's: on
// PGlite that includes the database; on PostgreSQL the server's backends are measured from
// /proc when the server runs on this machine. The fakes log every request's arrival, from
// which the providers' side is checked: requests in flight and started per rolling minute,
// per provider, never above COLLECTION_CONCURRENCY / COLLECTION_REQUESTS_PER_MINUTE.
// Yardstick in the same run: the ideal time at the caps (ceil(answers per provider /
// concurrency) × latency), so machine load shows as the gap to it. Also measured: the CPU an
// idle instance spends polling for answer tasks (its answer workers each poll every
// JOBS_POLL_SECONDS), for 20 s after the run.
import { fork, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    prompts: { type: 'string', default: '250' },
    'latency-ms': { type: 'string', default: '20000' },
    'serve-fakes': { type: 'boolean', default: false },
  },
})
const latencyMs = Number(values['latency-ms'])
const PROVIDERS = ['openai', 'anthropic', 'google', 'perplexity'] as const

if (values['serve-fakes']) await serveFakes()
else await measure()

/** Child process: every provider fake answering after latencyMs, logging arrival times per provider. */
async function serveFakes(): Promise<void> {
  const { startProviderFakes } = await import('../test/fakes/index.js')
  const arrivals: Record<string, number[]> = Object.fromEntries(PROVIDERS.map((p) => [p, []]))
  const logged = (name: (typeof PROVIDERS)[number]) => ({
    latencyMs,
    script: () => {
      arrivals[name].push(Date.now())
      return undefined
    },
  })
  const fakes = await startProviderFakes({ openai: logged('openai'), anthropic: logged('anthropic'), google: logged('google'), perplexity: logged('perplexity') })
  process.on('message', (message) => {
    if (message === 'arrivals') process.send?.({ arrivals })
    if (message === 'close') void fakes.close().then(() => process.exit(0))
  })
  process.send?.({ env: fakes.env })
}

function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let best = 0
  let start = 0
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++
    best = Math.max(best, end - start + 1)
  }
  return best
}

/** CPU seconds (user + system) of the PostgreSQL backends serving the given database, from /proc (same machine only). */
async function postgresBackendCpu(url: string): Promise<{ pids: number[]; seconds: number } | undefined> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
    const ticks = Number(process.env.CLK_TCK ?? 100)
    let seconds = 0
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
        seconds += (Number(fields[11]) + Number(fields[12])) / ticks
      } catch {
        return undefined
      }
    }
    return { pids: rows.map((r) => r.pid), seconds }
  } finally {
    await client.end()
  }
}

async function measure(): Promise<void> {
  const promptCount = Number(values.prompts)
  const url = process.env.DATABASE_URL
  const backend = url?.startsWith('postgres') ? 'postgres' : 'pglite'
  const pg = (await import('pg')).default
  const schema = backend === 'postgres' ? `bench_collect_${process.pid}` : undefined
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(statement)
    await client.end()
  }

  // The fakes first: the adapters read their base URLs from the environment, as in production.
  const child: ChildProcess = fork(import.meta.filename, ['--serve-fakes', '--latency-ms', String(latencyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const fakeEnv = await new Promise<Record<string, string>>((resolve) => child.once('message', (m) => resolve((m as { env: Record<string, string> }).env)))
  for (const name of ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'GEMINI_BASE_URL', 'PERPLEXITY_BASE_URL']) process.env[name] = fakeEnv[name]

  const { buildApp } = await import('../src/app.js')
  const { loadConfig } = await import('../src/config.js')
  const { openDatabase } = await import('../src/db/database.js')
  const { migrateToLatest } = await import('../src/db/migrate.js')
  const { createWorkspace } = await import('../src/admin/workspaces.js')
  const { createApiKey } = await import('../src/admin/api-key-store.js')
  const { PROMPT_DEFS } = await import('../src/demo/catalog.js')

  if (schema) await admin(`create schema ${schema}`)
  try {
    // DEFAULT caps, workers and polling (loadConfig of an empty environment).
    const defaults = loadConfig({})
    const config = {
      ...defaults,
      databaseUrl: url ?? 'memory://',
      rateLimitPerMinute: 1_000_000,
      logLevel: 'warn',
      collectionDailyBudgetUsd: 1_000_000,
      // Keys are stored as credentials (sealed with this key), so they go to the fakes as a stored key would.
      secretKey: 'bench-collection-secret-key-0123456789abcdef',
      ...(schema ? { jobsSchema: `${schema}_jobs` } : {}),
    }
    const database = await openDatabase(config, { searchPath: schema })
    await migrateToLatest(database.db)
    const app = await buildApp({ config, database, logger: false })
    const base = await app.listen({ port: 0, host: '127.0.0.1' })
    const workspace = await createWorkspace(database.db, { name: 'bench', tier: 'premium' })
    const { key } = await createApiKey(database.db, { workspaceId: workspace.id, scopes: ['write:data', 'manage:workspace', 'read:analytics'] })
    const call = async <T = { id: string }>(method: string, path: string, body?: unknown, attempt = 1): Promise<{ data: T }> => {
      let response: Response
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'cache-control': 'no-cache' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      } catch (error) {
        // A kept-alive socket closed as it was reused (ECONNRESET): ask again on a new one.
        if (attempt < 3) return call<T>(method, path, body, attempt + 1)
        throw error
      }
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
      return (await response.json()) as { data: T }
    }
    await call('POST', '/api/v1/brands', { name: 'Acme', aliases: ['Acme Boards'], domain: 'acme.example', is_primary: true })
    await call('POST', '/api/v1/brands', { name: 'Globex', aliases: ['Globex Tasks'] })
    for (let i = 0; i < promptCount; i++) await call('POST', '/api/v1/prompts', { text: `${PROMPT_DEFS[i % PROMPT_DEFS.length].text} (${i})`, tags: ['bench'] })
    const models = { openai: 'gpt-5', anthropic: 'claude-sonnet-4-6', google: 'gemini-2.5-flash', perplexity: 'sonar-pro' }
    const keys = { openai: 'sk-fake-openai', anthropic: 'sk-ant-fake', google: 'fake-gemini-key', perplexity: 'pplx-fake' }
    for (const provider of PROVIDERS) {
      await call('PUT', `/api/v1/collection/credentials/bench-${provider}`, { provider, api_key: keys[provider] })
      await call('POST', '/api/v1/collection/targets', { provider, model: models[provider], web_search: true, credential: `bench-${provider}` })
    }

    const cpuBefore = process.cpuUsage()
    const dbCpuBefore = url && backend === 'postgres' ? await postgresBackendCpu(url) : undefined
    const loadBefore = loadavg()[0]
    const started = performance.now()
    const run = (await call('POST', '/api/v1/collection/runs', {})).data
    type RunView = {
      state: string
      planned: number
      succeeded: number
      failed: number
      skipped: number
      duplicates: number
      created_at: string
      finished_at: string | null
      errors: unknown[]
    }
    let current: RunView
    for (;;) {
      current = (await call<RunView>('GET', `/api/v1/collection/runs/${run.id}`)).data
      if (current.finished_at || ['failed', 'cancelled'].includes(current.state)) break
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    const planned = current.planned
    const wallSeconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    const dbCpuAfter = url && backend === 'postgres' ? await postgresBackendCpu(url) : undefined
    const loadAfter = loadavg()[0]

    // Idle: the answer workers poll for tasks; what that costs this process for 20 s.
    const idleBefore = process.cpuUsage()
    await new Promise((resolve) => setTimeout(resolve, 20_000))
    const idle = process.cpuUsage(idleBefore)

    child.send('arrivals')
    const { arrivals } = await new Promise<{ arrivals: Record<string, number[]> }>((resolve) => child.once('message', (m) => resolve(m as { arrivals: Record<string, number[]> })))
    const runSeconds = (new Date(current.finished_at ?? Date.now()).getTime() - new Date(current.created_at).getTime()) / 1000
    const perProvider = Object.fromEntries(
      PROVIDERS.map((p) => [
        p,
        {
          requests: arrivals[p].length,
          // Each request takes exactly latencyMs at the fake: arrivals within one latency are in flight together.
          max_in_flight: maxInWindow(arrivals[p], latencyMs),
          max_started_per_rolling_minute: maxInWindow(arrivals[p], 60_000),
        },
      ]),
    )
    const capsRespected = PROVIDERS.every(
      (p) => perProvider[p].max_in_flight <= config.collectionConcurrency && perProvider[p].max_started_per_rolling_minute <= config.collectionRequestsPerMinute,
    )
    const perProviderAnswers = Math.ceil(planned / PROVIDERS.length)
    const idealSeconds = Math.ceil(perProviderAnswers / Math.min(config.collectionConcurrency, Math.floor(config.collectionWorkers / PROVIDERS.length))) * (latencyMs / 1000)
    const beaconCpu = (cpu.user + cpu.system) / 1e6
    const dbCpu = dbCpuBefore && dbCpuAfter ? dbCpuAfter.seconds - dbCpuBefore.seconds : undefined
    const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits
    const result = {
      benchmark: 'collection-throughput',
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model,
        memory_gb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        load_1m_before: round(loadBefore),
        load_1m_after: round(loadAfter),
      },
      backend,
      settings: {
        concurrency_per_provider: config.collectionConcurrency,
        requests_per_minute_per_provider: config.collectionRequestsPerMinute,
        answer_workers: config.collectionWorkers,
        jobs_poll_seconds: config.jobsPollSeconds,
      },
      fake_latency_ms: latencyMs,
      providers: PROVIDERS,
      prompts: promptCount,
      planned,
      state: current.state,
      succeeded: current.succeeded,
      failed: current.failed,
      skipped: current.skipped,
      errors: current.errors,
      run_seconds: round(runSeconds),
      wall_seconds: round(wallSeconds),
      yardstick_ideal_seconds_at_caps: idealSeconds,
      within_6_minutes: current.succeeded === planned && runSeconds <= 360,
      answers_per_second: round(current.succeeded / runSeconds),
      beacon_cpu_seconds_per_answer: round(beaconCpu / Math.max(1, current.succeeded), 4),
      beacon_cpu_share_of_one_core: round(beaconCpu / runSeconds, 3),
      database_server_cpu_seconds_per_answer: dbCpu === undefined ? null : round(dbCpu / Math.max(1, current.succeeded), 4),
      idle_polling_cpu_share_of_one_core: round((idle.user + idle.system) / 1e6 / 20, 4),
      per_provider: perProvider,
      provider_caps_respected: capsRespected,
    }
    console.log(
      `collection on ${backend}: ${result.succeeded}/${planned} answers (${latencyMs / 1000} s each) in ${result.run_seconds} s (ideal at the caps ${idealSeconds} s; ` +
        `limit 360 s: ${result.within_6_minutes ? 'met' : 'MISSED'}) = ${result.answers_per_second} answers/s; Beacon ${result.beacon_cpu_seconds_per_answer} CPU s/answer ` +
        `(${Math.round(result.beacon_cpu_share_of_one_core * 100)}% of a core)${dbCpu === undefined ? '' : `, PostgreSQL ${result.database_server_cpu_seconds_per_answer} CPU s/answer`}; ` +
        `idle polling ${round(result.idle_polling_cpu_share_of_one_core * 100, 2)}% of a core`,
    )
    for (const p of PROVIDERS)
      console.log(
        `  ${p}: ${perProvider[p].requests} requests, max ${perProvider[p].max_in_flight} in flight (cap ${config.collectionConcurrency}), max ${perProvider[p].max_started_per_rolling_minute} started per minute (cap ${config.collectionRequestsPerMinute})`,
      )
    console.log(`  provider caps respected: ${capsRespected}`)
    mkdirSync('bench/results', { recursive: true })
    const file = `bench/results/${result.date.slice(0, 10)}-collection-${backend}.json`
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
    console.log(`wrote ${file}`)
    await app.close()
    await database.close()
  } catch (error) {
    // Said first: the clean-up below may fail too (the app still holds its connections).
    console.error('bench:collection failed:', error)
    process.exitCode = 1
  } finally {
    child.send('close')
    if (schema) {
      await admin(`drop schema if exists ${schema} cascade`).catch((error: unknown) => console.error(`could not drop schema ${schema}:`, error))
      await admin(`drop schema if exists ${schema}_jobs cascade`).catch((error: unknown) => console.error(`could not drop schema ${schema}_jobs:`, error))
    }
    if (process.exitCode) process.exit()
  }
}
