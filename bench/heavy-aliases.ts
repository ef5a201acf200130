// A workspace at the brand limits (500 brands × 50 aliases of 200 characters): how long an
// ingest call takes, and how /healthz answers meanwhile and during a brand edit's
// re-analysis job (issue 17: "at the limit, ingest and /healthz stay responsive").
// npx tsx bench/heavy-aliases.ts [--answers 2000]   (embedded PGlite, in memory)
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createTestContext, waitForJob } from '../test/helpers/test-app.js'
import { createPrompt, post } from '../test/helpers/requests.js'
import { startJobs } from '../src/start-jobs.js'
import { MAX_ALIASES_PER_BRAND, MAX_BRANDS_PER_WORKSPACE, MAX_TERM_LENGTH } from '../src/core/limits.js'

const { values } = parseArgs({ options: { answers: { type: 'string', default: '2000' } } })
const ANSWERS = Number(values.answers)
const BATCH = 100

const ctx = await createTestContext('pglite', { jobsWorker: true, rateLimitPerMinute: 1_000_000 }, { jobs: (database, config) => startJobs(config, database) })
const tenant = await ctx.tenant()
const db = ctx.database.db
// Brands named "Brand 0" … with aliases padded to the length limit.
await sql`
  insert into brand (workspace_id, id, name, aliases, is_primary, is_active, discovery_status)
  select ${tenant.workspaceId}, gen_random_uuid(), 'Brand ' || b,
    array(select rpad('Brand ' || b || ' alias ' || a || ' ', ${MAX_TERM_LENGTH}, 'x') from generate_series(1, ${MAX_ALIASES_PER_BRAND}) as a),
    false, true, 'confirmed'
  from generate_series(0, ${MAX_BRANDS_PER_WORKSPACE - 1}) as b`.execute(db)
const promptId = await createPrompt(ctx, tenant.key, 'Which tool?', ['tools'])
await ctx.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`

const healthz = () =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    http.get(`${base}/healthz`, (res) => res.resume().on('end', () => resolve(performance.now() - started))).on('error', reject)
  })
async function probeWhile<T>(work: Promise<T>): Promise<{ result: T; samples: number[] }> {
  let done = false
  const samples: number[] = []
  const probing = (async () => {
    while (!done) {
      samples.push(await healthz())
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })()
  const result = await work.finally(() => (done = true))
  await probing
  return { result, samples }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN
const round = (x: number) => Math.round(x * 10) / 10

let serial = 0
const ingestAll = async () => {
  const calls: number[] = []
  for (let sent = 0; sent < ANSWERS; sent += BATCH) {
    const responses = Array.from({ length: BATCH }, () => {
      serial += 1
      return {
        prompt_id: promptId,
        provider: 'openai',
        model: 'gpt-4o',
        content: `For this, Brand ${serial % 500} is good and Brand ${(serial * 7) % 500} alias 3 is pricier. Brand ${(serial * 13) % 500} also works.`,
        created_at: new Date(Date.UTC(2026, 4, 1 + (serial % 28))).toISOString(),
      }
    })
    const started = performance.now()
    const response = await post(ctx, '/api/v1/ingest/responses', tenant.key, { responses })
    if (response.statusCode !== 200) throw new Error(`ingest: ${response.statusCode} ${response.body}`)
    calls.push(performance.now() - started)
  }
  return calls
}

const ingest = await probeWhile(ingestAll())
const brandId = (await db.selectFrom('brand').select('id').where('workspace_id', '=', tenant.workspaceId).where('name', '=', 'Brand 1').executeTakeFirstOrThrow()).id
const editStarted = performance.now()
const edit = await post(ctx, `/api/v1/brands/${brandId}`, tenant.key, { aliases: ['Brand one'] }, 'PATCH')
const editMs = performance.now() - editStarted
const job = await probeWhile(waitForJob(ctx, tenant.workspaceId, edit.json().job.id, 600_000))

const result = {
  date: new Date().toISOString(),
  backend: 'pglite',
  brands: MAX_BRANDS_PER_WORKSPACE,
  aliasesPerBrand: MAX_ALIASES_PER_BRAND,
  aliasLength: MAX_TERM_LENGTH,
  answers: ANSWERS,
  ingestCallMs: { p50: round(pct(ingest.result, 0.5)), p99: round(pct(ingest.result, 0.99)), max: round(Math.max(...ingest.result)) },
  ingestAnswersPerSecond: Math.round((ANSWERS / ingest.result.reduce((a, b) => a + b, 0)) * 1000),
  healthzDuringIngestMs: { n: ingest.samples.length, p50: round(pct(ingest.samples, 0.5)), p99: round(pct(ingest.samples, 0.99)), max: round(Math.max(...ingest.samples)) },
  brandEditMs: round(editMs),
  reanalysis: { state: job.result.state, seconds: (job.result.result as { seconds?: number } | null)?.seconds },
  healthzDuringReanalysisMs: { n: job.samples.length, p50: round(pct(job.samples, 0.5)), p99: round(pct(job.samples, 0.99)), max: round(Math.max(...job.samples)) },
}
console.log(JSON.stringify(result, null, 2))
mkdirSync('bench/results', { recursive: true })
writeFileSync(`bench/results/${result.date.slice(0, 10)}-heavy-aliases-pglite.json`, JSON.stringify(result, null, 2))
await ctx.close()
