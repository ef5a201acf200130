// Re-analysis as a background job under read load (issue 12): adds a brand while /dashboard
// is read at concurrency 8, and compares read latency with the idle figure.
//   npm run bench:reanalysis                 # demo workspace (about 5,400 answers) on a fresh embedded database
//   npm run bench:reanalysis -- --dataset    # the workspace of bench/.dataset.json (npm run bench:data)
// DATABASE_URL=postgres://… selects PostgreSQL. Prints a table and writes
// bench/results/<date>-reanalysis-<backend>[-dataset].json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { percentile, startChildServer } from '../test/faults/helpers/private-services.js'
import { startIdleYardstick } from './idle-yardstick.js'

const { values } = parseArgs({
  options: { dataset: { type: 'boolean', default: false }, seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '8' } },
})
const databaseUrl = process.env.DATABASE_URL || undefined
const backend = databaseUrl?.startsWith('postgres') ? 'postgres' : 'pglite'
const idleSeconds = Number(values.seconds)
const connections = Number(values.connections)

let key: string
let dataDir: string | undefined
let ownDataDir = false
let serverArgs: string[] = []
if (values.dataset) {
  const dataset = JSON.parse(readFileSync('bench/.dataset.json', 'utf8')) as { key: string; backend: string }
  if (dataset.backend !== backend) throw new Error(`bench/.dataset.json was built on ${dataset.backend}; set DATABASE_URL the same way`)
  key = dataset.key
  dataDir = process.env.BEACON_DATA_DIR || './bench-data'
} else {
  // The demo on a fresh embedded database (or the PostgreSQL database given), built by serve --demo.
  serverArgs = ['--demo']
  if (!databaseUrl) {
    dataDir = mkdtempSync(join(tmpdir(), 'beacon-bench-reanalysis-'))
    ownDataDir = true
  }
  key = ''
}

const yardstick = await startIdleYardstick()
const server = await startChildServer({ ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { BEACON_DATA_DIR: dataDir! }), JOBS_POLL_SECONDS: '1' }, serverArgs, 300_000)
if (!values.dataset) key = String((server.startup.demo as { key: string }).key)
const base = server.url
const auth = { authorization: `Bearer ${key}` }
// Computing each answer, as the other benchmarks measure: the answer cache would hide the load.
const readHeaders = { ...auth, 'cache-control': 'no-cache' }

function read(seconds: number) {
  return autocannon({ url: `${base}/api/v1/dashboard`, headers: readHeaders, connections, duration: seconds })
}

/** Reads until stopped: the instance (to stop) and its result. */
function readUntilStopped() {
  let instance: autocannon.Instance | undefined
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url: `${base}/api/v1/dashboard`, headers: readHeaders, connections, duration: 3600 }, (error, done) => (error ? reject(error) : resolve(done)))
  })
  return { stop: () => instance?.stop(), result }
}

interface Job {
  state: string
  progress: { done: number; total: number }
  started_at: string | null
  finished_at: string | null
  result: { responses: number; observations: number; seconds: number } | null
}

