// Starts the service: open the database, migrate, build the app, listen, and shut down
// cleanly on SIGTERM/SIGINT (stop accepting, finish in-flight requests, close the database).
import { Redis } from 'ioredis'
import { buildApp } from './app.js'
import type { Config } from './config.js'
import { openDatabase } from './db/database.js'
import { migrateToLatest } from './db/migrate.js'
import { refreshPlannerStatistics } from './db/dialect.js'
import type { DatabaseHandle } from './db/database.js'
import type { DemoProgress } from './demo/demo-progress.js'

export interface StartedServer {
  url: string
  /** the open database, for work the caller does after listening (the demo) */
  database: DatabaseHandle
  close(): Promise<void>
}

export async function startServer(config: Config, options: { demo?: DemoProgress } = {}): Promise<StartedServer> {
  const database = await openDatabase(config)
  await migrateToLatest(database.db)
  await refreshPlannerStatistics(database)
  const redis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : undefined
  redis?.on('error', () => {})
  const app = await buildApp({ config, database, redis, demo: options.demo })
  const url = await app.listen({ host: config.host, port: config.port })
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await app.close()
      redis?.disconnect()
      await database.close()
    })())
  return { url, database, close }
}

export function closeOnSignals(server: StartedServer, log: (message: string) => void = console.error): void {
  let signalled = false
  const onSignal = (signal: string) => {
    if (signalled) {
      log(`${signal} again: exiting now`)
      process.exit(1)
    }
    signalled = true
    log(`${signal} received: finishing in-flight requests, then closing`)
    server.close().then(
      () => process.exit(0),
      (error) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => onSignal('SIGTERM'))
  process.on('SIGINT', () => onSignal('SIGINT'))
}
