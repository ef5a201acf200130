// Export throughput: the chat-responses export over HTTP against PostgreSQL's own COPY of
// the same query, on the same data in the same run, plus the server's peak memory.
//   npx tsx bench/export-throughput.ts [--responses 200000] [--runs 2] [--keep]
// Target: DATABASE_URL or postgres://postgres@127.0.0.1:5432/beacon_test, in a schema of
// its own (dropped at the end unless --keep). The server runs in a child process so its
// memory is measured alone (VmRSS from /proc, sampled every 10 ms). COPY runs through
// psql's \copy with stdout counted by this process. Results: bench/results/<date>-export.json.
//
//   DATABASE_URL=… npx tsx bench/export-throughput.ts --dataset bench/.dataset-1m.json [--runs 5] [--load-seconds 15] [--curl]
// The year's chat-responses file of a `npm run bench:data` dataset, as issue 32 measures it:
// the real server (bin/beacon.js, run `npm run build` first) after a load test of
// /dashboard (computed, then cached, as bench/run.ts does), then --runs exports, each between
// two yardstick COPYs of the same rows (bench/export-yardstick.ts), one just before and one
// just after. Per run: rows/s of both, their ratio (to the two COPYs' mean), the server's
// peak RSS growth (sampled every 10 ms) and the CPU seconds the server and this client spent. Results: bench/results/<date>-export-dataset.json.
import { fork, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { loadavg } from 'node:os'
import autocannon from 'autocannon'
import { sql } from 'kysely'
import pg from 'pg'
import { createApiKey } from '../src/admin/api-key-store.js'
import { createWorkspace } from '../src/admin/workspaces.js'
import { buildApp } from '../src/app.js'
import { SCOPES } from '../src/auth/scopes.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type DatabaseHandle } from '../src/db/database.js'
import { newId } from '../src/db/ids.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { chatResponsesExport } from '../src/exports/definitions/chat-responses.js'
import { resolveExportFilters } from '../src/exports/export-filters.js'
import { addDays } from '../src/core/date-range.js'
import { percentile, processRss, startChildServer } from '../test/faults/helpers/private-services.js'
import { runYardstickCopy, yardstickCopySql } from './export-yardstick.js'

const { values } = parseArgs({
  options: {
    responses: { type: 'string', default: '200000' },
    runs: { type: 'string' },
    keep: { type: 'boolean', default: false },
    serve: { type: 'string' },
    dataset: { type: 'string' },
    'load-seconds': { type: 'string', default: '15' },
    // The file read by curl piped to wc -c, as the yardstick is read by psql piped to wc -c:
    // Node's HTTP client spent about 1.5 s of CPU per file on the same two cores.
    curl: { type: 'boolean', default: false },
  },
})
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/beacon_test'
const DAYS = 90
const FROM = '2026-01-01'
const TO = '2026-03-31'

/** Child process: the real app on a real port, nothing else in its memory. */
async function serve(schema: string): Promise<void> {
  const config = { ...loadConfig({}), databaseUrl: DATABASE_URL, logLevel: 'warn', exportQuotaPerHour: 1000, rateLimitPerMinute: 100_000 }
  const database = await openDatabase(config, { searchPath: schema })
  const app = await buildApp({ config, database, logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  process.send!({ port: (app.server.address() as AddressInfo).port })
  process.on('message', async () => {
    await app.close()
    await database.close()
    process.exit(0)
  })
}

async function main(): Promise<void> {
  const total = Number(values.responses)
  const runs = Number(values.runs ?? 2)
  if (!Number.isInteger(total) || total < 1) throw new Error('--responses must be a positive whole number')
  const schema = `bench_export_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const config = { ...loadConfig({}), databaseUrl: DATABASE_URL }
  const database = await openDatabase(config, { searchPath: schema })
  let child: ReturnType<typeof fork> | undefined
  try {
    await migrateToLatest(database.db)
    const started = performance.now()
    const { workspaceId, key, mentions } = await buildData(database, total)
    const buildSeconds = (performance.now() - started) / 1000
    console.log(`built ${total.toLocaleString('en')} responses and ${mentions.toLocaleString('en')} mentions in ${buildSeconds.toFixed(1)} s (schema ${schema})`)

    child = fork(process.argv[1], ['--serve', schema], { execArgv: process.execArgv, stdio: 'inherit' })
    const port = await new Promise<number>((resolve, reject) => {
      child!.once('message', (message: { port: number }) => resolve(message.port))
      child!.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    })
    const base = `http://127.0.0.1:${port}`
    const query = `date_from=${FROM}&date_to=${TO}`

    const stats = await getJson(`${base}/api/v1/exports/chat-responses/statistics?${query}`, key)
    // Warm-up: JIT, connection, and the table in shared buffers for both contenders.
    await download(`${base}/api/v1/exports/chat-responses?date_from=${FROM}&date_to=${FROM}`, key)
    const copySql = await equivalentCopyQuery(database, workspaceId)
    await copyToStdout(copySql, schema)

    const exportRuns: Measure[] = []
    const copyRuns: Measure[] = []
    let peakRssGrowthMb = 0
    for (let run = 0; run < runs; run++) {
      const baseline = rssMb(child.pid!)
      let peak = baseline
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child!.pid!))), 10)
      try {
        exportRuns.push(await download(`${base}/api/v1/exports/chat-responses?${query}`, key))
      } finally {
        clearInterval(sampler)
      }
      peakRssGrowthMb = Math.max(peakRssGrowthMb, peak - baseline)
      copyRuns.push(await copyToStdout(copySql, schema))
    }

    const rows = stats.data.total_rows as number
    const exportBest = best(exportRuns)
    const copyBest = best(copyRuns)
    const result = {
      date: new Date().toISOString(),
      responses: total,
      rows,
      mentions,
      node: process.version,
      postgres: (await admin.query('show server_version')).rows[0].server_version,
      export_http: summarize(exportBest, rows),
      copy_csv: summarize(copyBest, rows),
      throughput_ratio: Number((copyBest.seconds / exportBest.seconds).toFixed(3)),
      server_peak_rss_growth_mb: Number(peakRssGrowthMb.toFixed(1)),
      statistics_estimate_error: Number(((stats.data.estimated_size_mb * 1e6) / exportBest.bytes - 1).toFixed(4)),
      runs: { export_seconds: exportRuns.map((r) => r.seconds), copy_seconds: copyRuns.map((r) => r.seconds) },
      build_seconds: Number(buildSeconds.toFixed(1)),
    }
    printTable(result)
    mkdirSync('bench/results', { recursive: true })
    const file = `bench/results/${result.date.slice(0, 10)}-export.json`
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
    console.log(`written ${file}`)
  } finally {
    if (child && child.exitCode === null) {
      child.send('stop')
      await new Promise((resolve) => child!.once('exit', resolve))
    }
    await database.close()
    if (!values.keep) await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  }
}

