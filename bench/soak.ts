// Sustained load: mixed analytics traffic at fixed concurrency plus a steady ingestion
// loop against the real server (`beacon serve --demo`, a child process) on PostgreSQL.
//   npm run soak -- [--quick] [--seconds 60] [--warmup 10] [--connections 32]
//                   [--ingest-batch 100] [--ingest-interval-ms 1000]
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/beacon_test) gets a fresh
// schema for the run, dropped afterwards. Loopback only; the run is bounded.
// Fails (exit 1) on any 5xx, client error or timeout, failed ingestion, a server that
// died, or server RSS growing more than 10% from the end of warm-up to the end.
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { generateDemoDataset } from '../src/demo/generate-demo.js'
import { addDays, todayUtc } from '../src/core/date-range.js'
import { runAdminStatements } from '../src/db/admin-statements.js'
import { percentile, processRss, REPO_ROOT, sleep, startChildServer, type ChildServer } from '../test/faults/helpers/private-services.js'

// autocannon ships no types; this is the part of its API used here.
interface AutocannonResult {
  requests: { average: number; total: number; sent: number }
  latency: { p50: number; p90: number; p97_5: number; p99: number; average: number; max: number }
  duration: number
  errors: number
  timeouts: number
  non2xx: number
  '1xx': number
  '2xx': number
  '3xx': number
  '4xx': number
  '5xx': number
}
interface AutocannonRequest {
  method?: string
  path?: string
  headers?: Record<string, string>
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult> & { stop(): void }
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '32' },
    'ingest-batch': { type: 'string', default: '100' },
    'ingest-interval-ms': { type: 'string', default: '1000' },
    // A 15 s run's RSS is dominated by GC swings; CI's quick run allows more and still
    // catches a gross leak.
    'rss-limit': { type: 'string', default: '10' },
  },
})
const positive = (name: string, raw: string | undefined, fallback: number) => {
  const value = raw === undefined ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number >= 1, got "${raw}"`)
  return value
}
const seconds = positive('seconds', values.seconds, values.quick ? 15 : 60)
const warmupSeconds = positive('warmup', values.warmup, values.quick ? 5 : 10)
const connections = positive('connections', values.connections, 32)
const ingestBatch = Math.min(positive('ingest-batch', values['ingest-batch'], 100), 1000)
const ingestIntervalMs = positive('ingest-interval-ms', values['ingest-interval-ms'], 1000)
const RSS_GROWTH_LIMIT = positive('rss-limit', values['rss-limit'], 10) / 100

const databaseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/beacon_test'
if (!databaseUrl.startsWith('postgres')) throw new Error('The soak runs on PostgreSQL: set DATABASE_URL=postgres://… (default postgres://postgres@127.0.0.1:5432/beacon_test)')
const schema = `soak_${process.pid}_${randomBytes(3).toString('hex')}`

/** The server's connection string, pinned to the run's schema (the CLI has no schema option). */
function schemaUrl(): string {
  const url = new URL(databaseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

const log = (message: string) => process.stderr.write(`${message}\n`)

// ---------------------------------------------------------------- request mix

/** Deterministic pseudo-random numbers so two runs send the same mix. */
function prng(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

interface Catalogue {
  brandIds: string[]
  promptIds: string[]
  providers: string[]
  modelIds: string[]
  tags: string[]
  domains: string[]
}

function requestMix(catalogue: Catalogue, count: number): { route: string; path: string }[] {
  const random = prng(20261121)
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]
  const today = todayUtc()
  const range = () => {
    const days = pick([0, 7, 30, 90])
    return days ? [`start_date=${addDays(today, -days)}`, `end_date=${today}`] : []
  }
  const filters = () => {
    const params = range()
    const roll = random()
    if (roll < 0.25) params.push(`models=${pick(catalogue.providers)}`)
    else if (roll < 0.35) params.push(`models=${pick(catalogue.providers)},${pick(catalogue.providers)}`)
    else if (roll < 0.45 && catalogue.modelIds.length) params.push(`model_ids=${encodeURIComponent(pick(catalogue.modelIds))}`)
    if (random() < 0.3 && catalogue.tags.length) params.push(`tags=${encodeURIComponent(pick(catalogue.tags))}`)
    return params
  }
  const page = (max: number) => (random() < 0.3 ? [`page=${1 + Math.floor(random() * 3)}`, `per_page=${pick([10, 20, max])}`] : [])
  const path = (base: string, params: string[]) => (params.length ? `${base}?${params.join('&')}` : base)

  const routes: [string, number, () => string][] = [
    ['dashboard', 4, () => path('/api/v1/dashboard', filters())],
    ['brands', 1, () => path('/api/v1/brands', page(100))],
    ['brand-detail', 2, () => path(`/api/v1/brands/${pick(catalogue.brandIds)}`, filters())],
    ['prompts', 2, () => path('/api/v1/prompts', [`brand_id=${pick(catalogue.brandIds)}`, ...filters()])],
    ['prompt-detail', 1, () => `/api/v1/prompts/${pick(catalogue.promptIds)}`],
    ['sources', 2, () => path('/api/v1/sources', [...filters(), ...(random() < 0.2 ? [`prompt_template_id=${pick(catalogue.promptIds)}`] : []), ...page(100)])],
    ['urls', 2, () => path('/api/v1/urls', [...filters(), ...(random() < 0.3 && catalogue.domains.length ? [`source_id=${pick(catalogue.domains)}`] : []), ...page(100)])],
    ['urls-detailed', 1, () => path('/api/v1/urls-detailed', [...filters(), ...page(50)])],
    ['responses', 2, () => path('/api/v1/responses', [...filters(), ...(random() < 0.3 ? [`has_content=${pick(['true', 'false'])}`] : []), ...page(100)])],
    ['aio-metrics', 1, () => path('/api/v1/aio-metrics', [...range(), ...(random() < 0.4 ? [`target_brand_id=${pick(catalogue.brandIds)}`] : [])])],
    ['aio-prompt', 1, () => path(`/api/v1/aio-metrics/prompt/${pick(catalogue.promptIds)}`, range())],
    ['filters', 1, () => '/api/v1/filters'],
  ]
  const weighted = routes.flatMap(([route, weight, make]) => Array.from({ length: weight }, () => [route, make] as const))
  return Array.from({ length: count }, () => {
    const [route, make] = pick(weighted)
    return { route, path: make() }
  })
}

// ---------------------------------------------------------------- server helpers

async function getJson<T>(base: string, key: string, path: string): Promise<{ data: T }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) })
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as { data: T }
}

interface FiltersData {
  brands: { id: string }[]
  providers: string[]
  models: { id: string }[]
  tags: string[]
}

async function catalogueOf(base: string, key: string): Promise<Catalogue> {
  const filters = (await getJson<FiltersData>(base, key, '/api/v1/filters')).data
  const brandIds = filters.brands.map((b) => b.id)
  const prompts = (await getJson<{ prompts: { id: string }[] }>(base, key, `/api/v1/prompts?brand_id=${brandIds[0]}`)).data.prompts
  const sources = (await getJson<{ sources: { domain: string }[] }>(base, key, '/api/v1/sources?start_date=' + addDays(todayUtc(), -90) + '&per_page=50')).data.sources
  return {
    brandIds,
    promptIds: prompts.map((p) => p.id),
    providers: filters.providers,
    modelIds: filters.models.map((m) => m.id),
    tags: filters.tags,
    domains: sources.map((s) => s.domain),
  }
}

interface RouteStats {
  statuses: Record<string, number>
  latencies: number[]
}

/** autocannon at fixed concurrency over the mix, with per-route statuses and latencies. */
function fire(base: string, key: string, mix: { route: string; path: string }[], durationSeconds: number, stats: Map<string, RouteStats> | undefined) {
  let next = 0
  const request: AutocannonRequest = {
    method: 'GET',
    setupRequest(req, context) {
      const item = mix[next++ % mix.length]
      context.route = item.route
      context.sentAt = performance.now()
      return { ...req, path: item.path }
    },
    onResponse(status, _body, context) {
      if (!stats) return
      const route = String(context.route)
      let entry = stats.get(route)
      if (!entry) stats.set(route, (entry = { statuses: {}, latencies: [] }))
      entry.statuses[status] = (entry.statuses[status] ?? 0) + 1
      entry.latencies.push(performance.now() - Number(context.sentAt))
    },
  }
  return autocannon({ url: base, connections, duration: durationSeconds, timeout: 10, headers: { authorization: `Bearer ${key}` }, requests: [request] })
}

/** Sends batches of new responses at a steady pace until stopped. */
function ingestLoop(base: string, key: string, promptIdByText: Map<string, string>) {
  const dataset = generateDemoDataset({ today: todayUtc() })
  const promptText = new Map(dataset.prompts.map((p) => [p.key, p.text]))
  const today = todayUtc()
  const statuses: Record<string, number> = {}
  const latencies: number[] = []
  let accepted = 0
  let sent = 0
  let stopped = false
  const run = (async () => {
    while (!stopped) {
      const started = performance.now()
      const responses = Array.from({ length: ingestBatch }, () => {
        const n = sent++
        const source = dataset.responses[n % dataset.responses.length]
        return {
          external_id: `soak-${schema}-${n}`,
          prompt_id: promptIdByText.get(promptText.get(source.promptKey)!),
          provider: source.provider,
          model: source.model,
          content: source.content,
          created_at: `${addDays(today, -(n % 30))}T${String(n % 24).padStart(2, '0')}:15:00Z`,
          citations: source.citations,
        }
      })
      try {
        const response = await fetch(`${base}/api/v1/ingest/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ responses }),
          signal: AbortSignal.timeout(30_000),
        })
        const body = (await response.json()) as { data?: { accepted: number } }
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        if (response.status === 200) accepted += body.data?.accepted ?? 0
      } catch (error) {
        statuses.error = (statuses.error ?? 0) + 1
        log(`ingestion request failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      const elapsed = performance.now() - started
      latencies.push(elapsed)
      if (!stopped) await sleep(Math.max(0, ingestIntervalMs - elapsed))
    }
  })()
  return {
    async stop() {
      stopped = true
      await run
      return { batches: latencies.length, batch_size: ingestBatch, accepted, statuses, latency_ms: summary(latencies) }
    },
  }
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const mb = (bytes: number) => round(bytes / 2 ** 20)
const summary = (values: number[]) => ({
  p50: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
  p99: round(percentile(values, 99)),
  max: round(Math.max(...values, 0)),
})
const statusClass = (statuses: Record<string, number>, cls: string) => Object.entries(statuses).reduce((n, [status, count]) => (status.startsWith(cls) ? n + count : n), 0)

// ---------------------------------------------------------------- run

let server: ChildServer | undefined
let schemaCreated = false
async function cleanUp() {
  await server?.stop().catch(() => server?.kill())
  if (schemaCreated) await runAdminStatements(databaseUrl, `drop schema if exists ${schema} cascade`).catch((error) => log(`could not drop schema ${schema}: ${error.message}`))
}
process.once('SIGINT', () => {
  log('interrupted: cleaning up')
  void cleanUp().then(() => process.exit(130))
})

const runStarted = performance.now()
async function main(): Promise<number> {
  await runAdminStatements(databaseUrl, `create schema ${schema}`)
  schemaCreated = true
  log(`soak: schema ${schema} on ${new URL(databaseUrl).host}; starting beacon serve --demo (seeds the demo workspace)…`)
  const seedStarted = performance.now()
  server = await startChildServer({ DATABASE_URL: schemaUrl(), RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' }, ['--demo'], 300_000)
  const demo = server.startup.demo as { key: string; responses: number; observations: number }
  log(
    `soak: server pid ${server.pid} at ${server.url}; demo ${demo.responses} responses, ${demo.observations} AI overviews, seeded in ${round((performance.now() - seedStarted) / 1000)} s`,
  )

  const catalogue = await catalogueOf(server.url, demo.key)
  const prompts = (await getJson<{ prompts: { id: string; text: string }[] }>(server.url, demo.key, `/api/v1/prompts?brand_id=${catalogue.brandIds[0]}`)).data.prompts
  const promptIdByText = new Map(prompts.map((p) => [p.text, p.id]))

  // Every variant is checked once: a 4xx means a bad variant (dropped, listed), a 5xx fails the run.
  const candidates = requestMix(catalogue, 400)
  const answered = new Set<number>()
  const rejected: { path: string; status: number; body: string }[] = []
  let cursor = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cursor < candidates.length) {
        const index = cursor++
        const item = candidates[index]
        const response = await fetch(`${server!.url}${item.path}`, { headers: { authorization: `Bearer ${demo.key}` }, signal: AbortSignal.timeout(30_000) })
        const body = await response.text()
        if (response.status === 200) answered.add(index)
        else rejected.push({ path: item.path, status: response.status, body: body.slice(0, 300) })
      }
    }),
  )
  const mix = candidates.filter((_, index) => answered.has(index))
  for (const r of rejected) log(`soak: variant answered ${r.status}: ${r.path} ${r.body}`)
  if (rejected.some((r) => r.status >= 500) || mix.length === 0) {
    log('soak: FAILED before load: request variants answered 5xx (or none answered 200)')
    return 1
  }

  log(`soak: warm-up ${warmupSeconds} s at concurrency ${connections} over ${mix.length} request variants, ingesting ${ingestBatch} responses every ${ingestIntervalMs} ms…`)
  const ingestion = ingestLoop(server.url, demo.key, promptIdByText)
  // RSS once a second. Readings follow the garbage collector's saw-tooth (about 100 MB
  // on this service), so single readings are noise: "after warm-up" is the median of the
  // first readings of the measured period and "at the end" the median of its last ones
  // (10 s windows; 5 s on --quick). A leak lifts the whole saw-tooth and shows in both.
  const warmupRss: number[] = []
  const runRss: number[] = []
  let rssTarget = warmupRss
  const sampler = setInterval(() => {
    try {
      rssTarget.push(processRss(server!.pid))
    } catch {
      // the process is gone; reported below
    }
  }, 1_000)
  const warm = await fire(server.url, demo.key, mix, warmupSeconds, undefined)
  warmupRss.push(processRss(server.pid))
  rssTarget = runRss

  log(`soak: measuring ${seconds} s…`)
  const stats = new Map<string, RouteStats>()
  const result = await fire(server.url, demo.key, mix, seconds, stats)
  clearInterval(sampler)
  const alive = server.process.exitCode === null && server.process.signalCode === null
  if (alive) runRss.push(processRss(server.pid))
  const ingest = await ingestion.stop()
  const window = Math.max(3, Math.min(10, Math.floor(seconds / 3)))
  const rssAfterWarmup = percentile(runRss.slice(0, window), 50)
  const rssEnd = alive ? percentile(runRss.slice(-window), 50) : NaN

  const growth = (rssEnd - rssAfterWarmup) / rssAfterWarmup
  const serverErrors = server
    .stderr()
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line)).length
  const ingest5xx = statusClass(ingest.statuses, '5')
  const routes = Object.fromEntries(
    [...stats.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, entry]) => [route, { requests: entry.latencies.length, statuses: entry.statuses, latency_ms: summary(entry.latencies) }]),
  )
  const failures = [
    ...(result['5xx'] ? [`${result['5xx']} analytics responses were 5xx`] : []),
    ...(result.errors || result.timeouts ? [`${result.errors} client errors (${result.timeouts} timeouts)`] : []),
    ...(ingest5xx || ingest.statuses.error ? [`ingestion: ${ingest5xx} 5xx, ${ingest.statuses.error ?? 0} failed requests`] : []),
    ...(Object.keys(ingest.statuses).some((s) => s !== '200') ? [`ingestion statuses ${JSON.stringify(ingest.statuses)}`] : []),
    ...(!alive ? ['the server process died'] : []),
    ...(!(growth <= RSS_GROWTH_LIMIT) ? [`server RSS grew ${round(growth * 100)}% (limit ${RSS_GROWTH_LIMIT * 100}%)`] : []),
  ]

  const report = {
    benchmark: 'soak',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
    backend: 'postgres',
    mode: values.quick ? 'quick' : 'full',
    config: {
      seconds,
      warmup_seconds: warmupSeconds,
      connections,
      ingest_batch: ingestBatch,
      ingest_interval_ms: ingestIntervalMs,
      request_variants: mix.length,
      rejected_variants: rejected.length,
    },
    dataset: { demo_responses: demo.responses, demo_observations: demo.observations },
    warmup: { requests: warm.requests.total, requests_per_second: round(warm.requests.average), latency_ms: { p50: warm.latency.p50, p99: warm.latency.p99 } },
    analytics: {
      requests: result.requests.total,
      requests_per_second: round(result.requests.average),
      status_classes: { '1xx': result['1xx'], '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
      errors: result.errors,
      timeouts: result.timeouts,
      // autocannon's histogram has no p95; all_routes_ms is measured per request in the same run.
      latency_ms: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        max: result.latency.max,
        average: round(result.latency.average),
      },
      all_routes_ms: summary([...stats.values()].flatMap((entry) => entry.latencies)),
      routes,
    },
    ingestion: ingest,
    server: {
      pid: server.pid,
      alive,
      rss_mb_after_warmup: mb(rssAfterWarmup),
      rss_mb_end: mb(rssEnd),
      rss_window_seconds: window,
      rss_mb_reading_at_warmup_end: mb(warmupRss.at(-1) ?? NaN),
      rss_mb_last_reading: mb(runRss.at(-1) ?? NaN),
      rss_mb_max: mb(Math.max(...warmupRss, ...runRss)),
      rss_mb_samples: runRss.map(mb),
      rss_growth_percent: round(growth * 100),
      error_log_lines: serverErrors,
    },
    wall_clock_seconds: round((performance.now() - runStarted) / 1000),
    passed: failures.length === 0,
    failures,
  }

  const pad = (value: unknown, width: number) => String(value).padStart(width)
  const lines = [
    '',
    `Soak ${report.mode}: ${seconds} s measured after ${warmupSeconds} s warm-up, concurrency ${connections}, PostgreSQL, demo data (${demo.responses} responses) + ingestion`,
    '',
    `${'route'.padEnd(14)}${pad('requests', 10)}${pad('2xx', 8)}${pad('4xx', 6)}${pad('5xx', 6)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('p99 ms', 9)}`,
    ...Object.entries(routes).map(
      ([route, r]) =>
        `${route.padEnd(14)}${pad(r.requests, 10)}${pad(statusClass(r.statuses, '2'), 8)}${pad(statusClass(r.statuses, '4'), 6)}${pad(statusClass(r.statuses, '5'), 6)}${pad(r.latency_ms.p50, 9)}${pad(r.latency_ms.p95, 9)}${pad(r.latency_ms.p99, 9)}`,
    ),
    '',
    `analytics   ${result.requests.total} requests, ${round(result.requests.average)} req/s; 2xx ${result['2xx']}, 4xx ${result['4xx']}, 5xx ${result['5xx']}, errors ${result.errors}, timeouts ${result.timeouts}`,
    `latency     p50 ${report.analytics.all_routes_ms.p50} ms, p95 ${report.analytics.all_routes_ms.p95} ms, p99 ${report.analytics.all_routes_ms.p99} ms (per request); autocannon p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max} ms`,
    `ingestion   ${ingest.batches} batches of ${ingestBatch}, ${ingest.accepted} responses stored, statuses ${JSON.stringify(ingest.statuses)}, batch p50 ${ingest.latency_ms.p50} ms, p95 ${ingest.latency_ms.p95} ms`,
    `server RSS  ${report.server.rss_mb_after_warmup} MB after warm-up -> ${report.server.rss_mb_end} MB at the end (medians of ${window} s windows; ${report.server.rss_growth_percent >= 0 ? '+' : ''}${report.server.rss_growth_percent}%, max ${report.server.rss_mb_max} MB); error log lines ${serverErrors}`,
    failures.length ? `FAILED: ${failures.join('; ')}` : `PASSED: no 5xx, no client errors, RSS within ${RSS_GROWTH_LIMIT * 100}%`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)

  const dir = join(REPO_ROOT, 'bench', 'results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${report.date.slice(0, 10)}-soak${values.quick ? '-quick' : ''}.json`)
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  log(`soak: results written to ${file}`)
  return failures.length ? 1 : 0
}

let code = 1
try {
  code = await main()
} catch (error) {
  log(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  if (server) log(`server stderr (tail):\n${server.stderr().slice(-2_000)}`)
} finally {
  await cleanUp()
}
process.exit(code)
