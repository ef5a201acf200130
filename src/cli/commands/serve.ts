// The server and the database layer load when a command runs, so `beacon --help` stays quick.
import type { Command } from 'commander'
import { loadConfig } from '../../config.js'
import { withDatabase } from '../context.js'
import type { DatabaseHandle } from '../../db/database.js'
import { createOutput, UsageError, type Output } from '../output.js'

export interface ServeOptions {
  port?: string
  host?: string
  demo?: boolean
  json?: boolean
}

export interface DemoAnnouncement {
  value: unknown
  lines(url: string): string[]
}

export function registerServeCommands(program: Command, hooks: { seedDemo?: (database: DatabaseHandle, out: Output) => Promise<DemoAnnouncement> } = {}): void {
  program
    .command('serve')
    .description('run the HTTP service (migrates the database first)')
    .option('--port <port>', 'port to listen on (default: PORT or 3000)')
    .option('--host <host>', 'interface to bind (default: HOST or 127.0.0.1)')
    .option('--demo', 'create or refresh the demo workspace and print a key to try')
    .option('--json', 'machine-readable start-up line')
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
      let demo: DemoAnnouncement | undefined
      const server = await startServer(config, {
        beforeListen: async (database) => {
          if (options.demo && hooks.seedDemo) demo = await hooks.seedDemo(database, out)
        },
      })
      closeOnSignals(server, out.info)
      out.result({ url: server.url, backend: config.databaseUrl?.startsWith('postgres') ? 'postgres' : 'pglite', ...(demo ? { demo: demo.value } : {}) }, [
        `Beacon listening on ${server.url}  (API docs: ${server.url}/docs)`,
        ...(demo ? demo.lines(server.url) : []),
      ])
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
