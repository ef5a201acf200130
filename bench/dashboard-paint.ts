// The dashboard's weight and speed (issue 14): JavaScript shipped (gzipped KB; all of it and
// what the overview loads) and the time to first meaningful paint of the overview, i.e.
// from navigation start (the sign-in link) to the first chart drawn (visibility by brand,
// from /dashboard), and to the last one (visibility over time, one brand detail per
// brand), in headless chromium on localhost.
//   npm run bench:dashboard                  # demo workspace on in-memory PGlite
//   DATABASE_URL=postgres://… npm run bench:dashboard               # the demo, on that database
//   DATABASE_URL=postgres://… npm run bench:dashboard -- --dataset  # the big workspace of bench/.dataset.json (npm run bench:data)
// Run 1 is cold (the server's answer cache is empty); later runs are warm. Each run is a
// fresh tab with a fresh session. Prints a table and writes
// bench/results/<date>-dashboard-paint-<backend>[-dataset].json.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { launchChromium } from '../test/helpers/chromium.js'
import { percentile, startChildServer } from '../test/faults/helpers/private-services.js'
import { ensureDashboardBuilt } from '../src/web/ensure-built.js'
import { WEB_DIST } from '../src/web/dashboard.js'

const { values } = parseArgs({ options: { dataset: { type: 'boolean', default: false }, runs: { type: 'string', default: '6' } } })
const databaseUrl = process.env.DATABASE_URL || undefined
const backend = databaseUrl?.startsWith('postgres') ? 'postgres' : 'pglite'
const runs = Math.max(2, Number(values.runs))

if (!ensureDashboardBuilt(console.error)) throw new Error('the dashboard could not be built: run npm run build:web')
const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024
const assets = join(WEB_DIST, 'assets')
const allJs = readdirSync(assets).filter((f) => f.endsWith('.js'))
const allJsKb = allJs.reduce((sum, f) => sum + gzipKb(join(assets, f)), 0)
const cssKb = readdirSync(assets)
  .filter((f) => f.endsWith('.css'))
  .reduce((sum, f) => sum + gzipKb(join(assets, f)), 0)

let key: string
let args: string[] = ['--demo']
if (values.dataset) {
  const dataset = JSON.parse(readFileSync('bench/.dataset.json', 'utf8')) as { key: string; backend: string }
  if (dataset.backend !== backend) throw new Error(`bench/.dataset.json was built on ${dataset.backend}; set DATABASE_URL the same way`)
  key = dataset.key
  args = []
}
// No job worker: a shared benchmark database may hold other instances' queued jobs.
const server = await startChildServer(
  { DATABASE_URL: databaseUrl ?? 'memory://', BEACON_DATA_DIR: process.env.BEACON_DATA_DIR || './bench-data', JOBS_WORKER: 'false' },
  args,
  600_000,
)
if (!values.dataset) key = String((server.startup.demo as { key: string }).key)
const browser = await launchChromium()

try {
  const paints: number[] = []
  const complete: number[] = []
  let overviewJs: string[] = []
  for (let run = 0; run < runs; run++) {
    const page = await browser.context.newPage()
    const loaded: string[] = []
    page.on('response', (response) => {
      const url = new URL(response.url())
      if (url.pathname.endsWith('.js')) loaded.push(basename(url.pathname))
    })
    // Stamps the moments the first chart has its data drawn and the trend chart its lines.
    // (Browser code as text: this file is compiled without the DOM library.)
    await page.addInitScript({
      content: `
        new MutationObserver((_, observer) => {
          if (window.__firstChart === undefined && document.querySelector('main .recharts-bar-rectangle, main .recharts-line')) window.__firstChart = performance.now()
          if (window.__allCharts === undefined && document.querySelector('[data-testid="chart-visibility"] .recharts-line')) {
            window.__allCharts = performance.now()
            observer.disconnect()
          }
        }).observe(document, { childList: true, subtree: true })`,
    })
    await page.goto(`${server.url}/#key=${key!}`)
    // A function, not text: the dashboard's CSP forbids eval, which a text predicate needs.
    await page.waitForFunction(() => (globalThis as { __allCharts?: number }).__allCharts !== undefined, undefined, { timeout: 300_000 })
    const [first, all] = await page.evaluate<[number, number]>('[window.__firstChart, window.__allCharts]')
    paints.push(Math.round(first))
    complete.push(Math.round(all))
    if (run === 0) overviewJs = [...new Set(loaded)]
    await page.close()
  }
  const overviewJsKb = overviewJs.reduce((sum, f) => sum + gzipKb(join(assets, f)), 0)
  const warm = paints.slice(1)
  const round1 = (n: number) => Math.round(n * 10) / 10
  const result = {
    date: new Date().toISOString(),
    backend,
    workspace: values.dataset ? 'bench dataset' : 'demo',
    machine: { cpus: cpus().length, model: cpus()[0]?.model },
    javascript_gzip_kb: { all: round1(allJsKb), overview: round1(overviewJsKb), files_all: allJs.length, files_overview: overviewJs.length },
    css_gzip_kb: round1(cssKb),
    first_chart_ms: { cold: paints[0], warm_median: percentile(warm, 50), warm_max: Math.max(...warm), runs: paints },
    all_charts_ms: { cold: complete[0], warm_median: percentile(complete.slice(1), 50), warm_max: Math.max(...complete.slice(1)), runs: complete },
  }
  console.table({
    'JS gzipped (KB)': { all: result.javascript_gzip_kb.all, overview: result.javascript_gzip_kb.overview },
    'first chart (ms)': { cold: result.first_chart_ms.cold, 'warm median': result.first_chart_ms.warm_median },
    'all charts (ms)': { cold: result.all_charts_ms.cold, 'warm median': result.all_charts_ms.warm_median },
  })
  mkdirSync('bench/results', { recursive: true })
  const file = `bench/results/${result.date.slice(0, 10)}-dashboard-paint-${backend}${values.dataset ? '-dataset' : ''}.json`
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`written to ${file}`)
} finally {
  await browser.close()
  await server.stop()
}
