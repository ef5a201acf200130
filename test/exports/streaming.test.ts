import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import pg from 'pg'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { chatResponsesExport } from '../../src/exports/definitions/chat-responses.js'
import { eventually, sleep } from '../helpers/wait.js'

const ROWS = 100_000
const PERIOD = 'date_from=2026-05-01&date_to=2026-05-31'
const MB = 1024 * 1024

// A full collection before the baseline, so the baseline is live memory, not garbage.
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

describe.each(testBackends)('export streaming (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let base: string
  beforeAll(async () => {
    // One export at a time, so a slot that is not given back shows up as a 503.
    ctx = await createTestContext(backend, { exportConcurrency: 1, exportQuotaPerHour: 1000, rateLimitPerMinute: 100_000 })
    const tenant = await ctx.tenant()
    key = tenant.key
    const promptId = await createPrompt(ctx, key, 'Best CRM for startups?', ['crm'])
    const brandId = await createBrand(ctx, key, { name: 'Acme' })
    const db = ctx.database.db
    await db.insertInto('model').values({ workspace_id: tenant.workspaceId, id: 'gpt-4o', provider: 'openai', name: 'GPT-4o' }).execute()
    // Plain SQL, not analysis: ~1 KB answers with commas (so every one is quoted), one
    // per 20 s through May, and a mention of Acme in about a third (5 of 16 id endings).
    await sql`
      insert into response (workspace_id, id, prompt_id, provider, model, content, created_at, sentiment)
      select ${tenant.workspaceId}, gen_random_uuid(), ${promptId}, 'openai', 'gpt-4o',
        'Answer ' || i || ', in short: ' || repeat(md5(i::text) || ' ', 30),
        timestamptz '2026-05-01 00:00:00+00' + i * interval '20 seconds',
        ((i % 200) - 100) / 100.0
      from generate_series(1, ${ROWS}) as i`.execute(db)
    await sql`
      insert into mention (workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position, sentiment)
      select workspace_id, id, ${brandId}, prompt_id, provider, model, created_at, 1, 1, 0.5
      from response where workspace_id = ${tenant.workspaceId} and right(id::text, 1) in ('0', '1', '2', '3', '4')`.execute(db)
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
  }, 300_000)
  afterAll(() => ctx.close())

  const open = (path: string) =>
    new Promise<http.IncomingMessage & { request: http.ClientRequest }>((resolve, reject) => {
      const request = http.get(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } }, (response) => resolve(Object.assign(response, { request })))
      request.on('error', reject)
    })
  /** a small export that only succeeds when the single export slot is free */
  const slotIsFree = async () => (await ctx.get(`/api/v1/exports/dashboard-graph?date_from=2026-05-01&date_to=2026-05-01`, key)).statusCode === 200

  it(`streams ${ROWS.toLocaleString('en')} rows (over 100 MB) with flat memory`, async () => {
    const stats = (await ctx.get(`/api/v1/exports/chat-responses/statistics?${PERIOD}`, key)).json().data
    expect(stats.total_rows).toBe(ROWS)

    // A one-day export first: the one-time growth of a first export (the embedded database's
    // WASM memory, V8's young generation, the CSV writer's buffers) is not per-row growth.
    const warmUp = await ctx.get(`/api/v1/exports/chat-responses?date_from=2026-05-01&date_to=2026-05-01`, key)
    expect(warmUp.statusCode).toBe(200)
    collectGarbage()
    const baseline = process.memoryUsage()
    let peakRss = baseline.rss
    let peakHeap = baseline.heapUsed
    const sampler = setInterval(() => {
      const now = process.memoryUsage()
      peakRss = Math.max(peakRss, now.rss)
      peakHeap = Math.max(peakHeap, now.heapUsed)
    }, 10)
    let bytes = 0
    let lines = 0
    try {
      const response = await open(`/api/v1/exports/chat-responses?${PERIOD}`)
      expect(response.statusCode).toBe(200)
      for await (const chunk of response as AsyncIterable<Buffer>) {
        bytes += chunk.length
        // The generated answers hold no line breaks: one LF per record.
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1
      }
    } finally {
      clearInterval(sampler)
    }
    expect(lines).toBe(ROWS + 1)
    expect(bytes).toBeGreaterThan(100_000_000)
    // The estimate holds at this size too.
    expect(Math.abs(stats.estimated_size_mb * 1_000_000 - bytes) / bytes).toBeLessThan(0.2)
    const growth = { rssMb: (peakRss - baseline.rss) / MB, heapMb: (peakHeap - baseline.heapUsed) / MB }
    console.log(`[${backend}] ${(bytes / 1e6).toFixed(0)} MB streamed; peak growth RSS ${growth.rssMb.toFixed(1)} MB, heap ${growth.heapMb.toFixed(1)} MB`)
    expect(growth.rssMb).toBeLessThan(50)
    expect(growth.heapMb).toBeLessThan(50)
  }, 300_000)

  it('gives the cursor and the connection back at once when the client goes away', async () => {
    const pool = ctx.database.connection.pool
    const pids = new Set<number>()
    const onAcquire = (client: pg.PoolClient & { processID?: number }) => client.processID && pids.add(client.processID)
    pool?.on('acquire', onAcquire)
    const busyBefore = pool ? pool.totalCount - pool.idleCount : 0
    // PGlite: count the keyset pages the export asks for.
    const pglite = ctx.database.connection.pglite
    let pages = 0
    const query = pglite?.query
    if (pglite && query) {
      pglite.query = ((text: string, ...rest: unknown[]) => {
        if (String(text).includes('_after_created_at')) pages += 1
        return (query as (...args: unknown[]) => unknown).call(pglite, text, ...rest)
      }) as typeof pglite.query
    }

    const response = await open(`/api/v1/exports/chat-responses?${PERIOD}`)
    expect(response.statusCode).toBe(200)
    // Read 2 MB, then stop reading (breaking out of for-await would already close the socket).
    await new Promise<void>((resolve) => {
      let received = 0
      const onData = (chunk: Buffer) => {
        received += chunk.length
        if (received < 2 * MB) return
        response.off('data', onData)
        response.pause()
        resolve()
      }
      response.on('data', onData)
    })
    // Mid-download the export holds its slot.
    expect(await slotIsFree()).toBe(false)
    const abortedAt = Date.now()
    response.request.destroy()

    if (pool) {
      await eventually(() => pool.totalCount - pool.idleCount === busyBefore, 2000)
      pool.off('acquire', onAcquire)
      // The connections the export used are idle on the server: no transaction, no portal.
      // The one that ran the COPY was dropped mid-file; its backend goes once its next write
      // finds the socket closed, tens of ms later on a loaded machine (until then it is
      // 'active', which is what a leaked COPY would stay).
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
      await admin.connect()
      try {
        const states = async () => (await admin.query<{ state: string }>('select state from pg_stat_activity where pid = any($1)', [[...pids]])).rows.map((row) => row.state)
        await eventually(async () => (await states()).every((state) => state === 'idle'), 2000).catch(() => {})
        const rows = await states()
        expect(rows.length).toBeGreaterThan(0)
        for (const state of rows) expect(state).toBe('idle')
      } finally {
        await admin.end()
      }
    }
    await eventually(slotIsFree, 2000)
    expect(Date.now() - abortedAt).toBeLessThan(2000)
    if (pglite && query) {
      // No page is read after the client left, and far from all of them were read before.
      const seen = pages
      await sleep(300)
      pglite.query = query
      expect(pages).toBe(seen)
      expect(seen).toBeGreaterThan(0)
      expect(seen * chatResponsesExport.batchRows).toBeLessThan(ROWS / 2)
    }
  }, 60_000)

  it('frees the slot and the connection when the client leaves before the first byte', async () => {
    const pool = ctx.database.connection.pool
    const busyBefore = pool ? pool.totalCount - pool.idleCount : 0
    // Leave at different points: during authentication, the quota check, opening the cursor.
    for (const delay of [0, 2, 5, 10, 20, 40]) {
      await new Promise<void>((resolve) => {
        const request = http.get(`${base}/api/v1/exports/chat-responses?${PERIOD}`, { headers: { authorization: `Bearer ${key}` } })
        request.on('error', () => resolve())
        request.on('response', (response) => {
          response.destroy()
          resolve()
        })
        request.on('socket', (socket) => socket.on('connect', () => setTimeout(() => request.destroy(), delay)))
      })
      await eventually(slotIsFree, 3000)
      if (pool) await eventually(() => pool.totalCount - pool.idleCount === busyBefore, 3000)
    }
  }, 60_000)

  it('answers 503 export_unavailable over the concurrency cap, and frees the slot afterwards', async () => {
    const slow = await open(`/api/v1/exports/chat-responses?${PERIOD}`)
    expect(slow.statusCode).toBe(200)
    slow.pause() // a client that does not read: backpressure keeps the export in flight

    const busy = await ctx.get(`/api/v1/exports/prompts-mentions?${PERIOD}`, key)
    expect(busy.statusCode).toBe(503)
    expect(busy.json().error.code).toBe('export_unavailable')
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(busy.headers['content-disposition']).toBeUndefined()
    // Metadata is not gated.
    expect((await ctx.get(`/api/v1/exports/chat-responses/statistics?${PERIOD}`, key)).statusCode).toBe(200)

    slow.request.destroy()
    await eventually(slotIsFree, 2000)
  }, 60_000)
})
