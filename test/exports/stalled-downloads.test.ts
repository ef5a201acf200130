// A client that opens an export and stops reading must not hold a cursor, a database
// session and a concurrency slot for as long as it stays connected (issue 17): after
// EXPORT_STALL_SECONDS without progress the download is cut and everything is given back.
// And one workspace's downloads cannot take every slot of the instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import pg from 'pg'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'
import { eventually } from '../helpers/wait.js'

const ROWS = 20_000
const PERIOD = 'date_from=2026-05-01&date_to=2026-05-31'
const STALL_MS = 1500

describe.each(testBackends)('stalled export downloads (%s)', (backend) => {
  let ctx: TestContext
  let base: string
  let keyA: string
  let keyB: string
  beforeAll(async () => {
    ctx = await createTestContext(backend, {
      exportConcurrency: 4,
      exportConcurrencyPerWorkspace: 2,
      exportStallMs: STALL_MS,
      exportQuotaPerHour: 1000,
      rateLimitPerMinute: 100_000,
    })
    const a = await ctx.tenant({ name: 'Stalled' })
    const b = await ctx.tenant({ name: 'Other' })
    keyA = a.key
    keyB = b.key
    const db = ctx.database.db
    for (const tenant of [a, b]) {
      const promptId = await createPrompt(ctx, tenant.key, 'Best CRM for startups?', ['crm'])
      await db.insertInto('model').values({ workspace_id: tenant.workspaceId, id: 'gpt-4o', provider: 'openai', name: 'GPT-4o' }).execute()
      // ~1 KB answers: 20 MB per file, far more than the socket buffers hold, so a client
      // that stops reading really stops the server's generator.
      await sql`
        insert into response (workspace_id, id, prompt_id, provider, model, content, created_at, sentiment)
        select ${tenant.workspaceId}, gen_random_uuid(), ${promptId}, 'openai', 'gpt-4o',
          'Answer ' || i || ': ' || repeat(md5(i::text) || ' ', 30),
          timestamptz '2026-05-01 00:00:00+00' + i * interval '2 minutes',
          0.1
        from generate_series(1, ${ROWS}) as i`.execute(db)
    }
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
  }, 300_000)
  afterAll(() => ctx.close())

  /**
   * Opens a download, reads its first bytes, then stops reading. (Such a client never sees
   * the cut itself: the connection's end waits behind the data it does not read. What
   * matters is what the server gives back.)
   */
  const openStalled = (key: string) =>
    new Promise<{ response: http.IncomingMessage; request: http.ClientRequest }>((resolve, reject) => {
      const request = http.get(`${base}/api/v1/exports/chat-responses?${PERIOD}`, { headers: { authorization: `Bearer ${key}` } }, (response) => {
        response.on('error', () => {})
        response.once('data', () => {
          response.pause()
          resolve({ response, request })
        })
      })
      request.on('error', () => {})
      request.on('error', reject)
    })

  const exportStatus = async (key: string) => (await ctx.get(`/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-01`, key)).statusCode

  /** sessions other than the test's own that are inside a transaction or running a query */
  async function busySessions(): Promise<number> {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query ilike '%response%'`,
      )
      return Number(rows[0].n)
    } finally {
      await admin.end()
    }
  }

  it('cuts downloads whose clients stop reading, and gives back their slots and sessions', async () => {
    const openedAt = Date.now()
    const stalled = [await openStalled(keyA), await openStalled(keyA)]
    // Both of the workspace's slots are held while the clients are not reading.
    expect(await exportStatus(keyA)).toBe(503)
    if (backend === 'postgres') expect(await busySessions()).toBeGreaterThan(0)
    await eventually(async () => (await exportStatus(keyA)) === 200, STALL_MS + 5000, 50)
    const freedAfter = Date.now() - openedAt
    // Cut by the stall limit: not before it, and soon after it.
    expect(freedAfter).toBeGreaterThanOrEqual(STALL_MS)
    expect(freedAfter).toBeLessThan(STALL_MS + 5000)
    if (backend === 'postgres') await eventually(async () => (await busySessions()) === 0, 3000, 50)
    for (const download of stalled) download.request.destroy()
  }, 60_000)

  it("limits one workspace's concurrent exports, and others' exports still run", async () => {
    const held = [await openStalled(keyA), await openStalled(keyA)]
    const refused = await ctx.get(`/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-01`, keyA)
    expect(refused.statusCode).toBe(503)
    expect(refused.json().error.code).toBe('export_unavailable')
    expect(refused.json().error.message).toMatch(/This workspace already has 2 exports/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // Another workspace is not starved while the first one's downloads are stalled.
    expect(await exportStatus(keyB)).toBe(200)
    for (const download of held) download.request.destroy()
    await eventually(async () => (await exportStatus(keyA)) === 200, 5000, 50)
  }, 60_000)
})
