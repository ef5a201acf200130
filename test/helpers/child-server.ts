// `beacon serve` in a child process: the real server, as operators run it, for the fault
// tests, the end-to-end tests and the benchmarks. Here, not beside the fault tests' private
// PostgreSQL and Redis (test/faults/helpers/private-services.ts re-exports it), so that a
// benchmark that only starts servers loads no part of this checkout's app: with `cwd` it
// starts another checkout's (bench/demo-seed-waits.ts measures an earlier commit beside this one).
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface ChildServer {
  url: string
  pid: number
  process: ChildProcess
  /** what the server printed on stdout: its --json start-up document, or `{ url }` when returned at 'listening' */
  startup: Record<string, unknown>
  stderr(): string
  /** SIGKILL: no shutdown hooks, no flush, like a crashed or OOM-killed process */
  kill(): Promise<void>
  /** SIGTERM and wait for a clean exit */
  stop(): Promise<void>
}

export interface ChildServerOptions {
  /** the checkout whose bin/beacon.js runs (default: this one) */
  cwd?: string
  /**
   * 'started' (default): `serve --json`, returned once its start-up document is printed, which
   * with --demo is once the demo is complete. 'listening': `serve` without --json, returned as
   * soon as it prints its address, before the demo's data is written; `startup` is only `{ url }`.
   */
  returnWhen?: 'started' | 'listening'
}

/** The address `serve` prints once it listens (text output). */
const LISTENING = /http:\/\/(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::\]):(\d+)/

export async function startChildServer(env: Record<string, string>, args: string[] = [], startTimeoutMs = 60_000, options: ChildServerOptions = {}): Promise<ChildServer> {
  const returnWhen = options.returnWhen ?? 'started'
  const child = spawn(process.execPath, ['bin/beacon.js', 'serve', '--port', '0', ...(returnWhen === 'started' ? ['--json'] : []), ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000)
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const startup = await new Promise<Record<string, unknown>>((ready, fail) => {
    let started = false
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`beacon serve did not start within ${startTimeoutMs} ms:\n${stderr}`))
    }, startTimeoutMs)
    const onStarted = (document: Record<string, unknown>) => {
      started = true
      clearTimeout(timer)
      ready(document)
    }
    // Read to the end either way: a full pipe would stop the server.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (started) return
      stdout += chunk.toString()
      if (returnWhen === 'listening') {
        const match = LISTENING.exec(stdout)
        if (match) onStarted({ url: `http://127.0.0.1:${match[1]}` })
        return
      }
      try {
        onStarted(JSON.parse(stdout) as Record<string, unknown>)
      } catch {
        // the JSON document is not complete yet
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      fail(new Error(`beacon serve exited (${code ?? signal}) before listening:\n${stderr}`))
    })
  })
  const alive = () => child.exitCode === null && child.signalCode === null
  return {
    url: String(startup.url),
    pid: child.pid!,
    process: child,
    startup,
    stderr: () => stderr,
    async kill() {
      if (alive()) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (alive()) child.kill('SIGTERM')
      await exited
    },
  }
}