interface Measure {
  seconds: number
  bytes: number
}

const best = (runs: Measure[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a))

function summarize(measure: Measure, rows: number) {
  return {
    seconds: Number(measure.seconds.toFixed(3)),
    mb: Number((measure.bytes / 1e6).toFixed(1)),
    rows_per_second: Math.round(rows / measure.seconds),
    mb_per_second: Number((measure.bytes / 1e6 / measure.seconds).toFixed(1)),
  }
}

function printTable(result: {
  rows: number
  export_http: ReturnType<typeof summarize>
  copy_csv: ReturnType<typeof summarize>
  throughput_ratio: number
  server_peak_rss_growth_mb: number
  statistics_estimate_error: number
}): void {
  const line = (name: string, m: ReturnType<typeof summarize>) =>
    `${name.padEnd(26)}${String(m.seconds).padStart(9)}${String(m.mb).padStart(9)}${m.rows_per_second.toLocaleString('en').padStart(12)}${String(m.mb_per_second).padStart(9)}`
  console.log(`\n${'chat-responses, ' + result.rows.toLocaleString('en') + ' rows'}`)
  console.log(`${''.padEnd(26)}${'seconds'.padStart(9)}${'MB'.padStart(9)}${'rows/s'.padStart(12)}${'MB/s'.padStart(9)}`)
  console.log(line('export over HTTP', result.export_http))
  console.log(line('COPY ... TO STDOUT CSV', result.copy_csv))
  console.log(`export / COPY throughput: ${result.throughput_ratio}`)
  console.log(`server peak RSS growth: ${result.server_peak_rss_growth_mb} MB`)
  console.log(`statistics size estimate error: ${(result.statistics_estimate_error * 100).toFixed(1)} %\n`)
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : 0
}

function getJson(url: string, key: string): Promise<{ data: { total_rows: number; estimated_size_mb: number } }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${response.statusCode} ${body}`))))
      })
      .on('error', reject)
  })
}

function download(url: string, key: string): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let bytes = 0
    http
      .get(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`))
        response.on('data', (chunk: Buffer) => (bytes += chunk.length))
        response.on('end', () => resolve({ seconds: (performance.now() - started) / 1000, bytes }))
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

