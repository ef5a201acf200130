// Re-analysis as a background job, through the API: the brand write answers with a queued
// job, GET /api/v1/jobs/{id} follows it, and the job's end state equals a full re-analysis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, waitForJob, type TestContext } from '../helpers/test-app.js'
import { createPrompt, ingest, post } from '../helpers/requests.js'
import { startJobs } from '../../src/start-jobs.js'
import { JobRuntime } from '../../src/jobs/job-runtime.js'
import { REANALYSIS } from '../../src/jobs/job-names.js'
import { reanalysisJob } from '../../src/jobs/reanalysis-job.js'
import type { JobContext } from '../../src/jobs/job-runtime.js'
import { reanalyzeWorkspace } from '../../src/ingest/reanalyze.js'
import type { DB } from '../../src/db/database.js'
import { createApiKey } from '../../src/admin/api-key-store.js'

const RESPONSES = 120

/** Every brand fact and rollup row of the workspace, in a stable order. */
async function snapshot(db: DB, workspaceId: string) {
  const tables = ['mention', 'aio_appearance', 'daily_mention_stats', 'daily_brand_totals', 'monthly_mention_stats', 'daily_response_stats']
  const out: Record<string, unknown[]> = {}
  for (const table of tables) {
    const { rows } = await sql<{ row: string }>`select to_jsonb(t) - 'id' as row from ${sql.table(table)} t where workspace_id = ${workspaceId}`.execute(db)
    out[table] = rows.map((r) => JSON.stringify(r.row)).sort()
  }
  return out
}

