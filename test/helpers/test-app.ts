// Builds the real app on a fresh database for a test file. Every integration suite runs
// on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set (each suite gets its
// own schema there, so files can run in parallel and leave nothing behind).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { inject } from 'vitest'
import { buildApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { runAdminStatements } from '../../src/db/admin-statements.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { SCOPES, type Scope, type Tier } from '../../src/auth/scopes.js'
import { ensureTestDatabase, testDatabaseUrl } from './test-database.js'
import type { JobRuntime, JobView } from '../../src/jobs/job-runtime.js'

export type TestBackend = 'pglite' | 'postgres'

export const testBackends: TestBackend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

export interface TestContext {
  app: FastifyInstance
  database: DatabaseHandle
  config: Config
  backend: TestBackend
  /** PostgreSQL: the suite's schema */
  schema?: string
  /** another instance of the app (own connections, cache and job worker) on the same database; PostgreSQL only */
  openInstance(): Promise<{ app: FastifyInstance; close(): Promise<void> }>
  /** a workspace and a key for it (all scopes unless given) */
  tenant(options?: { tier?: Tier; scopes?: Scope[]; name?: string }): Promise<{ workspaceId: string; key: string; keyId: string }>
  /** inject with a bearer key */
  get(url: string, key: string, options?: Omit<InjectOptions, 'url' | 'method'>): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

// Once per test file process; the global setup has usually created it already.
const ensured = new Map<string, Promise<void>>()

// Suites queue jobs but run none unless they ask for a worker ({ jobsWorker: true }): a
// background job would otherwise bump data versions under tests that check caching.
// 8 answer workers, not the default 80 (sized for 20 s web-search answers): each worker is a
// fetch loop polling every second in tests, and suites need few at once.
const testJobs: Partial<Config> = { jobsWorker: false, jobsPollSeconds: 1, collectionWorkers: 8 }

// The migrated empty cluster global-setup built for this run: a PGlite app loads it instead
// of running initdb (and every migration) itself. migrateToLatest still runs on it below.
// Runs without that global setup (the fault tests' config) start from initdb as before.
let emptyCluster: Blob | undefined
function migratedEmptyCluster(): Blob | undefined {
  const path = inject('emptyClusterPath')
  if (!path) return undefined
  emptyCluster ??= new Blob([readFileSync(path)])
  return emptyCluster
}

export async function createTestContext(
  backend: TestBackend,
  overrides: Partial<Config> = {},
  options: { jobs?: (database: DatabaseHandle, config: Config) => Promise<JobRuntime> } = {},
): Promise<TestContext> {
  const base = loadConfig({})
  let schema: string | undefined
  let config: Config
  if (backend === 'postgres') {
    const url = testDatabaseUrl()
    if (!ensured.has(url)) ensured.set(url, ensureTestDatabase(url))
    await ensured.get(url)
    schema = `test_${randomBytes(6).toString('hex')}`
    await runAdminStatements(url, `create schema ${schema}`)
    // pg-boss gets a schema of its own per suite too.
    config = { ...base, ...testJobs, databaseUrl: url, databasePoolSize: 5, jobsSchema: `${schema}_jobs`, ...overrides }
  } else {
    config = { ...base, ...testJobs, databaseUrl: 'memory://', ...overrides }
  }
  const database = await openDatabase(config, { searchPath: schema, emptyCluster: schema ? undefined : migratedEmptyCluster() })
  await migrateToLatest(database.db)
  const jobs = options.jobs ? await options.jobs(database, config) : undefined
  const app = await buildApp({ config, database, logger: false, jobs })
  await app.ready()

  let counter = 0
  return {
    app,
    database,
    config,
    backend,
    schema,
    async openInstance() {
      if (backend !== 'postgres') throw new Error('a second instance needs PostgreSQL (PGlite is one process)')
      const other = await openDatabase(config, { searchPath: schema })
      const otherApp = await buildApp({ config, database: other, logger: false })
      await otherApp.ready()
      return {
        app: otherApp,
        async close() {
          await otherApp.close()
          await other.close()
        },
      }
    },
    async tenant(options = {}) {
      counter += 1
      const workspace = await createWorkspace(database.db, { name: options.name ?? `Workspace ${counter}`, tier: options.tier ?? 'premium' })
      const key = await createApiKey(database.db, { workspaceId: workspace.id, scopes: options.scopes ?? [...SCOPES] })
      return { workspaceId: workspace.id, key: key.key, keyId: key.id }
    },
    get(url, key, options = {}) {
      return app.inject({ ...options, method: 'GET', url, headers: { authorization: `Bearer ${key}`, ...(options.headers ?? {}) } })
    },
    async close() {
      await app.close()
      await database.close()
      if (schema) await runAdminStatements(testDatabaseUrl(), `drop schema ${schema} cascade`, `drop schema if exists ${config.jobsSchema} cascade`)
    },
  }
}

/** Waits until the job has finished (succeeded, failed or cancelled) and returns it as the API shows it. */
export async function waitForJob(ctx: Pick<TestContext, 'app' | 'database'>, workspaceId: string, jobId: string, timeoutMs = 60_000): Promise<JobView> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const job = await ctx.app.jobs.get(ctx.database.db, workspaceId, jobId)
    if (!job) throw new Error(`job ${jobId} of workspace ${workspaceId} not found`)
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return job
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.state} after ${timeoutMs} ms (is the test context started with jobsWorker: true?)`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
