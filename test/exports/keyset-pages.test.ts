import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { ingest } from '../helpers/requests.js'
import { EXPORT_DEFINITIONS } from '../../src/exports/definitions/index.js'
import { resolveExportFilters } from '../../src/exports/export-filters.js'
import type { ExportRow } from '../../src/exports/export-types.js'
import { openRowStream } from '../../src/exports/row-stream.js'
import { RANGE, seedExportFixture, type ExportFixture } from './fixture.js'

// PGlite reads exports in keyset pages, PostgreSQL through one cursor. Walking the pages
// with tiny limits must give exactly the rows of the single query, in the same order,
// also across ties of the leading key and sub-millisecond timestamps.
describe.each(testBackends)('export pages (%s)', (backend) => {
  let ctx: TestContext
  let fx: ExportFixture
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    fx = await seedExportFixture(ctx)
    // Ties: four more answers at r3's exact time, each naming both brands and citing two URLs.
    await ingest(
      ctx,
      fx.key,
      Array.from({ length: 4 }, (_, i) => ({
        external_id: `tie-${i}`,
        prompt_id: fx.p2,
        provider: 'openai',
        model: 'gpt-4o',
        content: `Acme and Globex, take ${i}. https://example.org/a https://example.org/b?n=${i}`,
        created_at: '2026-05-02T08:00:00Z',
      })),
    )
    // Two rows a microsecond apart, which an ISO string with milliseconds cannot tell apart.
    const [response] = await ctx.database.db.selectFrom('response').selectAll().where('workspace_id', '=', fx.workspaceId).where('external_id', '=', 'r1').execute()
    for (const micros of ['000001', '000002']) {
      const id = `${response.id.slice(0, 24)}${micros.padStart(12, '0')}`
      await sql`insert into response (workspace_id, id, prompt_id, provider, model, content, created_at)
                values (${fx.workspaceId}, ${id}, ${response.prompt_id}, 'openai', 'gpt-4o', ${`micro ${micros}`}, ${`2026-05-01 10:00:00.${micros}+00`}::timestamptz)`.execute(
        ctx.database.db,
      )
    }
  })
  afterAll(() => ctx.close())

  const filterSets = ['', 'models=openai', 'tags=db']

  it('pages of any size add up to the single query', async () => {
    const db = ctx.database.db
    for (const definition of EXPORT_DEFINITIONS) {
      for (const filter of filterSets) {
        const query = Object.fromEntries(new URLSearchParams(filter))
        const filters = resolveExportFilters({
          date_from: RANGE.from,
          date_to: RANGE.to,
          models: query.models ? [query.models] : undefined,
          tags: query.tags ? [query.tags] : undefined,
        })
        const source = definition.source(db, fx.workspaceId, filters)
        const strip = (rows: ExportRow[]) => rows.map((row) => definition.columns.map((c) => row[c.name]))
        const expected = strip((await db.executeQuery(source.all())).rows)
        expect(expected.length, `${definition.type} ${filter}`).toBeGreaterThan(filter === 'tags=db' && definition.type === 'dashboard-graph' ? 0 : 1)
        for (const limit of [1, 2, 3, 7]) {
          const walked: ExportRow[] = []
          let after: ExportRow | null = null
          for (let guard = 0; guard < 1000; guard++) {
            const page: ExportRow[] = (await db.executeQuery(source.page(after, limit))).rows
            walked.push(...page)
            if (page.length < limit) break
            after = page[page.length - 1]
          }
          expect(strip(walked), `${definition.type} ${filter} limit ${limit}`).toEqual(expected)
        }
      }
    }
  })

  it('the row stream of this backend gives the same rows in small batches', async () => {
    const db = ctx.database.db
    const filters = resolveExportFilters({ date_from: RANGE.from, date_to: RANGE.to })
    for (const definition of EXPORT_DEFINITIONS) {
      const source = definition.source(db, fx.workspaceId, filters)
      const strip = (rows: ExportRow[]) => rows.map((row) => definition.columns.map((c) => row[c.name]))
      const expected = strip((await db.executeQuery(source.all())).rows)
      const stream = await openRowStream(ctx.database, source, { batchSize: 2 })
      const streamed: ExportRow[] = []
      for await (const batch of stream) streamed.push(...batch)
      await stream.close()
      expect(strip(streamed), definition.type).toEqual(expected)
    }
  })
})