describe.each(testBackends)('re-analysis job (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  let other: { workspaceId: string; key: string }
  let observations = 0

  /** A worker instance running the real re-analysis job in batches, calling `observe` after each checkpoint. */
  const startObservedWorker = (batchSize: number, observe: (job: JobContext, done: number, total: number) => Promise<void>) => {
    const real = reanalysisJob({ batchSize })
    return JobRuntime.start({
      database: ctx.database,
      schema: ctx.config.jobsSchema,
      connectionString: ctx.config.databaseUrl,
      worker: true,
      pollingIntervalSeconds: 1,
      handlers: {
        [REANALYSIS]: (job) =>
          real({
            ...job,
            get stopping() {
              return job.stopping
            },
            async checkpoint(done, total) {
              await job.checkpoint(done, total)
              await observe(job, done, total)
            },
          }),
      },
    })
  }

  beforeAll(async () => {
    // This instance only queues; a second runtime plays the worker instance below.
    ctx = await createTestContext(backend, { jobsWorker: false })
    tenant = await ctx.tenant()
    other = await ctx.tenant()
    const promptId = await createPrompt(ctx, tenant.key, 'best project tool', ['pm'])
    expect((await post(ctx, '/api/v1/brands', tenant.key, { name: 'Acme', is_primary: true })).statusCode).toBe(201)
    const responses = Array.from({ length: RESPONSES }, (_, i) => ({
      external_id: `r${i}`,
      prompt_id: promptId,
      provider: i % 2 ? 'openai' : 'anthropic',
      model: i % 2 ? 'gpt-4o' : 'claude-sonnet',
      content: i % 3 === 0 ? `Zenith is great. Acme is fine too (${i}).` : i % 3 === 1 ? `Acme leads; Nova Labs follows (${i}).` : `Nothing to say (${i}).`,
      created_at: new Date(Date.UTC(2026, 4, 1 + (i % 20), 10)).toISOString(),
    }))
    for (let i = 0; i < responses.length; i += 50) await ingest(ctx, tenant.key, responses.slice(i, i + 50))
    const aio = Array.from({ length: 30 }, (_, i) => ({
      external_id: `a${i}`,
      prompt_id: promptId,
      observed_at: new Date(Date.UTC(2026, 4, 1 + i, 8)).toISOString(),
      has_aio: true,
      overview_text: 'Picks: Zenith, Acme.',
    }))
    observations = aio.length
    expect((await post(ctx, '/api/v1/ingest/aio', tenant.key, { observations: aio })).statusCode).toBe(200)
  })
  afterAll(() => ctx.close())

  it('a brand write answers at once with a queued job that GET /jobs/{id} shows; other workspaces get 404', async () => {
    const started = Date.now()
    const created = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Zenith' })
    expect(created.statusCode).toBe(201)
    const body = created.json()
    expect(body.data.name).toBe('Zenith')
    expect(body.job).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), state: 'queued' })
    expect(Date.now() - started).toBeLessThan(5_000)
    // Nothing is re-analysed yet: no worker runs on this instance.
    const zenith = await ctx.database.db
      .selectFrom('mention')
      .select(sql<number>`count(*)`.as('n'))
      .where('workspace_id', '=', tenant.workspaceId)
      .where('brand_id', '=', body.data.id)
      .executeTakeFirstOrThrow()
    expect(zenith.n).toBe(0)

    const shown = await ctx.get(`/api/v1/jobs/${body.job.id}`, tenant.key)
    expect(shown.statusCode).toBe(200)
    expect(shown.json()).toEqual({
      success: true,
      data: {
        id: body.job.id,
        type: 'reanalysis',
        state: 'queued',
        progress: { done: 0, total: 0 },
        created_at: expect.any(String),
        started_at: null,
        finished_at: null,
        error: null,
        result: null,
      },
    })
    // A read-only key of the workspace may look too.
    const reader = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['read:analytics'] })
    expect((await ctx.get(`/api/v1/jobs/${body.job.id}`, reader.key)).json().data.id).toBe(body.job.id)
    for (const url of [`/api/v1/jobs/${body.job.id}`, '/api/v1/jobs/not-a-uuid', '/api/v1/jobs/00000000-0000-4000-8000-000000000000']) {
      const response = await ctx.get(url, other.key)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'not_found', message: 'Job not found', request_id: expect.any(String) } })
    }
    // A write that changes nothing matching sees queues nothing and carries no job field.
    const cosmetic = await post(ctx, `/api/v1/brands/${body.data.id}`, tenant.key, { icon_url: 'https://zenith.example/icon.png' }, 'PATCH')
    expect(cosmetic.statusCode).toBe(200)
    expect(cosmetic.json()).not.toHaveProperty('job')
    // Another edit while the job is queued joins it: it has not read the brands yet.
    const second = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Nova Labs' })
    expect(second.json().job.id).toBe(body.job.id)
  })

  it('the job runs on a worker instance in batches, reports progress and ends equal to a full re-analysis', async () => {
    const jobId = (await ctx.database.db.selectFrom('job').select('id').where('workspace_id', '=', tenant.workspaceId).executeTakeFirstOrThrow()).id
    const seen: { done: number; total: number; apiState: string; apiDone: number }[] = []
    const worker = await startObservedWorker(25, async (_job, done, total) => {
      const api = (await ctx.get(`/api/v1/jobs/${jobId}`, tenant.key)).json().data
      seen.push({ done, total, apiState: api.state, apiDone: api.progress.done })
    })
    try {
      const job = await waitForJob(ctx, tenant.workspaceId, jobId)
      expect(job).toMatchObject({ state: 'succeeded', error: null, result: { responses: RESPONSES, observations } })
      const total = RESPONSES + observations
      expect(job.progress).toEqual({ done: total, total })
      expect(job.started_at).not.toBeNull()
      expect(new Date(job.finished_at!).getTime()).toBeGreaterThanOrEqual(new Date(job.started_at!).getTime())
      // One checkpoint before the first batch, then one per batch of 25, moving forward.
      expect(seen.map((s) => s.done)).toEqual([0, 25, 50, 75, 100, 120, 145, 150])
      expect(seen.every((s) => s.total === total && s.apiState === 'running' && s.apiDone === s.done)).toBe(true)
    } finally {
      await worker.stop()
    }
    const afterJob = await snapshot(ctx.database.db, tenant.workspaceId)
    const brands = await ctx.database.db.selectFrom('brand').select(['id', 'name']).where('workspace_id', '=', tenant.workspaceId).execute()
    const mentioned = new Set(afterJob.mention.map((m) => JSON.parse(m as string).brand_id))
    // Both brands added after ingestion are in history now, Nova Labs too (it joined the job).
    expect(
      brands
        .filter((b) => mentioned.has(b.id))
        .map((b) => b.name)
        .sort(),
    ).toEqual(['Acme', 'Nova Labs', 'Zenith'])
    await reanalyzeWorkspace(ctx.database.db, tenant.workspaceId)
    expect(await snapshot(ctx.database.db, tenant.workspaceId)).toEqual(afterJob)
    // The dashboard answers from the new data (cached answers were invalidated).
    const dashboard = (await ctx.get('/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31', tenant.key)).json()
    expect(dashboard.success).toBe(true)
  })

  it('a prompt tag change rebuilds the tag rollups in its own transaction: no job, and no window with stale numbers', async () => {
    const promptId = await createPrompt(ctx, tenant.key, 'another question', ['a'])
    const tagged = await post(ctx, `/api/v1/prompts/${promptId}`, tenant.key, { tags: ['b'] }, 'PATCH')
    expect(tagged.statusCode).toBe(200)
    expect(tagged.json()).not.toHaveProperty('job')
    const text = await post(ctx, `/api/v1/prompts/${promptId}`, tenant.key, { text: 'another question, reworded' }, 'PATCH')
    expect(text.json()).not.toHaveProperty('job')
  })

  it('GET /jobs/{id} is in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(doc.paths['/api/v1/jobs/{job_id}'].get.responses['200']).toBeDefined()
    expect(Object.keys(doc.paths['/api/v1/brands'].post.responses['201'].content['application/json'].schema.properties)).toContain('job')
  })

  it('startJobs with a worker runs the default handlers (the serve wiring)', async () => {
    const t = await ctx.tenant()
    const runtime = await startJobs({ ...ctx.config, jobsWorker: true }, ctx.database)
    try {
      const job = await runtime.enqueue(ctx.database.db, t.workspaceId, REANALYSIS)
      const done = await waitForJob(ctx, t.workspaceId, job.id)
      expect(done).toMatchObject({ state: 'succeeded', result: { responses: 0, observations: 0 }, progress: { done: 0, total: 0 } })
    } finally {
      await runtime.stop()
    }
  })

  it('an edit while the job runs queues another that runs after it; the end state is a full re-analysis', async () => {
    const t = await ctx.tenant()
    const promptId = await createPrompt(ctx, t.key, 'q')
    await ingest(
      ctx,
      t.key,
      Array.from({ length: 60 }, (_, i) => ({
        external_id: `e${i}`,
        prompt_id: promptId,
        provider: 'openai',
        model: 'gpt-4o',
        content: `Orbit and Quasar compete (${i}).`,
        created_at: '2026-05-02T10:00:00Z',
      })),
    )
    const first = (await post(ctx, '/api/v1/brands', t.key, { name: 'Orbit' })).json().job.id as string
    let second: string | undefined
    const worker = await startObservedWorker(20, async (job, done) => {
      // Mid-way through the first job, someone adds a brand.
      if (job.jobId === first && done === 20 && !second) second = (await post(ctx, '/api/v1/brands', t.key, { name: 'Quasar' })).json().job.id
    })
    try {
      expect((await waitForJob(ctx, t.workspaceId, first)).state).toBe('succeeded')
      expect(second).toBeDefined()
      expect(second).not.toBe(first)
      expect((await waitForJob(ctx, t.workspaceId, second!)).state).toBe('succeeded')
    } finally {
      await worker.stop()
    }
    const afterJobs = await snapshot(ctx.database.db, t.workspaceId)
    expect(afterJobs.mention).toHaveLength(120)
    await reanalyzeWorkspace(ctx.database.db, t.workspaceId)
    expect(await snapshot(ctx.database.db, t.workspaceId)).toEqual(afterJobs)
  })

  /** Runs the job handler directly, `duringCheckpoint` committing an edit while it runs. */
  async function runJob(workspaceId: string, jobId: string, duringCheckpoint: (enqueued: string[]) => Promise<void>) {
    const enqueued: string[] = []
    const result = await reanalysisJob()({
      jobId,
      workspaceId,
      db: ctx.database.db,
      stopping: false,
      tasks: {
        send: () => Promise.reject(new Error('the re-analysis job queues no tasks')),
      },
      checkpoint: () => duringCheckpoint(enqueued),
      async enqueue(type) {
        enqueued.push(type)
        return { id: '00000000-0000-4000-8000-000000000002', state: 'queued' }
      },
    })
    return { enqueued, result }
  }

  it('a brand change that joined the job after it read the brands gets a follow-up job', async () => {
    const t = await ctx.tenant()
    const { enqueued, result } = await runJob(t.workspaceId, '00000000-0000-4000-8000-000000000001', async (enqueued) => {
      // Commits while the job runs, as an edit whose enqueue joined this (then queued) job.
      if (!enqueued.length)
        await ctx.database.db
          .insertInto('brand')
          .values({ workspace_id: t.workspaceId, id: '00000000-0000-4000-8000-0000000000b1', name: 'Late' })
          .onConflict((oc) => oc.doNothing())
          .execute()
    })
    expect(enqueued).toEqual([REANALYSIS])
    expect(result).toMatchObject({ follow_up_job_id: '00000000-0000-4000-8000-000000000002' })
  })

  it('a cosmetic brand edit during the job (icon, primary) queues no follow-up job', async () => {
    const t = await ctx.tenant()
    const id = '00000000-0000-4000-8000-0000000000c1'
    await ctx.database.db
      .insertInto('brand')
      .values({ workspace_id: t.workspaceId, id, name: 'Steady', aliases: ['Steady Co'] })
      .execute()
    const { enqueued, result } = await runJob(t.workspaceId, '00000000-0000-4000-8000-000000000003', async () => {
      // A new row version of the brand (its fingerprint moves), nothing matching reads.
      await ctx.database.db
        .updateTable('brand')
        .set({ icon_url: 'https://steady.example/icon.png', is_primary: true })
        .where('workspace_id', '=', t.workspaceId)
        .where('id', '=', id)
        .execute()
    })
    expect(enqueued).toEqual([])
    expect(result).not.toHaveProperty('follow_up_job_id')
  })
})
