// Competitor discovery through the API (docs/uncertainty-and-discovery.md): POST /api/v1/brands/discover queues the
// job, the job proposes brands with evidence, suggestions are listed, confirmed (re-analysis
// follows) or rejected (never proposed again), a re-run updates instead of duplicating, and
// workspaces and scopes hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, waitForJob, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post, settled } from '../helpers/requests.js'
import { startJobs } from '../../src/start-jobs.js'
import { corpus, precisionAndRecall } from '../helpers/discovery-corpus.js'

describe.each(testBackends)('competitor discovery routes (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  let other: { workspaceId: string; key: string }
  let reader: { key: string }

  const discover = async (key = tenant.key, workspaceId = tenant.workspaceId) => {
    const response = await post(ctx, '/api/v1/brands/discover', key, {})
    expect(response.statusCode, response.body).toBe(202)
    const job = await waitForJob(ctx, workspaceId, response.json().job.id)
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded')
    return { response, job }
  }
  const suggested = async (key = tenant.key) => {
    const response = await ctx.get('/api/v1/brands?discovery_status=suggested&is_active=false&per_page=100', key)
    expect(response.statusCode).toBe(200)
    return response.json().data.competitors as { id: string; name: string; is_active: boolean }[]
  }

  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000 }, { jobs: (database, config) => startJobs(config, database) })
    tenant = await ctx.tenant({ name: 'Mail tools' })
    other = await ctx.tenant({ name: 'Other' })
    reader = await ctx.tenant({ scopes: ['read:analytics'] })
    const promptId = await createPrompt(ctx, tenant.key, 'Best email marketing tool?', ['email'])
    for (const b of corpus.configured)
      await createBrand(ctx, tenant.key, { name: b.name, aliases: b.aliases, domain: b.domain, ...(b.name === 'Mailvio' ? { is_primary: true } : {}) })
    await ingest(
      ctx,
      tenant.key,
      corpus.answers.map((a, i) => ({
        external_id: a.id,
        prompt_id: promptId,
        provider: i % 2 ? 'openai' : 'anthropic',
        model: i % 2 ? 'gpt-4o' : 'claude-sonnet',
        content: a.content,
        created_at: a.created_at,
      })),
    )
  }, 120_000)
  afterAll(() => ctx.close())

  it('queues a job that proposes the unconfigured brands as inactive suggestions with evidence', async () => {
    const { response, job } = await discover()
    expect(response.json()).toMatchObject({ success: true, data: { suggested: 0 }, job: { state: 'queued' } })
    const progress = job.progress
    expect(progress.done).toBe(corpus.answers.length)
    expect(progress.total).toBe(corpus.answers.length)
    const result = job.result as { responses_scanned: number; suggested: number; updated: number; suggestions: { name: string }[] }
    expect(result.responses_scanned).toBe(corpus.answers.length)

    const listed = await suggested()
    expect(listed.length).toBe(result.suggested)
    expect(listed.every((b) => !b.is_active)).toBe(true)
    // Spec 2.3 record, exactly.
    const first = (await ctx.get('/api/v1/brands?discovery_status=suggested&is_active=false', tenant.key)).json().data.competitors[0]
    expect(Object.keys(first).sort()).toEqual(['domain', 'icon_url', 'id', 'is_active', 'is_primary', 'name'])
    const { precision, recall } = precisionAndRecall(listed.map((b) => b.name))
    expect(precision).toBeGreaterThanOrEqual(0.9)
    expect(recall).toBeGreaterThanOrEqual(0.8)
    // Suggestions stay out of the active list (spec default is_active=true).
    const active = (await ctx.get('/api/v1/brands?per_page=100', tenant.key)).json().data.competitors as { name: string }[]
    expect(active.map((b) => b.name).sort()).toEqual(corpus.configured.map((b) => b.name).sort())

    const brevoxa = listed.find((b) => b.name === 'Brevoxa')!
    const detail = await ctx.get(`/api/v1/brands/${brevoxa.id}`, tenant.key)
    expect(detail.statusCode).toBe(200)
    const evidence = detail.json().data.discovery
    expect(evidence.responses).toBe(corpus.answers.filter((a) => a.content.includes('Brevoxa')).length)
    expect(evidence.first_seen).toBe(new Date(Math.min(...corpus.answers.filter((a) => a.content.includes('Brevoxa')).map((a) => Date.parse(a.created_at)))).toISOString())
    expect(evidence.examples.length).toBe(3)
    for (const example of evidence.examples) {
      expect(example.snippet).toContain('Brevoxa')
      // The example points at a stored answer of this workspace that names it.
      const answer = await ctx.database.db
        .selectFrom('response')
        .select('content')
        .where('workspace_id', '=', tenant.workspaceId)
        .where('id', '=', example.response_id)
        .executeTakeFirstOrThrow()
      expect(answer.content).toContain('Brevoxa')
    }
    // A configured brand has no discovery evidence.
    const mailvio = (await ctx.get('/api/v1/brands', tenant.key)).json().data.competitors.find((b: { name: string }) => b.name === 'Mailvio')
    expect((await ctx.get(`/api/v1/brands/${mailvio.id}`, tenant.key)).json().data.discovery).toBeUndefined()
  }, 120_000)

  it('confirming adopts a suggestion (re-analysis follows); rejecting keeps it from coming back, and a re-run does not duplicate', async () => {
    const before = await suggested()
    const zestmail = before.find((b) => b.name === 'Zestmail')!
    const mailroo = before.find((b) => b.name === 'Mailroo')!

    const confirm = await post(ctx, `/api/v1/brands/${zestmail.id}`, tenant.key, { discovery_status: 'confirmed', is_active: true }, 'PATCH')
    expect(confirm.statusCode).toBe(200)
    expect(confirm.json().job).toMatchObject({ state: 'queued' })
    await settled(ctx, tenant.workspaceId, confirm)
    const dashboard = await ctx.get('/api/v1/dashboard?start_date=2026-05-01&end_date=2026-05-31', tenant.key)
    expect(dashboard.json().data.brands.Zestmail.mention_count).toBeGreaterThan(0)

    const reject = await post(ctx, `/api/v1/brands/${mailroo.id}`, tenant.key, { discovery_status: 'rejected' }, 'PATCH')
    expect(reject.statusCode).toBe(200)
    // Renamed after rejection: the name it was found under stays rejected.
    expect((await post(ctx, `/api/v1/brands/${mailroo.id}`, tenant.key, { name: 'Not a competitor' }, 'PATCH')).statusCode).toBe(200)

    const { job } = await discover()
    const result = job.result as { suggested: number; updated: number }
    expect(result.suggested).toBe(0)
    expect(result.updated).toBe(before.length - 2)
    const after = await suggested()
    expect(after.map((b) => b.id).sort()).toEqual(
      before
        .filter((b) => b.id !== zestmail.id && b.id !== mailroo.id)
        .map((b) => b.id)
        .sort(),
    )
    const all = (await ctx.get('/api/v1/brands?is_active=false&per_page=100', tenant.key)).json().data.competitors as { name: string }[]
    expect(all.filter((b) => b.name.toLowerCase() === 'mailroo')).toEqual([])
    expect((await ctx.get('/api/v1/brands?discovery_status=rejected&is_active=false', tenant.key)).json().data.competitors.map((b: { name: string }) => b.name)).toEqual([
      'Not a competitor',
    ])
  }, 120_000)

  it('is per workspace: another workspace finds nothing and cannot read or edit these suggestions', async () => {
    await discover(other.key, other.workspaceId)
    expect(await suggested(other.key)).toEqual([])
    const [one] = await suggested()
    expect((await ctx.get(`/api/v1/brands/${one.id}`, other.key)).statusCode).toBe(404)
    expect((await post(ctx, `/api/v1/brands/${one.id}`, other.key, { discovery_status: 'confirmed', is_active: true }, 'PATCH')).statusCode).toBe(404)
  }, 120_000)

  it('needs manage:workspace', async () => {
    const response = await post(ctx, '/api/v1/brands/discover', reader.key, {})
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('insufficient_scope')
  })
})
