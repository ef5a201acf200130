// Three Beacon processes on one PostgreSQL and one Redis, requests spread round-robin, as
// behind a load balancer: the per-key limit, the strict export quota and the answer cache
// must behave as if there were one instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { SCOPES, type Scope } from '../../src/auth/scopes.js'
import { loadConfig } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createInstanceDatabase, startInstance, type Instance, type InstanceDatabase } from '../helpers/instances.js'
import { startOpenAIFake } from '../fakes/openai-fake.js'
import type { ProviderFake } from '../fakes/http-fake.js'
import { promptOf } from '../fakes/http-fake.js'

const RATE_LIMIT = 40
const QUOTA = 10
const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL)

describe.runIf(enabled)('three instances on one PostgreSQL and one Redis', () => {
  let database: InstanceDatabase
  let handle: DatabaseHandle
  let instances: Instance[] = []
  let workspaceId: string
  let turn = 0
  /** the next instance, round-robin */
  const next = () => instances[turn++ % instances.length]

  const newKey = async (scopes: Scope[] = [...SCOPES]) => (await createApiKey(handle.db, { workspaceId, scopes })).key
  /** the fields these tests read, of the records and the dashboard */
  type Body = { success: boolean; data: { id: string; total_mentions: number; brands: Record<string, { visibility_score: number }> } }
  const json = async (response: Response | Promise<Response>) => (await (await response).json()) as Body
  const request = (instance: Instance, path: string, key: string, init: RequestInit = {}) =>
    fetch(`${instance.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })

  let provider: ProviderFake

  beforeAll(async () => {
    database = await createInstanceDatabase('beacon_scaleout')
    // One fake OpenAI for all three: it counts every question any instance asks.
    provider = await startOpenAIFake({ latencyMs: 100 })
    const env = {
      OPENAI_BASE_URL: `${provider.url}/v1`,
      OPENAI_API_KEY: 'sk-scale-out',
      COLLECTION_SCHEDULER_SECONDS: '2',
      // every-minute schedules, so a slot comes within the test (the default refuses them: at most hourly)
      COLLECTION_MIN_INTERVAL_MINUTES: '1',
      JOBS_POLL_SECONDS: '1',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL as string,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      EXPORT_QUOTA_PER_HOUR: String(QUOTA),
      EXPORT_CONCURRENCY: '30',
      EXPORT_CONCURRENCY_PER_WORKSPACE: '30',
      DATABASE_POOL_SIZE: '12',
    }
    // The first migrates; the other two start at once against the migrated database.
    instances = [await startInstance(env)]
    instances.push(...(await Promise.all([startInstance(env), startInstance(env)])))
    handle = await openDatabase({ ...loadConfig({}), databaseUrl: database.url, databasePoolSize: 2 })
    workspaceId = (await createWorkspace(handle.db, { name: 'Scale-out', tier: 'premium' })).id
  }, 180_000)

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    await provider?.close()
    await handle?.close()
    await database?.drop()
  }, 60_000)

  it('holds the per-key limit across instances (one window)', async () => {
    const key = await newKey(['read:analytics'])
    const statuses: number[] = []
    // Sequential and quick: all within one minute's window.
    for (let i = 0; i < RATE_LIMIT + 15; i++) statuses.push((await request(next(), '/api/v1/filters', key)).status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT)
    expect(statuses.filter((s) => s === 429)).toHaveLength(15)
    // The first refusals come right after the limit, whichever instance answered.
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true)
  }, 60_000)

  it(`lets exactly ${QUOTA} of 30 concurrent export downloads through across the instances`, async () => {
    const key = await newKey(['read:analytics', 'export:data'])
    const responses = await Promise.all(Array.from({ length: 30 }, () => request(next(), '/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-07', key)))
    const statuses = responses.map((r) => r.status)
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses.filter((s) => s === 200)).toHaveLength(QUOTA)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - QUOTA)
    // Every instance counted the same shared log: the next one is refused wherever it goes.
    for (const instance of instances) {
      expect((await request(instance, '/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-07', key)).status).toBe(429)
    }
  }, 60_000)

  it('shows an answer ingested through one instance on the next read through the others', async () => {
    const key = await newKey()
    const brand = await json(request(instances[0], '/api/v1/brands', key, { method: 'POST', body: JSON.stringify({ name: 'Acme' }) }))
    const prompt = await json(request(instances[0], '/api/v1/prompts', key, { method: 'POST', body: JSON.stringify({ text: 'Best CRM?', tags: ['crm'] }) }))
    expect(brand.success && prompt.success).toBe(true)
    const path = '/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31'
    // Every instance has the empty answer cached.
    for (const instance of instances) {
      for (let i = 0; i < 2; i++) {
        const body = await json(request(instance, path, key))
        expect(body.data.total_mentions).toBe(0)
      }
    }
    const ingested = await request(instances[0], '/api/v1/ingest/responses', key, {
      method: 'POST',
      body: JSON.stringify({
        responses: [{ prompt_id: prompt.data.id, provider: 'openai', model: 'gpt-4o', content: 'Acme is the best CRM. Acme again.', created_at: '2026-05-02T10:00:00Z' }],
      }),
    })
    expect(ingested.status).toBe(200)
    for (const instance of instances.slice(1)) {
      const body = await json(request(instance, path, key))
      expect(body.data.total_mentions).toBe(2)
      expect(body.data.brands.Acme.visibility_score).toBe(100)
    }
  }, 60_000)

  it('runs each background job once: a re-analysis queued through any instance is taken by exactly one of the three', async () => {
    // Three workspaces, each with answers naming a brand it does not track yet; adding the
    // brand through one instance queues a re-analysis that every instance's worker could take.
    const tenants = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const tenant = await createWorkspace(handle.db, { name: `Scale-out jobs ${n}`, tier: 'premium' })
        return { workspaceId: tenant.id, key: (await createApiKey(handle.db, { workspaceId: tenant.id, scopes: [...SCOPES] })).key }
      }),
    )
    const jobIds: string[] = []
    for (const tenant of tenants) {
      const prompt = await json(request(next(), '/api/v1/prompts', tenant.key, { method: 'POST', body: JSON.stringify({ text: 'Best CRM?' }) }))
      const responses = Array.from({ length: 12 }, (_, i) => ({
        prompt_id: prompt.data.id,
        provider: 'openai',
        model: 'gpt-4o',
        content: i % 3 === 0 ? 'Nothing to name here.' : 'Zenith is a good CRM; many teams pick Zenith.',
        created_at: `2026-05-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
      }))
      expect((await request(next(), '/api/v1/ingest/responses', tenant.key, { method: 'POST', body: JSON.stringify({ responses }) })).status).toBe(200)
      const created = (await (await request(next(), '/api/v1/brands', tenant.key, { method: 'POST', body: JSON.stringify({ name: 'Zenith' }) })).json()) as {
        job?: { id: string }
      }
      expect(created.job?.id).toEqual(expect.any(String))
      jobIds.push(created.job?.id as string)
    }
    const jobs = () => handle.db.selectFrom('job').select(['id', 'state', 'started_at']).where('id', 'in', jobIds).execute()
    const deadline = Date.now() + 60_000
    while (!(await jobs()).every((job) => job.state === 'succeeded') || (await jobs()).length < jobIds.length) {
      if (Date.now() > deadline) throw new Error(`re-analysis jobs did not finish: ${JSON.stringify(await jobs())}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    // pg-boss counts a second claim of a job as a retry: none was claimed twice.
    const queued = await sql<{ id: string; state: string; retry_count: number }>`
      select id::text as id, state, retry_count from pgboss.job where id = any(${jobIds}::uuid[])`.execute(handle.db)
    expect(queued.rows.map((row) => ({ state: row.state, retry_count: row.retry_count }))).toEqual(jobIds.map(() => ({ state: 'completed', retry_count: 0 })))
    // And each workspace's answers were re-analysed exactly: 8 of its 12 name Zenith, twice each.
    for (const tenant of tenants) {
      const mentions = await handle.db
        .selectFrom('mention')
        .select([sql<number>`count(*)::int`.as('n'), sql<number>`sum(occurrences)::int`.as('occurrences')])
        .where('workspace_id', '=', tenant.workspaceId)
        .executeTakeFirstOrThrow()
      expect(mentions).toEqual({ n: 8, occurrences: 16 })
    }
  }, 90_000)

  it('fires each schedule slot once and asks each collection answer once across the instances', async () => {
    const collecting = await createWorkspace(handle.db, { name: 'Scale-out collection', tier: 'premium' })
    const key = (await createApiKey(handle.db, { workspaceId: collecting.id, scopes: [...SCOPES] })).key
    const prompts = ['Best CRM for startups?', 'Cheapest CRM?', 'CRM with the best API?', 'CRM for agencies?', 'Open-source CRM?']
    for (const text of prompts) expect((await request(next(), '/api/v1/prompts', key, { method: 'POST', body: JSON.stringify({ text }) })).status).toBe(201)
    const created = await json(
      request(next(), '/api/v1/collection/targets', key, { method: 'POST', body: JSON.stringify({ provider: 'openai', model: 'gpt-5', samples: 2, schedule: '* * * * *' }) }),
    )
    const targetId = created.data.id
    // Read state from the database: polling through the API would spend the key's rate limit.
    const runs = () => handle.db.selectFrom('collection_run').selectAll().where('workspace_id', '=', collecting.id).orderBy('created_at').execute()
    const deadline = Date.now() + 150_000
    // A new target waits for its next minute; every instance checks every 2 s.
    while (!(await runs()).some((run) => run.state === 'succeeded')) {
      if (Date.now() > deadline) throw new Error(`no scheduled run finished: ${JSON.stringify(await runs())}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect((await request(next(), `/api/v1/collection/targets/${targetId}`, key, { method: 'PATCH', body: JSON.stringify({ enabled: false }) })).status).toBe(200)
    // Let a slot that was being claimed meanwhile finish, then count.
    await new Promise((resolve) => setTimeout(resolve, 5000))
    while ((await runs()).some((run) => run.state === 'queued' || run.state === 'running')) {
      if (Date.now() > deadline) throw new Error(`runs did not finish: ${JSON.stringify(await runs())}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    const all = await runs()
    // Each minute's slot made one run, whichever instance claimed it.
    const slots = new Set(all.map((run) => new Date(run.created_at).toISOString().slice(0, 16)))
    expect(all.every((run) => run.trigger === 'schedule' && run.state === 'succeeded')).toBe(true)
    expect(all.length).toBe(slots.size)
    // Each answer asked once: prompts × samples per run, each prompt exactly samples times per run.
    const asked = provider.requests.filter((r) => r.path.endsWith('/responses') && r.headers.authorization === 'Bearer sk-scale-out')
    expect(asked).toHaveLength(all.length * prompts.length * 2)
    for (const text of prompts) expect(asked.filter((r) => String(promptOf(r.body)).includes(text))).toHaveLength(all.length * 2)
    const stored = await handle.db.selectFrom('response').select('external_id').where('workspace_id', '=', collecting.id).execute()
    expect(stored).toHaveLength(all.length * prompts.length * 2)
    expect(new Set(stored.map((r) => r.external_id)).size).toBe(stored.length)
  }, 200_000)
})
