// Every writer at once, for a bounded time: ingestion batches (through two instances on
// PostgreSQL), brand edits and prompt tag edits that queue re-analysis jobs, while the job
// worker re-analyses. No request may answer 5xx (deadlocks are retried, never surfaced),
// and once the jobs are done every rollup and every analytics answer must equal what a
// from-scratch re-analysis and rebuild of the facts give (issue 17).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { createTestContext, testBackends, waitForJob, type TestContext } from '../helpers/test-app.js'
import { rollupSnapshot, expectSameRollups } from '../helpers/rollup-snapshot.js'
import { startJobs } from '../../src/start-jobs.js'
import { reanalyzeWorkspace } from '../../src/ingest/reanalyze.js'
import { rebuildRollups } from '../../src/rollups/index.js'

const DURATION_MS = 6_000
const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella']

describe.each(testBackends)('concurrent writers (%s)', (backend) => {
  let ctx: TestContext
  let instances: FastifyInstance[]
  let closeOthers: () => Promise<void> = async () => {}
  let tenant: { workspaceId: string; key: string }
  const brandIds: Record<string, string> = {}
  const promptIds: string[] = []

  const send = (app: FastifyInstance, method: 'POST' | 'PATCH', url: string, body: unknown) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })

  let serial = 0
  const answers = (n: number) =>
    Array.from({ length: n }, () => {
      serial += 1
      const named = BRANDS.filter((_, i) => (serial + i) % (i + 2) === 0)
      return {
        external_id: `answer-${serial}`,
        prompt_id: promptIds[serial % promptIds.length],
        provider: ['openai', 'anthropic', 'google', 'perplexity'][serial % 4],
        model: ['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro', 'sonar'][serial % 4],
        content: `For this, ${named.join(' and ') || 'nobody'} came up. Acme Corp is solid; ACME Inc is pricey. See https://example${serial % 7}.com/page`,
        created_at: new Date(Date.UTC(2026, 4, 1 + (serial % 28), serial % 24)).toISOString(),
      }
    })

  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000 }, { jobs: (database, config) => startJobs(config, database) })
    tenant = await ctx.tenant()
    instances = [ctx.app]
    if (backend === 'postgres') {
      const other = await ctx.openInstance()
      instances.push(other.app)
      closeOthers = other.close
    }
    for (const name of BRANDS) brandIds[name] = (await send(ctx.app, 'POST', '/api/v1/brands', { name })).json().data.id
    for (const tags of [['crm', 'smb'], ['crm', 'enterprise'], ['pricing'], []]) {
      promptIds.push((await send(ctx.app, 'POST', '/api/v1/prompts', { text: `Question ${promptIds.length}`, tags })).json().data.id)
    }
    expect((await send(ctx.app, 'POST', '/api/v1/ingest/responses', { responses: answers(100) })).statusCode).toBe(200)
  }, 120_000)
  afterAll(async () => {
    await closeOthers()
    await ctx.close()
  })

  it('answers no 5xx while everything writes at once, and ends exactly equal to a rebuild', async () => {
    const statuses: { route: string; status: number }[] = []
    const deadline = Date.now() + DURATION_MS
    const loop = async (route: string, step: (i: number) => Promise<{ statusCode: number }>) => {
      for (let i = 0; Date.now() < deadline; i++) statuses.push({ route, status: (await step(i)).statusCode })
    }
    await Promise.all([
      ...instances.map((app) => loop('ingest', () => send(app, 'POST', '/api/v1/ingest/responses', { responses: answers(25) }))),
      loop('brand', (i) => send(instances[i % instances.length], 'PATCH', `/api/v1/brands/${brandIds.Acme}`, { aliases: i % 2 ? ['Acme Corp'] : ['Acme Corp', 'ACME Inc'] })),
      loop('brand', (i) => send(instances[(i + 1) % instances.length], 'PATCH', `/api/v1/brands/${brandIds.Umbrella}`, { is_active: i % 2 === 0 })),
      loop('prompt', (i) => send(instances[i % instances.length], 'PATCH', `/api/v1/prompts/${promptIds[0]}`, { tags: i % 2 ? ['crm', 'smb'] : ['crm', 'enterprise'] })),
    ])
    const failures = statuses.filter((s) => s.status >= 500)
    expect(failures).toEqual([])
    for (const route of ['ingest', 'brand', 'prompt']) expect(statuses.filter((s) => s.route === route && s.status < 300).length).toBeGreaterThan(0)

    // Let the queued re-analysis jobs finish, as the API reports them.
    const db = ctx.database.db
    const jobIds = (await db.selectFrom('job').select('id').where('workspace_id', '=', tenant.workspaceId).execute()).map((j) => j.id)
    expect(jobIds.length).toBeGreaterThan(0)
    for (const id of jobIds) expect((await waitForJob(ctx, tenant.workspaceId, id, 180_000)).state).toBe('succeeded')
    // A brand edit that joined a running job queues a follow-up: wait for those too.
    for (;;) {
      const more = (await db.selectFrom('job').select('id').where('workspace_id', '=', tenant.workspaceId).where('id', 'not in', jobIds).execute()).map((j) => j.id)
      if (more.length === 0) break
      for (const id of more) {
        expect((await waitForJob(ctx, tenant.workspaceId, id, 180_000)).state).toBe('succeeded')
        jobIds.push(id)
      }
    }

    const routes = [
      '/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31',
      '/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31&tags=smb',
      '/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31&tags=enterprise',
      '/api/v1/dashboard?start_date=2026-04-01&end_date=2026-06-30&models=openai',
      '/api/v1/sources?start_date=2026-05-01&end_date=2026-05-31',
      '/api/v1/sources?start_date=2026-05-01&end_date=2026-05-31&tags=smb',
      '/api/v1/urls-detailed?start_date=2026-05-01&end_date=2026-05-31',
      `/api/v1/prompts?brand_id=${brandIds.Acme}&start_date=2026-05-01&end_date=2026-05-31`,
      `/api/v1/prompts?brand_id=${brandIds.Acme}&start_date=2026-05-01&end_date=2026-05-31&tags=enterprise`,
      `/api/v1/brands/${brandIds.Acme}?start_date=2026-05-01&end_date=2026-05-31`,
    ]
    const read = async () => {
      const out: Record<string, unknown> = {}
      for (const url of routes) {
        const response = await ctx.get(url, tenant.key, { headers: { 'cache-control': 'no-cache' } })
        expect(response.statusCode, url).toBe(200)
        out[url] = response.json().data
      }
      return out
    }
    const afterRace = { rollups: await rollupSnapshot(db, tenant.workspaceId), answers: await read() }

    // From scratch: analyse every stored answer with the brands as they are now, rebuild.
    await reanalyzeWorkspace(db, tenant.workspaceId)
    await rebuildRollups(db, tenant.workspaceId)
    const fromScratch = { rollups: await rollupSnapshot(db, tenant.workspaceId), answers: await read() }

    expectSameRollups(afterRace.rollups, fromScratch.rollups, (value, message) => expect(value, message))
    for (const url of routes) expect(afterRace.answers[url], url).toEqual(fromScratch.answers[url])
    // And the race really wrote: answers arrived during it.
    const stored = await sql<{ n: number }>`select count(*)::int as n from response where workspace_id = ${tenant.workspaceId}`.execute(db)
    expect(stored.rows[0].n).toBeGreaterThan(100)
  }, 300_000)
})