try {
  // Warm-up, then the idle figure.
  await autocannon({ url: `${base}/api/v1/dashboard`, headers: readHeaders, connections, amount: 50 })
  const idle = await read(idleSeconds)

  // The same reads while a brand is added and its re-analysis job runs.
  const during = readUntilStopped()
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const writeStarted = performance.now()
  const created = await fetch(`${base}/api/v1/brands`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Benchmark Brand ${Date.now()}`, aliases: ['kanban'] }),
  })
  const writeMs = performance.now() - writeStarted
  const createdBody = (await created.json()) as { job?: { id: string } }
  if (created.status !== 201 || !createdBody.job) throw new Error(`brand write: HTTP ${created.status} ${JSON.stringify(createdBody)}`)
  const jobId = createdBody.job.id
  // /healthz touches no database: its latency shows how long the event loop goes without a tick.
  // The same probe of an idle process (bench/idle-yardstick.ts): the machine's own stalls.
  const healthz: number[] = []
  const idleHealthz: number[] = []
  let healthzFailures = 0
  let probing = true
  const timed = async (url: string, into: number[]) => {
    const t = performance.now()
    try {
      await (await fetch(url)).arrayBuffer()
    } catch {
      // A stall long enough for the server to drop the connection: counted, and its time kept.
      if (into === healthz) healthzFailures++
    }
    into.push(performance.now() - t)
  }
  await yardstick.worstDelayMs()
  const probe = (async () => {
    while (probing) {
      await Promise.all([timed(`${base}/healthz`, healthz), timed(`${yardstick.url}/healthz`, idleHealthz)])
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  let job: Job
  const progressSeen = new Set<number>()
  let pollFailures = 0
  for (;;) {
    try {
      job = ((await (await fetch(`${base}/api/v1/jobs/${jobId}`, { headers: auth })).json()) as { data: Job }).data
    } catch (error) {
      // A kept-alive socket the stalled server dropped: ask again, but not forever.
      if (++pollFailures > 20) throw new Error(`GET /jobs/${jobId} keeps failing (${String(error)}); server log:\n${server.stderr().slice(-2000)}`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, 1000))
      continue
    }
    progressSeen.add(job.progress.done)
    if (job.state !== 'queued' && job.state !== 'running') break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  during.stop()
  probing = false
  await probe
  const idleWorstDelayMs = await yardstick.worstDelayMs()
  const busy = await during.result
  if (job.state !== 'succeeded' || !job.result) throw new Error(`job ended ${job.state}`)
  const jobSeconds = (new Date(job.finished_at!).getTime() - new Date(job.started_at!).getTime()) / 1000

  const result = {
    date: new Date().toISOString(),
    backend,
    workspace: values.dataset ? 'bench dataset' : 'demo',
    machine: { cpus: cpus().length, model: cpus()[0]?.model },
    connections,
    idle: { p50_ms: idle.latency.p50, p99_ms: idle.latency.p99, max_ms: idle.latency.max, requests_per_s: idle.requests.average, errors: idle.errors + idle.non2xx },
    during_reanalysis: { p50_ms: busy.latency.p50, p99_ms: busy.latency.p99, max_ms: busy.latency.max, requests_per_s: busy.requests.average, errors: busy.errors + busy.non2xx },
    p99_ratio: Math.round((busy.latency.p99 / idle.latency.p99) * 100) / 100,
    healthz_during_reanalysis: { max_ms: Math.round(Math.max(...healthz)), p99_ms: Math.round(percentile(healthz, 99)), samples: healthz.length, failures: healthzFailures },
    idle_process_healthz_meanwhile: {
      max_ms: Math.round(Math.max(...idleHealthz)),
      p99_ms: Math.round(percentile(idleHealthz, 99)),
      own_worst_event_loop_delay_ms: idleWorstDelayMs,
    },
    brand_write_ms: Math.round(writeMs),
    job: {
      responses: job.result.responses,
      observations: job.result.observations,
      seconds: jobSeconds,
      responses_per_s: Math.round(job.result.responses / jobSeconds),
      items_per_s: Math.round((job.result.responses + job.result.observations) / jobSeconds),
      progress_values_seen: progressSeen.size,
    },
  }
  console.table({
    idle: { p50: result.idle.p50_ms, p99: result.idle.p99_ms, max: result.idle.max_ms, 'req/s': result.idle.requests_per_s },
    'during re-analysis': {
      p50: result.during_reanalysis.p50_ms,
      p99: result.during_reanalysis.p99_ms,
      max: result.during_reanalysis.max_ms,
      'req/s': result.during_reanalysis.requests_per_s,
    },
  })
  console.log(
    `p99 during / idle: ${result.p99_ratio}× (goal ≤ 2×); brand write answered in ${result.brand_write_ms} ms; ` +
      `job: ${result.job.responses} responses + ${result.job.observations} AI overviews in ${jobSeconds.toFixed(1)} s ` +
      `(${result.job.responses_per_s} responses/s), ${result.job.progress_values_seen} progress values seen; ` +
      `/healthz during the job: max ${result.healthz_during_reanalysis.max_ms} ms (event-loop stalls), ${healthzFailures} failed; ` +
      `an idle process meanwhile (the machine's own stalls): /healthz max ${result.idle_process_healthz_meanwhile.max_ms} ms, its own worst event-loop delay ${idleWorstDelayMs} ms`,
  )
  mkdirSync('bench/results', { recursive: true })
  const file = `bench/results/${result.date.slice(0, 10)}-reanalysis-${backend}${values.dataset ? '-dataset' : ''}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`written to ${file}`)
} finally {
  await yardstick.stop()
  await server.stop()
  if (ownDataDir && dataDir) rmSync(dataDir, { recursive: true, force: true })
}
