// N workspaces at the brand limits (500 brands × 50 aliases of 200 characters) on one
// instance, ingesting and re-analysing at the same time (issue 33): memory (process RSS, its
// peak, the heap of every thread) and the worst /healthz meanwhile. With --workspaces 1 it
// also gives what bench/heavy-aliases.ts measured (ingest call latency at the limits).
//
// npm run bench:heavy-tenants [-- --workspaces 3 --answers 300 --api-brands 2 --backend pglite|postgres]
// PostgreSQL: --backend postgres with TEST_DATABASE_URL set (the bench gets a schema of its own).
// --alias-length 200 measures the limit as it was before issue 33 (brands inserted directly;
// those added through the API are cut to MAX_TERM_LENGTH).
// BENCH_LABEL=x adds -x to the result file's name (before/after runs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createTestContext, waitForJob, type TestBackend } from '../test/helpers/test-app.js'
import { createPrompt, post } from '../test/helpers/requests.js'
import { startJobs } from '../src/start-jobs.js'
import { MAX_ALIASES_PER_BRAND, MAX_BRANDS_PER_WORKSPACE, MAX_TERM_LENGTH } from '../src/core/limits.js'
import * as pool from '../src/analysis/analysis-pool.js'
import { startIdleYardstick } from './idle-yardstick.js'

const { values } = parseArgs({
  options: {
    workspaces: { type: 'string', default: '3' },
    answers: { type: 'string', default: '300' },
    'api-brands': { type: 'string', default: '2' },
    backend: { type: 'string', default: 'pglite' },
    brands: { type: 'string', default: String(MAX_BRANDS_PER_WORKSPACE) },
    aliases: { type: 'string', default: String(MAX_ALIASES_PER_BRAND) },
    'alias-length': { type: 'string', default: String(MAX_TERM_LENGTH) },
  },
})
const WORKSPACES = Number(values.workspaces)
const ANSWERS = Number(values.answers)
const API_BRANDS = Number(values['api-brands'])
const BACKEND = values.backend as TestBackend
const ALIAS_LENGTH = Number(values['alias-length'])
// Below the limits (--brands 12 --aliases 3 --alias-length 24): the same work for light
// workspaces, the yardstick of what ingestion itself costs the event loop on this backend.
const BRANDS = Number(values.brands)
const ALIASES = Number(values.aliases)
const BATCH = 100
if (BACKEND !== 'pglite' && BACKEND !== 'postgres') throw new Error('--backend must be pglite or postgres')

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
const round = (x: number) => Math.round(x * 10) / 10
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN
const summary = (xs: number[]) => ({ n: xs.length, p50: round(pct(xs, 0.5)), p99: round(pct(xs, 0.99)), max: round(Math.max(...xs)) })
/** Linux: the process's peak resident set (VmHWM) and current one, MB. */
function procStatus(): { rssMb: number; peakRssMb: number } {
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN)
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) }
}
// Per-thread heaps: only where the pool can report them (the version this bench came with).
const threadMemory = (pool as { analysisThreadMemory?: () => Promise<unknown[]> }).analysisThreadMemory
const matcherCacheStats = (await import('../src/analysis/mentions.js').catch(() => ({}))) as { matcherCacheStats?: () => unknown }

const loadStart = loadavg()
const ctx = await createTestContext(BACKEND, { jobsWorker: true, rateLimitPerMinute: 1_000_000 }, { jobs: (database, config) => startJobs(config, database) })
await ctx.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
await pool.sharedAnalysisPool(ctx.config.analysisThreads).warmUp()
const idle = { ...procStatus(), heapUsedMb: mb(process.memoryUsage().heapUsed) }
console.log(`${BACKEND}: ${WORKSPACES} workspaces × ${BRANDS} brands × ${ALIASES} aliases of ${ALIAS_LENGTH} chars; idle RSS ${idle.rssMb} MB`)

// RSS sampled through the run (the peak is also read from VmHWM at the end).
let rssMaxSampled = 0
const sampler = setInterval(() => (rssMaxSampled = Math.max(rssMaxSampled, procStatus().rssMb)), 200)

// A probe that fails (the server cut the connection: its event loop was blocked past the
// request timeout) counts with the time it took, and is reported.
const healthz = () =>
  new Promise<{ ms: number; ok: boolean }>((resolve) => {
    const started = performance.now()
    const done = (ok: boolean) => resolve({ ms: performance.now() - started, ok })
    http.get(`${base}/healthz`, (res) => res.resume().on('end', () => done(res.statusCode === 200))).on('error', () => done(false))
  })
