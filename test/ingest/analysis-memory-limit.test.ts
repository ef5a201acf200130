// A batch whose analysis needs more heap than an analysis thread may have
// (ANALYSIS_THREAD_HEAP_MB) is refused with a 413 that names the limit; the thread is
// replaced, not the process, and another workspace's batch that was queued behind it on the
// same thread is analysed on the replacement and stored (issue 33).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, post } from '../helpers/requests.js'
import { MIN_PARALLEL_BATCH, sharedAnalysisPool } from '../../src/analysis/analysis-pool.js'

// 64 MB holds the NLP model and any ordinary batch (a 200,000-character answer needs less
// than 48 MB). Answers that are nothing but distinct short URLs yield ~9,500 citations
// each: measured on one thread, 10 such answers fit in 64 MB and 20 do not (the 512 MB
// default takes 40). 44 of them are 22 per thread on two threads.
const HEAP_MB = 64

describe.each(testBackends)('analysis thread heap limit (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { analysisThreads: 2, analysisThreadHeapMb: HEAP_MB })
  })
  afterAll(() => ctx.close())

  it('refuses the batch over the limit with a 413 naming it, replaces the thread, and serves the other workspace', async () => {
    const heavy = await ctx.tenant({ name: 'Runaway' })
    const other = await ctx.tenant({ name: 'Neighbour' })
    const heavyPrompt = await createPrompt(ctx, heavy.key, 'Where to read?')
    const otherPrompt = await createPrompt(ctx, other.key, 'Best CRM?')
    const acme = await createBrand(ctx, other.key, { name: 'Acme' })
    const pool = sharedAnalysisPool(ctx.config.analysisThreads)
    await pool.warmUp()
    expect(pool.running).toBe(2)

    let n = 0
    const urls = () => {
      let text = 'Sources: '
      while (text.length < 199_000) text += `https://e${n % 100}.co/${n++} `
      return text
    }
    const answer = (promptId: string, content: string, i: number) => ({
      prompt_id: promptId,
      provider: 'openai',
      model: 'gpt-4o',
      content,
      created_at: `2026-06-01T10:00:${String(i % 60).padStart(2, '0')}Z`,
    })
    const runaway = Array.from({ length: 44 }, (_, i) => answer(heavyPrompt, urls(), i))
    const ordinary = Array.from({ length: MIN_PARALLEL_BATCH }, (_, i) => answer(otherPrompt, `Acme is reliable and fairly priced (${i}).`, i))

    // The runaway batch first, so the other one's share waits behind it on the same threads.
    const refused = post(ctx, '/api/v1/ingest/responses', heavy.key, { responses: runaway })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const served = post(ctx, '/api/v1/ingest/responses', other.key, { responses: ordinary })
    const [bad, good] = await Promise.all([refused, served])

    expect(bad.statusCode).toBe(413)
    expect(bad.json().error.code).toBe('payload_too_large')
    expect(bad.json().error.message).toContain(`ANALYSIS_THREAD_HEAP_MB = ${HEAP_MB} MB`)
    expect(good.statusCode).toBe(200)
    expect(good.json().data).toEqual({ accepted: MIN_PARALLEL_BATCH, duplicates: 0 })

    const db = ctx.database.db
    expect(await db.selectFrom('response').select('id').where('workspace_id', '=', heavy.workspaceId).execute()).toEqual([])
    const mentions = await db.selectFrom('mention').select(['brand_id', 'position']).where('workspace_id', '=', other.workspaceId).execute()
    expect(mentions).toHaveLength(MIN_PARALLEL_BATCH)
    expect(mentions.every((m) => m.brand_id === acme && m.position === 1)).toBe(true)

    // The pool is whole again and the refused workspace can ingest an ordinary batch.
    const again = await post(ctx, '/api/v1/ingest/responses', heavy.key, {
      responses: Array.from({ length: MIN_PARALLEL_BATCH }, (_, i) => answer(heavyPrompt, `See https://example.com/${i} for details.`, i)),
    })
    expect(again.statusCode).toBe(200)
    expect(pool.running).toBe(2)
  }, 180_000)
})
