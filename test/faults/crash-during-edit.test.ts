// The server is SIGKILLed at several moments of a brand edit (while its re-analysis job
// runs) and of a prompt tag edit (while its rollup rebuild runs). After restarts, once the
// jobs are done, every stored mention and rollup must be what the current brands and tags
// say: equal to a from-scratch re-analysis and rebuild, and so must every analytics answer
// (issue 18). On both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { seedDemo } from '../../src/demo/seed-demo.js'
import { addDays, todayUtc } from '../../src/core/date-range.js'
import { reanalyzeWorkspace } from '../../src/ingest/reanalyze.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { createInstanceDatabase, type InstanceDatabase } from '../helpers/instances.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'
import { sleep, startChildServer, type ChildServer } from './helpers/private-services.js'

const backends = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)

describe.skipIf(!process.env.BEACON_FAULT_TESTS).each(backends)('a crash during an edit (%s)', (backend) => {
  let dir: string
  let pgDatabase: InstanceDatabase | undefined
  let env: Record<string, string>
  let key: string
  let workspaceId: string
  let server: ChildServer | undefined
  const today = todayUtc()
  const range = `start_date=${addDays(today, -60)}&end_date=${today}`

  const openDb = async (): Promise<DatabaseHandle> => {
    const database = await openDatabase({ ...loadConfig({}), databaseUrl: pgDatabase?.url, dataDir: dir, databasePoolSize: 2 })
    await migrateToLatest(database.db)
    return database
  }
  const api = async (method: 'GET' | 'PATCH', path: string, body?: unknown) => {
    const response = await fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'cache-control': 'no-cache' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> & { id: string }; job?: { id: string } } }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'beacon-crash-'))
    if (backend === 'postgres') pgDatabase = await createInstanceDatabase('beacon_crash')
    env = {
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : { BEACON_DATA_DIR: dir }),
      JOBS_LOST_AFTER_SECONDS: '3',
      JOBS_POLL_SECONDS: '1',
      LOG_LEVEL: 'silent',
    }
    const database = await openDb()
    const demo = await seedDemo(database.db, { today })
    key = demo.key
    workspaceId = demo.workspaceId
    await database.close()
  }, 300_000)

  afterAll(async () => {
    await server?.kill()
    await pgDatabase?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('brings every mention, rollup and answer to what the current brands and tags say', async () => {
    if (backend === 'pglite') delete env.DATABASE_URL
    server = await startChildServer(env)
    const brands = (await api('GET', '/api/v1/brands?per_page=100')).body.data.competitors as { id: string; name: string; is_primary: boolean }[]
    const competitor = brands.find((b) => !b.is_primary)!
    const promptList = (await api('GET', `/api/v1/prompts?brand_id=${competitor.id}&${range}`)).body.data.prompts as { id: string; tags: string[] }[]
    const prompt = promptList.find((p) => p.tags.length > 0)!
    const jobs: string[] = []

    // Brand edits: the write commits with its job; the kill lands while the job re-analyses.
    for (const [i, delay] of [150, 700, 2000].entries()) {
      const edit = await api('PATCH', `/api/v1/brands/${competitor.id}`, { is_active: i % 2 === 1, aliases: i % 2 ? [] : [`${competitor.name} Suite`] })
      expect(edit.status).toBe(200)
      jobs.push(edit.body.job!.id)
      await sleep(delay)
      await server.kill()
      server = await startChildServer(env)
    }
    // Tag edits: the kill lands during the request (the rebuild runs inside it), or just after.
    for (const [i, delay] of [5, 40, 200].entries()) {
      const pending = api('PATCH', `/api/v1/prompts/${prompt.id}`, { tags: i % 2 ? prompt.tags : [...prompt.tags, `crash-${i}`] }).catch(() => undefined)
      await sleep(delay)
      await server.kill()
      await pending
      server = await startChildServer(env)
    }

    // Every job (and any follow-up it queued) ends succeeded after the restarts.
    const waitUntil = Date.now() + 180_000
    for (let i = 0; i < jobs.length; i++) {
      for (;;) {
        const job = (await api('GET', `/api/v1/jobs/${jobs[i]}`)).body.data as unknown as {
          state: string
          error: { code: string } | null
          result?: { follow_up_job_id?: string; continued_by?: string } | null
        }
        if (job.state === 'succeeded') {
          if (job.result?.follow_up_job_id) jobs.push(job.result.follow_up_job_id)
          break
        }
        // Lost with a killed process, its work handed to another job: follow that one.
        if (job.state === 'failed' && job.error?.code === 'job_lost' && job.result?.continued_by) {
          jobs.push(job.result.continued_by)
          break
        }
        expect(['queued', 'running'], JSON.stringify(job)).toContain(job.state)
        if (Date.now() > waitUntil) throw new Error(`job ${jobs[i]} still ${job.state}`)
        await sleep(250)
      }
    }

    const routes = [
      `/api/v1/dashboard?${range}`,
      `/api/v1/dashboard?${range}&tags=${encodeURIComponent(prompt.tags[0])}`,
      `/api/v1/dashboard?${range}&tags=crash-0,crash-2`,
      `/api/v1/sources?${range}`,
      `/api/v1/urls-detailed?${range}&tags=${encodeURIComponent(prompt.tags[0])}`,
      `/api/v1/prompts?brand_id=${competitor.id}&${range}`,
      `/api/v1/brands/${competitor.id}?${range}`,
      `/api/v1/aio-metrics?${range}`,
    ]
    const read = async () => {
      const answers: Record<string, unknown> = {}
      for (const route of routes) {
        const { status, body } = await api('GET', route)
        expect(status, route).toBe(200)
        answers[route] = body.data
      }
      return answers
    }
    const afterCrashes = await read()
    await server.stop()
    server = undefined

    // From scratch, in this process: analyse every answer with the brands as they are now
    // and rebuild every rollup from the facts. Nothing may change.
    const database = await openDb()
    const before = await rollupSnapshot(database.db, workspaceId)
    await reanalyzeWorkspace(database.db, workspaceId)
    await rebuildRollups(database.db, workspaceId)
    expectSameRollups(await rollupSnapshot(database.db, workspaceId), before, (value, message) => expect(value, message))
    await database.close()

    server = await startChildServer(env)
    const fromScratch = await read()
    for (const route of routes) expect(afterCrashes[route], route).toEqual(fromScratch[route])
  }, 600_000)
})
