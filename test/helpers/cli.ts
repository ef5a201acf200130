// The real `beacon` command in a child process, against an embedded database in a
// temporary directory of the test file's own (removed after the file).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

export function cliSandbox(prefix: string, timeoutMs = 120_000) {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  /** with extra environment variables; undefined removes one */
  const beaconWith = (extra: Record<string, string | undefined>, ...args: string[]): CliRun => {
    const env: NodeJS.ProcessEnv = { ...process.env, BEACON_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
    delete env.DATABASE_URL
    // A provider key of the developer's machine must not make tests ask a real provider.
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'PERPLEXITY_API_KEY', 'SERPAPI_API_KEY', 'DATAFORSEO_API_KEY']) delete env[name]
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) delete env[name]
      else env[name] = value
    }
    const result = spawnSync(process.execPath, ['bin/beacon.js', ...args], { env, encoding: 'utf8', timeout: timeoutMs })
    return { code: result.status, stdout: result.stdout, stderr: result.stderr }
  }
  const beacon = (...args: string[]): CliRun => beaconWith({}, ...args)
  /** the JSON a successful --json run printed */
  const json = (run: CliRun) => {
    expect(run.code, run.stderr).toBe(0)
    return JSON.parse(run.stdout)
  }
  return { dataDir, beacon, beaconWith, json }
}