/** The export's own cursor query, with its parameters written in as literals for psql. */
async function equivalentCopyQuery(database: DatabaseHandle, workspaceId: string, from = FROM, to = TO): Promise<string> {
  const filters = resolveExportFilters({ date_from: from, date_to: to })
  const { sql: text, parameters } = chatResponsesExport.source(database.db, workspaceId, filters).all()
  const literal = (value: unknown) => {
    const raw = value instanceof Date ? value.toISOString() : Array.isArray(value) ? `{${value.join(',')}}` : String(value)
    return `'${raw.replace(/'/g, "''")}'`
  }
  // Its -- comments go first: on one line they would swallow the rest of the query.
  return text
    .replace(/--[^\n]*/g, '')
    .replace(/\$(\d+)/g, (_, n) => literal(parameters[Number(n) - 1]))
    .replace(/\s+/g, ' ')
}

function copyToStdout(query: string, schema: string): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let bytes = 0
    const psql = spawn('psql', [DATABASE_URL, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${query}) to stdout with csv header`], {
      env: { ...process.env, PGOPTIONS: `-c search_path=${schema}` },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    psql.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length))
    psql.on('error', reject)
    psql.on('close', (code) => (code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, bytes }) : reject(new Error(`psql exited with ${code}`))))
  })
}

// Deterministic pseudo-random numbers so runs are comparable.
function rng(seed: number) {
  let state = seed
  return (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state % n
  }
}

/**
 * N responses spread over 90 days, 8 models, 50 prompts, ~1.5 KB markdown answers (commas,
 * quotes, line breaks, so most cells are quoted), ~3 mentions each; inserted with
 * set-based SQL from a table of 500 generated answers, not through analysis.
 */
async function buildData(database: DatabaseHandle, total: number): Promise<{ workspaceId: string; key: string; mentions: number }> {
  const db = database.db
  const workspace = await createWorkspace(db, { name: 'Export bench', tier: 'premium' })
  const { key } = await createApiKey(db, { workspaceId: workspace.id, scopes: [...SCOPES] })
  const ws = workspace.id
  const models = [
    ['openai', 'gpt-4o'],
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-sonnet-4'],
    ['anthropic', 'claude-haiku-4'],
    ['google', 'gemini-2.5-pro'],
    ['google', 'gemini-2.5-flash'],
    ['perplexity', 'sonar'],
    ['perplexity', 'sonar-pro'],
  ]
  await db
    .insertInto('model')
    .values(models.map(([provider, id]) => ({ workspace_id: ws, id, provider, name: id })))
    .execute()
  const brands = ['Tasklane', 'Kanbrio', 'Sprintwell', 'Vantro', 'Hivepath', 'Boardnook', 'Flowmint', 'Planwright', 'Trackory', 'Cardella', 'Roadlyn', 'Quillo']
  await db
    .insertInto('brand')
    .values(brands.map((name, i) => ({ workspace_id: ws, id: newId(), name, domain: `${name.toLowerCase()}.com`, is_primary: i === 0, updated_at: new Date() })))
    .execute()
  const tags = ['comparison', 'pricing', 'enterprise', 'smb', 'integrations']
  await db
    .insertInto('prompt')
    .values(
      Array.from({ length: 50 }, (_, i) => ({
        workspace_id: ws,
        id: newId(),
        text: `Prompt ${i + 1}: which project tool is best for "team ${i}", and why?`,
        tags: [tags[i % 5]],
        updated_at: new Date(),
      })),
    )
    .execute()

  const random = rng(42)
  const words = ['the', 'team', 'tool', 'board', 'pricing', 'integrations', 'is', 'great', 'slow', 'reliable', 'for', 'small', 'teams', 'with', 'a', 'clean', 'interface']
  const answers = Array.from({ length: 500 }, () => {
    const lines = ['## Best project management tools', '']
    while (lines.join('\n').length < 1500) {
      const brand = brands[random(brands.length)]
      const sentence = Array.from({ length: 12 + random(10) }, () => words[random(words.length)]).join(' ')
      lines.push(`- **${brand}**: ${sentence}, says "${words[random(words.length)]}" (see https://www.${brand.toLowerCase()}.com/pricing?utm_source=ai).`)
    }
    return lines.join('\n')
  })
  await sql`create temporary table bench_answer (n integer primary key, body text not null)`.execute(db)
  await sql`insert into bench_answer (n, body) select n - 1, body from unnest(${answers}::text[]) with ordinality as a(body, n)`.execute(db)

  const step = (DAYS * 86_400) / total
  await sql`
    insert into response (workspace_id, id, prompt_id, provider, model, content, created_at, sentiment)
    select ${ws}, gen_random_uuid(), p.id, m.provider, m.id, 'Answer ' || i || E'\n' || a.body,
      ${`${FROM}T00:00:00Z`}::timestamptz + make_interval(secs => i * ${step}::double precision),
      ((i * 37) % 2001 - 1000) / 1000.0
    from generate_series(0, ${total - 1}) as i
    join bench_answer a on a.n = i % 500
    join (select id, row_number() over (order by id) - 1 as k from prompt where workspace_id = ${ws}) p on p.k = i % 50
    join (select id, provider, row_number() over (order by id) - 1 as k from model where workspace_id = ${ws}) m on m.k = i % 8`.execute(db)
  const inserted = await sql`
    insert into mention (workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position, sentiment)
    select r.workspace_id, r.id, b.id, r.prompt_id, r.provider, r.model, r.created_at, 1 + abs(hashtext(r.id::text || b.id::text)) % 3,
      row_number() over (partition by r.id order by hashtext(b.id::text || r.id::text)), 0.25
    from response r
    join brand b on b.workspace_id = r.workspace_id and abs(hashtext(r.id::text || b.id::text)) % 4 = 0
    where r.workspace_id = ${ws}`.execute(db)
  await sql`analyze`.execute(db)
  return { workspaceId: ws, key, mentions: Number(inserted.numAffectedRows ?? 0) }
}

