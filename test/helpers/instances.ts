// Real Beacon server processes (`beacon serve`) on one PostgreSQL database, for tests of
// several instances: each has its own connection pool, answer cache and process, as
// instances behind a load balancer do. The database is created fresh and dropped after.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const BIN = fileURLToPath(new URL('../../bin/beacon.js', import.meta.url))

export interface Instance {
  url: string
  process: ChildProcess
  /** stops it with SIGTERM (graceful) or SIGKILL, and waits for the exit */
  stop(signal?: NodeJS.Signals): Promise<void>
}

export interface InstanceDatabase {
  url: string
  drop(): Promise<void>
}

/** A new, empty database on the server of TEST_DATABASE_URL. */
export async function createInstanceDatabase(prefix: string): Promise<InstanceDatabase> {
  const base = process.env.TEST_DATABASE_URL
  if (!base) throw new Error('TEST_DATABASE_URL is not set')
  const name = `${prefix}_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

/** Starts `beacon serve --port 0 --json` and resolves once it listens. */
export function startInstance(env: Record<string, string>, timeoutMs = 60_000): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ANALYSIS_THREADS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`beacon serve did not start within ${timeoutMs} ms: ${stderr}`))
    }, timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`beacon serve exited with ${code} before listening: ${stderr}`))
    })
    // --json prints one pretty-printed document; collect lines until it parses.
    let text = ''
    createInterface({ input: child.stdout! }).on('line', (line) => {
      text += `${line}\n`
      try {
        const started = JSON.parse(text) as { url: string }
        clearTimeout(timer)
        resolve({
          url: started.url,
          process: child,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal)
            await exited
          },
        })
      } catch {
        // not complete yet
      }
    })
  })
}
