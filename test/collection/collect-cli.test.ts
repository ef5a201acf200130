// `beacon target add|list|remove`, `beacon collect` and `beacon runs list` as a user runs
// them: the real command, an embedded database, the demo provider (no network).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'
import { createTestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'
import { addTarget } from './helpers.js'

describe('beacon collect', () => {
  const { beacon, json } = cliSandbox('beacon-collect-cli', 180_000)

  it('adds targets, runs a collection to the end, lists runs, removes a target; a failing run exits 1', () => {
    json(beacon('workspace', 'create', '--name', 'Acme', '--tier', 'premium', '--json'))
    json(beacon('prompt', 'add', '--workspace', 'Acme', '--text', 'Best CRM for startups?', '--json'))
    json(beacon('prompt', 'add', '--workspace', 'Acme', '--text', 'Cheapest CRM?', '--json'))
    const target = json(beacon('target', 'add', '--workspace', 'Acme', '--provider', 'google', '--model', 'gemini-2.5-flash', '--api', 'demo', '--samples', '2', '--json'))
    expect(target).toMatchObject({ provider: 'google', model: 'gemini-2.5-flash', api: 'demo', samples: 2, schedule: '0 6 * * *' })
    const bad = beacon('target', 'add', '--workspace', 'Acme', '--provider', 'google', '--model', 'x', '--schedule', 'every day')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('5 fields')
    expect(json(beacon('target', 'list', '--workspace', 'Acme', '--json')).map((t: { id: string }) => t.id)).toEqual([target.id])

    const run = json(beacon('collect', '--workspace', 'Acme', '--json'))
    expect(run).toMatchObject({ state: 'succeeded', planned: 4, succeeded: 4, failed: 0, cost_usd: 0 })
    const text = beacon('collect', '--workspace', 'Acme', '--target', target.id)
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/succeeded \(4 stored, 0 duplicates, 0 failed, 0 skipped, 0 not answered of 4\)/)
    const runs = json(beacon('runs', 'list', '--workspace', 'Acme', '--json'))
    expect(runs.map((r: { id: string }) => r.id)).toContain(run.id)
    expect(runs).toHaveLength(2)

    // A native target without a key (no credential, no OPENAI_API_KEY): nothing is sent, the
    // run fails, the command exits 1 and says what to do, and the target is flagged.
    const native = json(beacon('target', 'add', '--workspace', 'Acme', '--provider', 'openai', '--model', 'gpt-4o', '--json'))
    const failed = beacon('collect', '--workspace', 'Acme', '--target', native.id, '--json')
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toMatchObject({ state: 'failed', failed: 2, errors: [{ target_id: native.id, code: 'unauthorized', count: 2 }] })
    expect(JSON.parse(failed.stderr.trim().split('\n').at(-1)!).error.message).toContain('OPENAI_API_KEY')
    expect(json(beacon('target', 'list', '--workspace', 'Acme', '--json')).find((t: { id: string }) => t.id === native.id)).toMatchObject({ flagged: true })
    expect(json(beacon('target', 'remove', '--workspace', 'Acme', native.id, '--json'))).toEqual({ id: native.id, deleted: true })
    expect(beacon('target', 'remove', '--workspace', 'Acme', native.id).code).toBe(2)
  }, 180_000)
})

describe('beacon collect --server', () => {
  it('asks a running Beacon to run the collection and follows it to the end', async () => {
    const ctx = await createTestContext('pglite', { jobsWorker: true, jobsPollSeconds: 1, demoLatencyMs: 50, rateLimitPerMinute: 1_000_000 })
    try {
      const { key } = await ctx.tenant()
      await createPrompt(ctx, key, 'Best CRM?')
      await addTarget(ctx, key, { provider: 'perplexity', model: 'sonar', api: 'demo', samples: 3 })
      const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
      const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' }
      delete env.DATABASE_URL
      // Asynchronous: the server answering it lives in this process.
      const { stdout } = await promisify(execFile)(process.execPath, ['bin/beacon.js', 'collect', '--server', url, '--key', key, '--json'], { env, timeout: 120_000 })
      expect(JSON.parse(stdout)).toMatchObject({ state: 'succeeded', planned: 3, succeeded: 3 })
      const missingKey = await promisify(execFile)(process.execPath, ['bin/beacon.js', 'collect', '--server', url], { env: { ...env, BEACON_API_KEY: '' } }).catch(
        (error: { code: number; stderr: string }) => error,
      )
      expect(missingKey).toMatchObject({ code: 2, stderr: expect.stringContaining('--key') })
    } finally {
      await ctx.close()
    }
  }, 180_000)
})
