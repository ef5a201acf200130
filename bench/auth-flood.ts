// A flood of bad API keys against the per-address failure limit (issue 28): how many bad
// requests per second the server answers and at what cost, and what a good key's requests
// see meanwhile, with the limit (AUTH_FAILURES_PER_MINUTE=30: after 30 failures, 429 without
// a hash or lookup) against the same flood with a limit never reached (every bad key hashed
// and looked up, as before). Yardstick: the good key's latency with no flood, same run.
//   npm run bench:auth-flood [-- --seconds 5]
// DATABASE_URL=postgres://… uses that database (a scratch one: a workspace and key are
// written to it); unset, an in-memory PGlite. Writes bench/results/auth-flood-<date>-<backend>.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { createWorkspace } from '../src/admin/workspaces.js'
import { createApiKey } from '../src/admin/api-key-store.js'
import { generateApiKey } from '../src/auth/api-keys.js'
import { AuthFailureLimiter } from '../src/auth/auth-failure-limiter.js'
import { todayUtc } from '../src/core/date-range.js'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } })
const SECONDS = Number(values.seconds)
const FLOOD_CONNECTIONS = 16

const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'memory://'
const backend = databaseUrl.startsWith('postgres') ? 'postgres' : 'pglite'
const base = { ...loadConfig(), databaseUrl, jobsWorker: false, rateLimitPerMinute: 1_000_000, logLevel: 'silent' as const }
const database = await openDatabase(base)
await migrateToLatest(database.db)
const workspace = await createWorkspace(database.db, { name: `Auth flood ${Date.now()}`, tier: 'premium' })
const { key } = await createApiKey(database.db, { workspaceId: workspace.id, scopes: ['read:analytics'] })
const badKey = generateApiKey()

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const round = (v: number) => Math.round(v * 100) / 100

/** The good key's requests, one after another, for `ms`: what a well-behaved client sees. */
async function goodKeyLatency(url: string, ms: number) {
  const times: number[] = []
  const statuses = new Map<number, number>()
  const until = performance.now() + ms
  while (performance.now() < until) {
    const t = performance.now()
    const response = await fetch(`${url}/api/v1/filters`, { headers: { authorization: `Bearer ${key}` } })
    await response.arrayBuffer()
    times.push(performance.now() - t)
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  }
  const sorted = times.sort((a, b) => a - b)
  return { p50_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), requests: sorted.length, statuses: Object.fromEntries(statuses) }
}

async function scenario(name: string, authFailuresPerMinute: number, flood: boolean) {
  const app = await buildApp({ config: { ...base, authFailuresPerMinute }, database, logger: false })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  // The good key is used once first, as a client that is working would have.
  await fetch(`${url}/api/v1/filters`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer())
  const cpuBefore = process.cpuUsage()
  const cannon = flood ? autocannon({ url: `${url}/api/v1/filters`, headers: { authorization: `Bearer ${badKey}` }, connections: FLOOD_CONNECTIONS, duration: SECONDS }) : undefined
  const good = await goodKeyLatency(url, SECONDS * 1000)
  const bad = cannon ? await cannon : undefined
  const cpu = process.cpuUsage(cpuBefore)
  await app.close()
  const row = {
    scenario: name,
    auth_failures_per_minute: authFailuresPerMinute,
    bad_requests_per_second: bad ? Math.round(bad.requests.average) : 0,
    bad_statuses: bad ? Object.fromEntries(Object.entries(bad.statusCodeStats ?? {}).map(([status, s]) => [status, (s as { count: number }).count])) : {},
    good_key: good,
    process_cpu_seconds: round((cpu.user + cpu.system) / 1e6),
  }
  console.log(
    `${name.padEnd(34)} bad ${String(row.bad_requests_per_second).padStart(6)} req/s ${JSON.stringify(row.bad_statuses).padEnd(24)} | good key p50 ${good.p50_ms} ms p95 ${good.p95_ms} ms (${good.requests} requests, ${JSON.stringify(good.statuses)}) | CPU ${row.process_cpu_seconds} s`,
  )
  return row
}

/** The limiter's own cost on a good request: its check and its note of the key, in-process. */
function limiterCost() {
  const limiter = new AuthFailureLimiter({ max: 30, log: { warn: () => undefined, info: () => undefined } as never })
  const keys = Array.from({ length: 1000 }, () => generateApiKey())
  const rounds = 1_000_000
  const t = performance.now()
  for (let i = 0; i < rounds; i++) {
    const k = keys[i % keys.length]
    limiter.check('127.0.0.1', k)
    limiter.succeeded(k)
  }
  return round(((performance.now() - t) * 1e6) / rounds) // ns per request
}

console.log(`backend ${backend}, ${SECONDS} s per scenario, flood at concurrency ${FLOOD_CONNECTIONS}, load average ${loadavg()[0].toFixed(1)}`)
const results = [
  await scenario('no flood (yardstick)', 30, false),
  await scenario('flood, limit never reached', 1_000_000_000, true),
  await scenario('flood, limit 30/min', 30, true),
]
const ns = limiterCost()
console.log(`limiter cost on a good request (check + note the key): ${ns} ns`)
await database.close()

mkdirSync('bench/results', { recursive: true })
const file = `bench/results/auth-flood-${todayUtc()}-${backend}.json`
writeFileSync(
  file,
  `${JSON.stringify({ benchmark: 'auth-flood', date: new Date().toISOString(), backend, node: process.version, cpus: cpus().length, load_average: loadavg(), seconds: SECONDS, flood_connections: FLOOD_CONNECTIONS, limiter_ns_per_good_request: ns, results }, null, 2)}\n`,
)
console.log(`wrote ${file}`)
