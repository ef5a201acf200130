// Responses are inserted as one array parameter per column (insertIdempotent): text that
// looks like array syntax or NULL must come back exactly as sent, on every backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { ingestResponses } from '../../src/ingest/ingest-responses.js'
import { AnalysisPool } from '../../src/analysis/analysis-pool.js'

describe.each(testBackends)('column-array insert of responses (%s)', (backend) => {
  let ctx: TestContext
  const pool = new AnalysisPool(0)
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  it('stores every text exactly, nulls as null, and skips stored external ids', async () => {
    const db = ctx.database.db
    const { workspaceId } = await ctx.tenant()
    const promptId = crypto.randomUUID()
    await db.insertInto('prompt').values({ workspace_id: workspaceId, id: promptId, text: 'Best CRM?' }).execute()
    const texts = ['NULL', 'null', '', '{a,b}', '{"x": "y"}', 'a "quoted" \\ backslash', "it's", 'ünïcödé 😀 小米', '  padded  ', 'two\nlines\r\n']
    const items = texts.map((content, i) => ({
      external_id: i === 0 ? 'NULL' : i === 1 ? null : `t-${i}`,
      prompt_id: promptId,
      provider: 'openai',
      model: 'gpt-4o',
      content,
      created_at: `2026-06-0${1 + (i % 9)}T10:00:00.123Z`,
    }))
    expect(await ingestResponses(db, workspaceId, items, { pool })).toEqual({ accepted: texts.length, duplicates: 0 })
    const stored = await db.selectFrom('response').select(['content', 'external_id', 'created_at', 'sentiment']).where('workspace_id', '=', workspaceId).execute()
    const byContent = new Map(stored.map((r) => [r.content, r]))
    for (const item of items) {
      const row = byContent.get(item.content)
      expect(row, JSON.stringify(item.content)).toBeDefined()
      expect(row?.external_id).toBe(item.external_id)
      expect(row?.created_at.toISOString()).toBe(item.created_at)
    }
    expect(byContent.get('')?.sentiment).toBeNull()
    // Items with an external id are duplicates now; the one without is stored again.
    expect(await ingestResponses(db, workspaceId, items, { pool })).toEqual({ accepted: 1, duplicates: texts.length - 1 })
  })
})