// The same probe of an idle process (bench/idle-yardstick.ts). The prober runs in this
// process, as the server does, so that probe also waits out this process's own stalls; the
// idle process's own worst event-loop delay does not, and the schedstat split below says
// which part of each stall of this process was its own work.
const yardstick = await startIdleYardstick()
const idleProbe = () =>
  new Promise<number>((resolve) => {
    const started = performance.now()
    http.get(`${yardstick.url}/healthz`, (res) => res.resume().on('end', () => resolve(performance.now() - started))).on('error', () => resolve(performance.now() - started))
  })
let probing = true
const probes: { phase: string; ms: number; ok: boolean; idleMs: number }[] = []
let phase = 'setup'
const prober = (async () => {
  while (probing) {
    const [server, idleMs] = await Promise.all([healthz(), idleProbe()])
    probes.push({ phase, ...server, idleMs })
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
})()

// Event-loop stalls of this process, split (Linux schedstat of the main thread) into the time
// the thread ran (our code and GC: what a fix can remove) and the time it waited for a core.
const schedstat = () => {
  try {
    const [ran, waited] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number)
    return { ran: ran / 1e6, waited: waited / 1e6 }
  } catch {
    return { ran: NaN, waited: NaN }
  }
}
const stalls: { phase: string; ms: number; ranMs: number; waitedMs: number }[] = []
let lastTick = { at: performance.now(), ...schedstat() }
const ticker = setInterval(() => {
  const now = { at: performance.now(), ...schedstat() }
  const late = now.at - lastTick.at - 10
  if (late > 50) stalls.push({ phase, ms: round(late), ranMs: round(now.ran - lastTick.ran), waitedMs: round(now.waited - lastTick.waited) })
  lastTick = now
}, 10)

// Brands named "W<w> Brand <b>", aliases padded to the length limit (as bench/heavy-aliases.ts
// did), inserted directly, except the last --api-brands, added through the API: each of those
// is a new brand set and a re-analysis job.
const tenants: { w: number; workspaceId: string; key: string; promptId: string }[] = []
for (let w = 0; w < WORKSPACES; w++) {
  const tenant = await ctx.tenant()
  await sql`
    insert into brand (workspace_id, id, name, aliases, is_primary, is_active, discovery_status)
    select ${tenant.workspaceId}, gen_random_uuid(), ${`W${w} Brand `} || b,
      array(select rpad(${`W${w} Brand `} || b || ' alias ' || a || ' ', ${ALIAS_LENGTH}, 'x') from generate_series(1, ${ALIASES}) as a),
      false, true, 'confirmed'
    from generate_series(0, ${BRANDS - 1 - API_BRANDS}) as b`.execute(ctx.database.db)
  const promptId = await createPrompt(ctx, tenant.key, 'Which tool?', ['tools'])
  tenants.push({ w, ...tenant, promptId })
}

let serial = 0
function answers(w: number, count: number) {
  return Array.from({ length: count }, () => {
    serial += 1
    const b = (k: number) => (serial * k) % (BRANDS - API_BRANDS)
    return {
      prompt_id: tenants[w].promptId,
      provider: 'openai',
      model: 'gpt-4o',
      content:
        `## Options\n\nFor this, W${w} Brand ${b(1)} is good and W${w} Brand ${b(7)} alias 3 is pricier, although its support is better. ` +
        `W${w} Brand ${b(13)} also works; many reviewers say W${w} Brand ${b(17)} is slow on large projects.\n\n` +
        `1. W${w} Brand ${b(19)}: reliable, clean interface, fair pricing.\n2. W${w} Brand ${b(23)}: flexible but confusing at first.\n` +
        `See https://www.example.com/reviews?utm_source=chatgpt for details.`,
      created_at: new Date(Date.UTC(2026, 4, 1 + (serial % 28))).toISOString(),
    }
  })
}

const ingestCalls: number[] = []
async function ingest(w: number, count: number) {
  for (let sent = 0; sent < count; sent += BATCH) {
    const started = performance.now()
    const response = await post(ctx, '/api/v1/ingest/responses', tenants[w].key, { responses: answers(w, Math.min(BATCH, count - sent)) })
    if (response.statusCode !== 200) throw new Error(`ingest: ${response.statusCode} ${response.body.slice(0, 300)}`)
    ingestCalls.push(performance.now() - started)
  }
}

