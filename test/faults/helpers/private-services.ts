// Private, throw-away service instances for the fault tests: a PostgreSQL cluster, a
// redis-server and Beacon itself, each on its own free loopback port. The fault tests
// stop and kill these; the machine's shared PostgreSQL (5432) and Redis (6379) are
// never touched.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import { buildApp } from '../../../src/app.js'
import { loadConfig, type Config } from '../../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../../src/db/database.js'
import { migrateToLatest } from '../../../src/db/migrate.js'

const run = promisify(execFile)
// Beacon itself in a child process: shared with the benchmarks, which start other checkouts.
export { REPO_ROOT, startChildServer, type ChildServer, type ChildServerOptions } from '../../helpers/child-server.js'

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = await probe()
      if (value) return value
    } catch (error) {
      lastError = error
    }
    await sleep(intervalMs)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`)
}

/** The newest installed PostgreSQL server binaries (PG_BIN_DIR overrides). */
function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (!versions.length) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql; install postgresql or set PG_BIN_DIR')
  return join(root, versions[0], 'bin')
}

/**
 * A PostgreSQL cluster in a temporary directory, run by the `postgres` OS user (initdb
 * refuses root), trust auth, listening on 127.0.0.1 only, socket in its own directory.
 */
export class PrivatePostgres {
  private running = false
  private readonly onExit = () => this.stopNow()

  private constructor(
    readonly root: string,
    readonly port: number,
    private readonly bin: string,
  ) {
    // A crashed test run must not leave a server behind.
    process.once('exit', this.onExit)
  }

  static async create(): Promise<PrivatePostgres> {
    const bin = postgresBinDir()
    const root = mkdtempSync(join(tmpdir(), 'beacon-faults-pg-'))
    chownSync(root, uid('postgres'), gid('postgres'))
    const cluster = new PrivatePostgres(root, await freePort(), bin)
    await cluster.asPostgres('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C'])
    return cluster
  }

  /**
   * A hot standby of `primary`, made as operators make one: pg_basebackup -R (a copy of the
   * data directory plus primary_conninfo and standby.signal), then started on its own port,
   * streaming WAL from the primary. Not started yet.
   */
  static async replicaOf(primary: PrivatePostgres): Promise<PrivatePostgres> {
    const bin = postgresBinDir()
    const root = mkdtempSync(join(tmpdir(), 'beacon-faults-replica-'))
    chownSync(root, uid('postgres'), gid('postgres'))
    const replica = new PrivatePostgres(root, await freePort(), bin)
    await replica.asPostgres('pg_basebackup', ['-D', replica.dataDir, '-R', '-X', 'stream', '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '--no-sync'])
    return replica
  }

  get dataDir(): string {
    return join(this.root, 'data')
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`
  }

  private asPostgres(tool: string, args: string[]) {
    return run('runuser', ['-u', 'postgres', '--', join(this.bin, tool), ...args], { timeout: 60_000 })
  }

  async start(): Promise<void> {
    // fsync off: these tests kill clients and stop the server cleanly, never the machine.
    const options = `-p ${this.port} -k ${this.root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-l', join(this.root, 'server.log'), '-o', options, '-w', '-t', '30', 'start'])
    this.running = true
  }

  /** Fast shutdown: open sessions are terminated, as in a failover or a restart. */
  async stop(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '30', 'stop'])
    this.running = false
  }

  /** Immediate shutdown: every process of the server ends at once, as in a crash. */
  async kill(): Promise<void> {
    await this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', '-t', '30', 'stop'])
    this.running = false
  }

  private stopNow(): void {
    if (!this.running) return
    this.running = false
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', join(this.bin, 'pg_ctl'), '-D', this.dataDir, '-m', 'immediate', '-w', 'stop'], { stdio: 'ignore', timeout: 30_000 })
    } catch {
      // already gone
    }
  }

  async destroy(): Promise<void> {
    process.removeListener('exit', this.onExit)
    if (this.running) await this.stop().catch(() => this.stopNow())
    rmSync(this.root, { recursive: true, force: true })
  }
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
}
function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
}

/** A redis-server child process without persistence; kill() is a SIGKILL, like a crash. */
export class PrivateRedis {
  private child: ChildProcess | undefined
  private readonly onExit = () => this.child?.kill('SIGKILL')

  private constructor(readonly port: number) {
    process.once('exit', this.onExit)
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort())
    await redis.restart()
    return redis
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running')
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    let output = ''
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000)
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          ready()
        }
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', onData)
      child.once('exit', (code) => {
        clearTimeout(timer)
        fail(new Error(`redis-server exited with ${code}:\n${output}`))
      })
    })
    child.removeAllListeners('exit')
    child.stdout!.resume()
    child.stderr!.resume()
  }

  async kill(): Promise<void> {
    const child = this.child
    if (!child) return
    this.child = undefined
    if (child.exitCode !== null || child.signalCode !== null) return
    await new Promise<void>((done) => {
      child.once('exit', () => done())
      child.kill('SIGKILL')
    })
  }

  async destroy(): Promise<void> {
    process.removeListener('exit', this.onExit)
    await this.kill()
  }
}

export interface InProcessApp {
  app: FastifyInstance
  database: DatabaseHandle
  config: Config
  url: string
  close(): Promise<void>
}

/** The real app, as server.ts builds it, listening on a free loopback port. */
export async function startInProcessApp(options: {
  databaseUrl: string
  config?: Partial<Config>
  redis?: Redis
  logger?: boolean | Record<string, unknown>
  /** reuse an open database (and leave closing it to the caller) */
  database?: DatabaseHandle
}): Promise<InProcessApp> {
  const config: Config = { ...loadConfig({}), databaseUrl: options.databaseUrl, databasePoolSize: 10, rateLimitPerMinute: 1_000_000, ...options.config }
  const ownDatabase = !options.database
  const database = options.database ?? (await openDatabase(config))
  if (ownDatabase) await migrateToLatest(database.db)
  const app = await buildApp({ config, database, redis: options.redis, logger: options.logger ?? false })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return {
    app,
    database,
    config,
    url,
    async close() {
      await app.close()
      if (ownDatabase) await database.close()
    },
  }
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export function processRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1]) * 1024
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
