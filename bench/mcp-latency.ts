// MCP tool-call latency against the HTTP route it wraps (issue 15, "Measure and report").
// The app listens on a random port over the demo workspace; the SDK's client calls the
// tool over Streamable HTTP, fetch calls the route, both over loopback. Each pair is timed
// with the response cache answering (cached) and bypassed with `Cache-Control: no-cache`
// (computed), alternating tool and route so both see the same machine load.
//   npm run bench:mcp [-- --samples 200]
// DATABASE_URL=postgres://… uses that database (a scratch one: the demo workspace is written
// to it); unset, an in-memory PGlite. Writes bench/results/mcp-latency-<date>-<backend>.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import { refreshPlannerStatistics } from '../src/db/dialect.js'
import { addDays, todayUtc } from '../src/core/date-range.js'
import { seedDemo } from '../src/demo/seed-demo.js'

const { values } = parseArgs({ options: { samples: { type: 'string', default: '200' } } })
const SAMPLES = Number(values.samples)
const WARM_UP = 20

const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'memory://'
const backend = databaseUrl.startsWith('postgres') ? 'postgres' : 'pglite'
const config = { ...loadConfig(), databaseUrl, jobsWorker: false, rateLimitPerMinute: 1_000_000, logLevel: 'silent' as const }
const database = await openDatabase(config)
await migrateToLatest(database.db)
console.log('seeding the demo workspace…')
const demo = await seedDemo(database.db)
await refreshPlannerStatistics(database)
const app = await buildApp({ config, database, logger: false })
const base = await app.listen({ host: '127.0.0.1', port: 0 })

const end = todayUtc()
const start = addDays(end, -29)
const brandId = ((await (await fetch(`${base}/api/v1/brands`, { headers: { authorization: `Bearer ${demo.key}` } })).json()) as { data: { competitors: { id: string }[] } }).data
  .competitors[0].id
const cases = [
  { tool: 'get_dashboard', args: { start_date: start, end_date: end }, path: `/api/v1/dashboard?start_date=${start}&end_date=${end}` },
  { tool: 'get_brand', args: { brand_id: brandId, start_date: start, end_date: end }, path: `/api/v1/brands/${brandId}?start_date=${start}&end_date=${end}` },
]

const connect = async (fresh: boolean) => {
  const client = new Client({ name: 'bench', version: '1.0.0' })
  const headers: Record<string, string> = { authorization: `Bearer ${demo.key}`, ...(fresh ? { 'cache-control': 'no-cache' } : {}) }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
  return client
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const round = (v: number) => Math.round(v * 100) / 100
  return { p50_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), samples: sorted.length }
}

const results: Record<string, unknown>[] = []
for (const mode of ['cached', 'computed'] as const) {
  const fresh = mode === 'computed'
  const client = await connect(fresh)
  const headers = { authorization: `Bearer ${demo.key}`, ...(fresh ? { 'cache-control': 'no-cache' } : {}) }
  for (const c of cases) {
    const tool: number[] = []
    const route: number[] = []
    for (let i = 0; i < WARM_UP + SAMPLES; i++) {
      let t = performance.now()
      const result = await client.callTool({ name: c.tool, arguments: c.args })
      const toolMs = performance.now() - t
      if (result.isError) throw new Error(`${c.tool}: ${JSON.stringify(result.content)}`)
      t = performance.now()
      const response = await fetch(`${base}${c.path}`, { headers })
      await response.arrayBuffer()
      const routeMs = performance.now() - t
      if (!response.ok) throw new Error(`${c.path}: HTTP ${response.status}`)
      if (i >= WARM_UP) {
        tool.push(toolMs)
        route.push(routeMs)
      }
    }
    const row = { mode, tool: c.tool, route: `GET ${c.path.split('?')[0]}`, mcp: summary(tool), http: summary(route) }
    results.push({ ...row, overhead_p50_ms: Math.round((row.mcp.p50_ms - row.http.p50_ms) * 100) / 100 })
    console.log(`${mode.padEnd(8)} ${c.tool.padEnd(14)} MCP p50 ${row.mcp.p50_ms} ms p95 ${row.mcp.p95_ms} ms | HTTP p50 ${row.http.p50_ms} ms p95 ${row.http.p95_ms} ms`)
  }
  await client.close()
}

await app.close()
await database.close()
mkdirSync('bench/results', { recursive: true })
const file = `bench/results/mcp-latency-${end}-${backend}.json`
writeFileSync(
  file,
  `${JSON.stringify({ benchmark: 'mcp-latency', date: new Date().toISOString(), backend, node: process.version, cpus: cpus().length, demo_responses: demo.responses, samples: SAMPLES, results }, null, 2)}\n`,
)
console.log(`wrote ${file}`)
