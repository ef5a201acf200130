// PGlite: how long /healthz and another workspace's reads wait while a 100,000-row
// chat-responses export streams (issue 18 goal: /healthz p99 <= 200 ms, other reads <= 500 ms).
// npx tsx bench/export-interleave.ts [--rows 100000]
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { createTestContext } from '../test/helpers/test-app.js'
import { createPrompt, createBrand } from '../test/helpers/requests.js'

const rowsArg = process.argv.indexOf('--rows')
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 100_000
const ctx = await createTestContext('pglite', { exportQuotaPerHour: 1000, rateLimitPerMinute: 1_000_000 })
const a = await ctx.tenant()
const b = await ctx.tenant()
const promptId = await createPrompt(ctx, a.key, 'Best CRM?', ['crm'])
const brandId = await createBrand(ctx, a.key, { name: 'Acme' })
const db = ctx.database.db
await db.insertInto('model').values({ workspace_id: a.workspaceId, id: 'gpt-4o', provider: 'openai', name: 'GPT-4o' }).execute()
await sql`insert into response (workspace_id, id, prompt_id, provider, model, content, created_at, sentiment)
  select ${a.workspaceId}, gen_random_uuid(), ${promptId}, 'openai', 'gpt-4o', 'Answer ' || i || ', ' || repeat(md5(i::text) || ' ', 10),
  timestamptz '2026-05-01 00:00:00+00' + i * interval '20 seconds', 0.1 from generate_series(1, ${ROWS}) as i`.execute(db)
await sql`insert into mention (workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position, sentiment)
  select workspace_id, id, ${brandId}, prompt_id, provider, model, created_at, 1, 1, 0.5 from response where workspace_id = ${a.workspaceId} and right(id::text, 1) in ('0','1','2')`.execute(
  db,
)
await ctx.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
const get = (path: string, key?: string) =>
  new Promise<number>((resolve, reject) => {
    const t = performance.now()
    http
      .get(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
        res.resume()
        res.on('end', () => resolve(performance.now() - t))
      })
      .on('error', reject)
  })
let done = false
const health: number[] = [],
  reads: number[] = []
const exp = get('/api/v1/exports/chat-responses?date_from=2026-05-01&date_to=2026-06-30', a.key).then((ms) => {
  done = true
  return ms
})
const poll = (async () => {
  while (!done) {
    health.push(await get('/healthz'))
    await new Promise((r) => setTimeout(r, 20))
  }
})()
const poll2 = (async () => {
  while (!done) {
    reads.push(await get('/api/v1/filters', b.key))
    await new Promise((r) => setTimeout(r, 50))
  }
})()
const exportMs = await exp
await poll
await poll2
const p = (xs: number[], q: number) => xs.sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]
const result = {
  date: new Date().toISOString(),
  backend: 'pglite',
  rows: ROWS,
  exportMs: Math.round(exportMs),
  healthN: health.length,
  healthP50: p(health, 0.5),
  healthP99: p(health, 0.99),
  healthMax: Math.max(...health),
  readsN: reads.length,
  readP50: p(reads, 0.5),
  readP99: p(reads, 0.99),
  readMax: Math.max(...reads),
}
console.table({
  '/healthz': { n: result.healthN, p50: Math.round(result.healthP50), p99: Math.round(result.healthP99), max: Math.round(result.healthMax) },
  'other workspace /filters': { n: result.readsN, p50: Math.round(result.readP50), p99: Math.round(result.readP99), max: Math.round(result.readMax) },
})
console.log(`export of ${ROWS} rows took ${result.exportMs} ms`)
mkdirSync('bench/results', { recursive: true })
writeFileSync(`bench/results/${result.date.slice(0, 10)}-export-interleave-pglite.json`, JSON.stringify(result, null, 2))
await ctx.close()
