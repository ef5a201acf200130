// On PGlite every query runs on the one JavaScript thread. An export must give the event
// loop a turn between its pages, so other requests (another workspace's reads, /healthz)
// are answered while it streams instead of after the whole file (issue 18).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { createTestContext, type TestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'

const ROWS = 20_000

describe('a PGlite export and concurrent reads interleave', () => {
  let ctx: TestContext
  let base: string
  let exporter: { key: string }
  let reader: { key: string }
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { exportQuotaPerHour: 1000, rateLimitPerMinute: 1_000_000 })
    exporter = await ctx.tenant()
    reader = await ctx.tenant()
    const promptId = await createPrompt(ctx, exporter.key, 'Best CRM?', ['crm'])
    const owner = (await ctx.database.db.selectFrom('prompt').select('workspace_id').where('id', '=', promptId).executeTakeFirstOrThrow()).workspace_id
    await ctx.database.db.insertInto('model').values({ workspace_id: owner, id: 'gpt-4o', provider: 'openai', name: 'GPT-4o' }).execute()
    await sql`
      insert into response (workspace_id, id, prompt_id, provider, model, content, created_at, sentiment)
      select ${owner}, gen_random_uuid(), ${promptId}, 'openai', 'gpt-4o', 'Answer ' || i || ', ' || repeat(md5(i::text) || ' ', 10),
        timestamptz '2026-05-01 00:00:00+00' + i * interval '2 minutes', 0.1
      from generate_series(1, ${ROWS}) as i`.execute(ctx.database.db)
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
  }, 120_000)
  afterAll(() => ctx.close())

  const get = (path: string, key?: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }, (response) => {
          response.resume()
          response.on('end', () => resolve(response.statusCode ?? 0))
        })
        .on('error', reject)
    })

  it('answers other requests between the pages of an export', async () => {
    // Count the export's page queries as PGlite runs them.
    const pglite = ctx.database.connection.pglite
    if (!pglite) throw new Error('expected PGlite')
    const query = pglite.query
    let pages = 0
    pglite.query = ((text: string, ...rest: unknown[]) => {
      // The keyset page query of chat-responses (the first page has no cursor).
      if (String(text).includes('_after_created_at')) pages += 1
      return (query as (...args: unknown[]) => unknown).call(pglite, text, ...rest)
    }) as typeof pglite.query
    try {
      let exportDone = false
      const download = get('/api/v1/exports/chat-responses?date_from=2026-05-01&date_to=2026-06-30', exporter.key).then((status) => {
        exportDone = true
        return status
      })
      // Each read is sent during the export; how many pages the export ran while the read
      // waited says whether it was let in between pages or had to wait for the file.
      const waits: number[] = []
      let answered = 0
      while (!exportDone) {
        const before = pages
        const [health, filters] = await Promise.all([get('/healthz'), get('/api/v1/filters', reader.key)])
        expect(health).toBe(200)
        expect(filters).toBe(200)
        if (!exportDone) {
          answered += 1
          waits.push(pages - before)
        }
      }
      expect(await download).toBe(200)
      expect(pages).toBeGreaterThan(50) // the file really was many pages
      expect(answered).toBeGreaterThanOrEqual(10)
      // A read never waited for more than a few of the export's pages.
      expect(Math.max(...waits)).toBeLessThanOrEqual(5)
    } finally {
      pglite.query = query
    }
  }, 120_000)
})