/** --dataset: the year's file of a bench:data dataset after a load test, beside the yardstick. */
async function datasetMain(file: string): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl?.startsWith('postgres')) throw new Error('--dataset needs DATABASE_URL: the PostgreSQL database the dataset was built in')
  const dataset = JSON.parse(readFileSync(file, 'utf8')) as { key: string; workspace_id: string; end_day: string; backend: string; main: { responses: number } }
  if (dataset.backend !== 'postgres') throw new Error(`${file} was built on ${dataset.backend}, not PostgreSQL`)
  const runs = Number(values.runs ?? 5)
  const loadSeconds = Number(values['load-seconds'])
  const end = dataset.end_day
  const start = addDays(end, -364)
  const server = await startChildServer({ DATABASE_URL: databaseUrl, EXPORT_QUOTA_PER_HOUR: '100000', RATE_LIMIT_PER_MINUTE: '1000000', DATABASE_POOL_SIZE: '16' }, [], 300_000)
  const auth = { authorization: `Bearer ${dataset.key}` }
  const loadAtStart = loadavg()[0]
  try {
    const statistics = await getJson(`${server.url}/api/v1/exports/chat-responses/statistics?date_from=${start}&date_to=${end}`, dataset.key)
    const rows = statistics.data.total_rows
    if (loadSeconds > 0) {
      // As bench/run.ts: V8 sizes its heap for this load, which is when an export's
      // garbage used to reach the old generation.
      const dashboard = `${server.url}/api/v1/dashboard`
      await autocannon({ url: dashboard, headers: { ...auth, 'cache-control': 'no-cache' }, connections: 16, duration: loadSeconds })
      await autocannon({ url: dashboard, headers: auth, connections: 16, duration: loadSeconds })
    }
    const copySql = yardstickCopySql(dataset.workspace_id, start, end)
    // A stricter yardstick beside it: COPY of the export's own file query (the merge join of
    // chat-responses.ts), without the export's cell formatting, HTTP and Node. The export
    // can only approach it; the first yardstick is the plain query a DBA would write.
    const ownDatabase = await openDatabase({ ...loadConfig({}), databaseUrl })
    const ownCopySql = `copy (${await equivalentCopyQuery(ownDatabase, dataset.workspace_id, start, end).finally(() => ownDatabase.close())}) to stdout with csv header`
    const results: Record<string, number>[] = []
    for (let run = 0; run < runs; run++) {
      // The yardstick runs just before and just after the export and the export is compared
      // with their mean: on two cores shared with other work, one COPY after the export put
      // the ratio anywhere from 0.77 to 1.80 in five runs of the same code, as the load
      // around it came and went. Bracketing cancels a load that rises or falls across the run.
      const copyBefore = runYardstickCopy(databaseUrl, copySql)
      const rssBefore = processRss(server.pid)
      let peak = rssBefore
      const sampler = setInterval(() => (peak = Math.max(peak, processRss(server.pid))), 10)
      const serverCpuBefore = processCpuSeconds(server.pid)
      const clientCpuBefore = process.cpuUsage()
      let measure: Measure
      try {
        const url = `${server.url}/api/v1/exports/chat-responses?date_from=${start}&date_to=${end}`
        measure = values.curl ? await curlDownload(url, dataset.key) : await download(url, dataset.key)
      } finally {
        clearInterval(sampler)
      }
      const clientCpu = process.cpuUsage(clientCpuBefore)
      const serverCpuAfter = processCpuSeconds(server.pid)
      // The kernel's share is mostly the socket reads and writes of the file's bytes.
      const serverCpu = { user: serverCpuAfter.user - serverCpuBefore.user, system: serverCpuAfter.system - serverCpuBefore.system }
      const copyAfter = runYardstickCopy(databaseUrl, copySql)
      const copy = { seconds: (copyBefore.seconds + copyAfter.seconds) / 2 }
      const ownCopy = runYardstickCopy(databaseUrl, ownCopySql)
      const result = {
        run: run + 1,
        rows,
        export_seconds: round(measure.seconds, 2),
        export_mb: round(measure.bytes / 1e6, 1),
        export_rows_per_second: Math.round(rows / measure.seconds),
        copy_seconds_before: round(copyBefore.seconds, 2),
        copy_seconds_after: round(copyAfter.seconds, 2),
        copy_seconds: round(copy.seconds, 2),
        copy_rows_per_second: Math.round(rows / copy.seconds),
        ratio_to_copy: round(copy.seconds / measure.seconds, 2),
        own_query_copy_seconds: round(ownCopy.seconds, 2),
        ratio_to_own_query_copy: round(ownCopy.seconds / measure.seconds, 2),
        server_rss_growth_mb: Math.round((peak - rssBefore) / 1e6),
        server_cpu_seconds: round(serverCpu.user + serverCpu.system, 2),
        server_cpu_user_seconds: round(serverCpu.user, 2),
        server_cpu_system_seconds: round(serverCpu.system, 2),
        client_cpu_seconds: round((clientCpu.user + clientCpu.system) / 1e6, 2),
        load_average: round(loadavg()[0], 1),
      }
      results.push(result)
      console.log(JSON.stringify(result))
    }
    const ratios = results.map((r) => r.ratio_to_copy)
    const ownRatios = results.map((r) => r.ratio_to_own_query_copy)
    const growth = results.map((r) => r.server_rss_growth_mb)
    const summary = {
      date: new Date().toISOString(),
      dataset: file,
      responses: dataset.main.responses,
      rows,
      range: { from: start, to: end },
      load_seconds: loadSeconds,
      load_average: { start: round(loadAtStart, 1), end: round(loadavg()[0], 1) },
      ratio_to_copy: { min: Math.min(...ratios), median: percentile(ratios, 50), max: Math.max(...ratios) },
      ratio_to_own_query_copy: { min: Math.min(...ownRatios), median: percentile(ownRatios, 50), max: Math.max(...ownRatios) },
      server_rss_growth_mb: { max: Math.max(...growth), runs: growth },
      runs: results,
    }
    console.log(
      `chat-responses ${start}..${end}, ${rows.toLocaleString('en')} rows, ${runs} runs after ${loadSeconds} s + ${loadSeconds} s of /dashboard load: ` +
        `export / COPY ${ratios.join(', ')} (median ${summary.ratio_to_copy.median}); ` +
        `export / COPY of its own query ${ownRatios.join(', ')} (median ${summary.ratio_to_own_query_copy.median}); server RSS growth ${growth.join(', ')} MB`,
    )
    mkdirSync('bench/results', { recursive: true })
    const out = `bench/results/${summary.date.slice(0, 10)}-export-dataset.json`
    writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`)
    console.log(`written ${out}`)
  } finally {
    await server.stop()
  }
}

/** The export through curl, its bytes counted by wc -c (the key travels in curl's environment, not its arguments). */
function curlDownload(url: string, key: string): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const shell = spawn('bash', ['-c', `set -o pipefail; curl -sS --fail -H "authorization: Bearer $EXPORT_KEY" "$EXPORT_URL" | wc -c`], {
      env: { ...process.env, EXPORT_KEY: key, EXPORT_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    shell.on('error', reject)
    shell.on('close', (code) =>
      code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, bytes: Number(out.trim()) }) : reject(new Error(`curl exited with ${code}`)),
    )
  })
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals

/** CPU seconds a process has used, in user space and in the kernel, from /proc/<pid>/stat. */
function processCpuSeconds(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }
}

if (values.serve) await serve(values.serve)
else if (values.dataset) await datasetMain(values.dataset)
else await main()
