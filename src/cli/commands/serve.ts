// The server and the database layer load when a command runs, so `beacon --help` stays quick.
import type { Command } from 'commander'
import { loadConfig } from '../../config.js'
import { withDatabase } from '../context.js'
import type { DatabaseHandle } from '../../db/database.js'
import { DemoProgress } from '../../demo/demo-progress.js'
import { createOutput, UsageError, type Output } from '../output.js'
import { demoLines } from './data.js'

export interface ServeOptions {
  port?: string
  host?: string
  demo?: boolean
  json?: boolean
}

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP service (migrates the database first)')
    .option('--port <port>', 'port to listen on (default: PORT or 3000)')
    .option('--host <host>', 'interface to bind (default: HOST or 127.0.0.1)')
    .option('--demo', 'create or refresh the demo workspace (after listening) and print a key to try')
    .option('--json', 'machine-readable start-up line (with --demo: printed once the demo is complete)')
    .action(async (options: ServeOptions) => {
      const out = createOutput(Boolean(options.json))
      const config = loadConfig()
      if (options.port !== undefined) {
        if (!/^\d+$/.test(options.port) || Number(options.port) > 65535) throw new UsageError('--port must be a number from 0 to 65535')
        config.port = Number(options.port)
      }
      if (options.host !== undefined) config.host = options.host
      const [{ closeOnSignals, startServer }, { ensureDashboardBuilt }] = await Promise.all([import('../../server.js'), import('../../web/ensure-built.js')])
      ensureDashboardBuilt(out.info)
      // The demo is built after the server listens (docs/dashboard.md): the dashboard opens
      // at once and fills in as the answers are stored, with a banner saying how far it is.
      const demo = options.demo ? new DemoProgress() : undefined
      // The demo's modules load while the database opens: evaluated after listening they held
      // the first requests for up to 0.7 s on 2 busy cores (issue 32 item 5). A failure is
      // reported by buildDemo, like any other.
      const demoModules = demo ? loadDemoModules() : undefined
      demoModules?.catch(() => {})
      const server = await startServer(config, { demo })
      closeOnSignals(server, out.info)
      const started = { url: server.url, backend: config.databaseUrl?.startsWith('postgres') ? 'postgres' : 'pglite' }
      const listening = `Beacon listening on ${server.url}  (API docs: ${server.url}/docs)`
      if (!demo) return out.result(started, listening)
      if (!out.json) out.result(started, [listening, 'Building the demo workspace; the dashboard shows it as it arrives…'])
      try {
        const result = await buildDemo(await demoModules!, server.database, demo, out, config.analysisThreads, (key) => {
          if (!out.json) out.result(null, [`Demo API key (all scopes, premium): ${key}`, `Dashboard: ${server.url}/#key=${key}`])
        })
        demo.ready()
        // One JSON document, once the demo is complete: scripts and tests read the key and counts from it.
        out.result({ ...started, demo: result }, demoLines(result, server.url).slice(0, 1))
      } catch (error) {
        demo.failed()
        const message = error instanceof Error ? error.message : String(error)
        out.info(`building the demo failed (the server keeps running): ${message}`)
        if (out.json) out.result({ ...started, demo: { error: message } }, [])
      }
    })

  program
    .command('migrate')
    .description('apply database migrations and exit')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const { migrateToLatest } = await import('../../db/migrate.js')
      const report = await withDatabase(async (database) => migrateToLatest(database.db), { migrate: false })
      out.result(report, report.applied.length ? [`Applied ${report.applied.length} migration(s):`, ...report.applied.map((m) => `  ${m}`)] : 'Database is up to date')
    })
}

const loadDemoModules = () => Promise.all([import('../../demo/seed-demo.js'), import('../../analysis/analysis-pool.js'), import('../../db/database.js')])

/** Seeds the demo through the real ingest path, reporting progress to the banner and, every few seconds, the terminal. */
async function buildDemo(
  [{ seedDemo }, { sharedAnalysisPool }, { backgroundWriteBatch }]: Awaited<ReturnType<typeof loadDemoModules>>,
  database: DatabaseHandle,
  progress: DemoProgress,
  out: Output,
  analysisThreads: number,
  onKey: (key: string) => void,
) {
  let lastLine = 0
  return seedDemo(database.db, {
    pool: sharedAnalysisPool(analysisThreads),
    batchSize: backgroundWriteBatch(database.backend),
    onKey,
    onProgress: (done, total) => {
      progress.update(done, total)
      if (Date.now() - lastLine > 2_000 || done === total) {
        lastLine = Date.now()
        out.info(`demo: ${done}/${total} answers and AI overviews stored`)
      }
    },
  })
}