// Each workspace: half its answers, its API brands (each a re-analysis job), the other half
// while those jobs run, then waits for its jobs. All workspaces at once.
const jobSeconds: number[] = []
const started = performance.now()
phase = 'ingest and re-analysis'
await yardstick.worstDelayMs()
await Promise.all(
  tenants.map(async (tenant) => {
    await ingest(tenant.w, Math.ceil(ANSWERS / 2))
    const jobs: string[] = []
    for (let k = 0; k < API_BRANDS; k++) {
      const name = `W${tenant.w} Brand ${BRANDS - API_BRANDS + k}`
      // Through the API an alias is at most MAX_TERM_LENGTH long.
      const aliases = Array.from({ length: ALIASES }, (_, a) => `${name} alias ${a + 1} `.padEnd(Math.min(ALIAS_LENGTH, MAX_TERM_LENGTH), 'x'))
      const response = await post(ctx, '/api/v1/brands', tenant.key, { name, aliases })
      if (response.statusCode !== 201) throw new Error(`brand: ${response.statusCode} ${response.body.slice(0, 300)}`)
      const job = (response.json() as { job?: { id: string } }).job
      if (job) jobs.push(job.id)
    }
    await ingest(tenant.w, Math.floor(ANSWERS / 2))
    for (const id of new Set(jobs)) {
      const job = await waitForJob(ctx, tenant.workspaceId, id, 1_800_000)
      if (job.state !== 'succeeded') throw new Error(`re-analysis job ${job.state}: ${JSON.stringify(job.error ?? null)}`)
      jobSeconds.push((job.result as { seconds?: number } | null)?.seconds ?? NaN)
    }
  }),
)
const workSeconds = (performance.now() - started) / 1000
const idleWorstDelayMs = await yardstick.worstDelayMs()
phase = 'after'
await new Promise((resolve) => setTimeout(resolve, 500))
probing = false
await prober
await yardstick.stop()
clearInterval(sampler)
clearInterval(ticker)

const duringProbes = probes.filter((p) => p.phase === 'ingest and re-analysis')
const during = duringProbes.map((p) => p.ms)
const duringStalls = stalls.filter((s) => s.phase === 'ingest and re-analysis')
const worstBy = (key: 'ms' | 'ranMs') => duringStalls.reduce((worst, s) => (s[key] > (worst?.[key] ?? -1) ? s : worst), undefined as (typeof stalls)[number] | undefined) ?? null
const result = {
  date: new Date().toISOString(),
  label: process.env.BENCH_LABEL ?? 'current',
  backend: BACKEND,
  node: process.version,
  analysisThreads: ctx.config.analysisThreads,
  workspaces: WORKSPACES,
  brands: BRANDS,
  aliasesPerBrand: ALIASES,
  aliasLength: ALIAS_LENGTH,
  answersPerWorkspace: ANSWERS,
  apiBrandsPerWorkspace: API_BRANDS,
  loadAverage: { start: loadStart.map(round), end: loadavg().map(round) },
  seconds: round(workSeconds),
  idle,
  rss: { ...procStatus(), maxSampledMb: rssMaxSampled },
  mainHeapUsedMb: mb(process.memoryUsage().heapUsed),
  threads: threadMemory ? await threadMemory() : 'not reported by this version',
  matcherCache: matcherCacheStats.matcherCacheStats?.() ?? 'not reported by this version',
  ingestCallMs: summary(ingestCalls),
  reanalysisJobSeconds: jobSeconds,
  healthzDuringWorkMs: summary(during),
  healthzWorstMs: round(Math.max(...during)),
  healthzFailed: duringProbes.filter((p) => !p.ok).length,
  idleProcessHealthzMeanwhileMs: summary(duringProbes.map((p) => p.idleMs)),
  idleProcessOwnWorstEventLoopDelayMs: idleWorstDelayMs,
  eventLoopStalls: { over50ms: duringStalls.length, worst: worstBy('ms'), worstOnCpu: worstBy('ranMs') },
}
console.log(JSON.stringify(result, null, 2))
mkdirSync('bench/results', { recursive: true })
const file = `bench/results/${result.date.slice(0, 10)}-heavy-tenants-${BACKEND}${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
console.log(`written ${file}`)
await ctx.close()
