import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { LightMyRequestResponse } from 'fastify'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { SCOPES } from '../../src/auth/scopes.js'

const URL = '/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-02'
const POLICY = '"exports";q=10;w=3600'

/** The rate-limit headers of a file export response, parsed. */
function limitHeaders(response: LightMyRequestResponse) {
  const match = /^"exports";r=(\d+);t=(\d+)$/.exec(String(response.headers.ratelimit))
  expect(match, `RateLimit header: ${response.headers.ratelimit}`).not.toBeNull()
  return {
    policy: response.headers['ratelimit-policy'],
    r: Number(match![1]),
    t: Number(match![2]),
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
    reset: Number(response.headers['x-ratelimit-reset']),
  }
}

describe.each(testBackends)('export quota (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { exportQuotaPerHour: 10, exportConcurrency: 100, exportConcurrencyPerWorkspace: 100, rateLimitPerMinute: 100_000 })
  })
  afterAll(() => ctx.close())

  /** downloads the strict quota has logged for the workspace */
  const loggedDownloads = async (workspaceId: string) =>
    Number(
      (
        await ctx.database.db
          .selectFrom('export_log')
          .select(sql<number>`count(*)`.as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('lets exactly 10 of 30 concurrent downloads through, shared by the keys of the workspace', async () => {
    const tenant = await ctx.tenant()
    const responses = await Promise.all(Array.from({ length: 30 }, () => ctx.get(URL, tenant.key)))
    const ok = responses.filter((r) => r.statusCode === 200)
    const limited = responses.filter((r) => r.statusCode === 429)
    expect(ok).toHaveLength(10)
    expect(limited).toHaveLength(20)

    // Each success saw a different number of slots left: 9, 8, … 0.
    const okHeaders = ok.map(limitHeaders)
    expect(okHeaders.map((h) => h.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    for (const h of okHeaders) {
      expect(h).toMatchObject({ policy: POLICY, limit: 10, r: h.remaining })
      expect(h.reset).toBe(h.t)
      // t is 0 while slots remain; the last one waits for the oldest download to age out.
      if (h.remaining > 0) expect(h.t).toBe(0)
      else expect(h.t).toBeGreaterThanOrEqual(3598)
    }
    for (const response of ok) expect(response.body.startsWith('date,brand_name,')).toBe(true)

    for (const response of limited) {
      expect(response.headers['content-type']).toContain('application/json')
      expect(response.json().error.code).toBe('export_quota_exceeded')
      const h = limitHeaders(response)
      const retryAfter = Number(response.headers['retry-after'])
      expect(h).toMatchObject({ policy: POLICY, limit: 10, remaining: 0, r: 0 })
      expect(retryAfter).toBeGreaterThanOrEqual(3598)
      expect(retryAfter).toBeLessThanOrEqual(3600)
      expect(h.t).toBe(retryAfter)
      expect(h.reset).toBe(retryAfter)
    }

    // A second key of the same workspace shares the quota.
    const second = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: [...SCOPES] })
    const shared = await ctx.get(URL, second.key)
    expect(shared.statusCode).toBe(429)
    expect(shared.json().error.code).toBe('export_quota_exceeded')

    // Metadata routes do not count and are not limited.
    for (const suffix of ['statistics', 'manifest', 'schema']) {
      expect((await ctx.get(URL.replace('?', `/${suffix}?`), tenant.key)).statusCode).toBe(200)
    }

    // Another workspace is unaffected.
    const other = await ctx.tenant()
    const otherResponse = await ctx.get(URL, other.key)
    expect(otherResponse.statusCode).toBe(200)
    expect(limitHeaders(otherResponse).remaining).toBe(9)

    // Exactly the successes were logged.
    expect(await loggedDownloads(tenant.workspaceId)).toBe(10)
  })

  it('is a sliding window: a slot frees when the oldest download is an hour old', async () => {
    const tenant = await ctx.tenant()
    for (let i = 0; i < 10; i++) expect((await ctx.get(URL, tenant.key)).statusCode).toBe(200)
    // Age the log: one entry 3,000 s old, the rest 1,000 s old.
    const db = ctx.database.db
    await sql`update export_log set created_at = now() - interval '1000 seconds' where workspace_id = ${tenant.workspaceId}`.execute(db)
    await sql`update export_log set created_at = now() - interval '3000 seconds'
              where workspace_id = ${tenant.workspaceId} and id = (select id from export_log where workspace_id = ${tenant.workspaceId} order by id limit 1)`.execute(db)
    const limited = await ctx.get(URL, tenant.key)
    expect(limited.statusCode).toBe(429)
    // The oldest entry leaves the window in 3,600 - 3,000 = 600 s.
    const retryAfter = Number(limited.headers['retry-after'])
    expect(retryAfter).toBeGreaterThanOrEqual(599)
    expect(retryAfter).toBeLessThanOrEqual(601)

    // Once it is older than the window, exactly one download fits again.
    await sql`update export_log set created_at = now() - interval '3601 seconds'
              where workspace_id = ${tenant.workspaceId} and created_at < now() - interval '2000 seconds'`.execute(db)
    const freed = await ctx.get(URL, tenant.key)
    expect(freed.statusCode).toBe(200)
    const h = limitHeaders(freed)
    expect(h.remaining).toBe(0)
    // Now the oldest entries in the window are the 1,000 s old ones: 2,600 s to go.
    expect(h.t).toBeGreaterThanOrEqual(2599)
    expect(h.t).toBeLessThanOrEqual(2601)
    expect((await ctx.get(URL, tenant.key)).statusCode).toBe(429)
  })

  it('HEAD never takes a slot: 12 probes leave all 10 downloads', async () => {
    const tenant = await ctx.tenant()
    const head = () => ctx.app.inject({ method: 'HEAD', url: URL, headers: { authorization: `Bearer ${tenant.key}` } })
    for (let i = 0; i < 12; i++) {
      const probe = await head()
      expect(probe.statusCode).toBe(200)
      expect(probe.body).toBe('')
      expect(probe.headers['content-disposition']).toBe('attachment; filename="dashboard-graph_2026-05-01_2026-05-02.csv"')
      expect(limitHeaders(probe)).toMatchObject({ policy: POLICY, limit: 10, remaining: 10, t: 0 })
    }
    for (let i = 9; i >= 0; i--) {
      const download = await ctx.get(URL, tenant.key)
      expect(download.statusCode).toBe(200)
      expect(limitHeaders(download).remaining).toBe(i)
    }
    // With the window full, HEAD reports what a download would get, and still takes nothing.
    const full = await head()
    expect(full.statusCode).toBe(429)
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(3598)
    expect(await loggedDownloads(tenant.workspaceId)).toBe(10)
  })

  it('refuses without counting when the parameters are wrong', async () => {
    const tenant = await ctx.tenant()
    expect((await ctx.get('/api/v1/exports/dashboard-graph?date_from=2026-05-02&date_to=2026-05-01', tenant.key)).statusCode).toBe(400)
    const response = await ctx.get(URL, tenant.key)
    expect(limitHeaders(response).remaining).toBe(9)
  })
})

describe.each(testBackends)('export quota store unreachable (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { exportQuotaPerHour: 10 })
  })
  afterAll(() => ctx.close())

  it('answers 503 export_unavailable with Retry-After, never a file', async () => {
    const tenant = await ctx.tenant()
    expect((await ctx.get(URL, tenant.key)).statusCode).toBe(200)
    await sql`drop table export_log`.execute(ctx.database.db)
    for (const type of ['chat-responses', 'sources-citations', 'dashboard-graph', 'prompts-mentions']) {
      const response = await ctx.get(`/api/v1/exports/${type}?date_from=2026-05-01&date_to=2026-05-02`, tenant.key)
      expect(response.statusCode).toBe(503)
      expect(response.headers['content-type']).toContain('application/json')
      expect(response.headers['content-disposition']).toBeUndefined()
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      const body = response.json()
      expect(body.success).toBe(false)
      expect(body.error.code).toBe('export_unavailable')
      expect(body.error.message).not.toMatch(/export_log|relation|does not exist/)
    }
    // Metadata does not depend on the quota store.
    expect((await ctx.get(URL.replace('?', '/statistics?'), tenant.key)).statusCode).toBe(200)
  })
})
