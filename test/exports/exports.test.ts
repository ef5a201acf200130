import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import type { LightMyRequestResponse } from 'fastify'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { roundPosition, roundSentiment } from '../../src/queries/rounding.js'
import { CONTENT, P1_TEXT, P2_TEXT, RANGE, seedExportFixture, type ExportFixture } from './fixture.js'

const PERIOD = `date_from=${RANGE.from}&date_to=${RANGE.to}`
const TYPES = ['chat-responses', 'sources-citations', 'dashboard-graph', 'prompts-mentions'] as const
const COLUMNS = {
  'chat-responses': ['id', 'provider', 'model', 'prompt_id', 'prompt_text', 'response_text', 'mentions', 'sentiment', 'created_at'],
  'sources-citations': ['url', 'domain', 'title', 'response_id', 'provider', 'citation_date'],
  'dashboard-graph': ['date', 'brand_name', 'visibility_score', 'mention_count', 'sentiment_avg', 'position_avg'],
  'prompts-mentions': ['prompt_id', 'prompt_text', 'brand_name', 'mention_count', 'avg_sentiment', 'avg_position'],
}
const TYPE_HINTS = {
  'chat-responses': ['uuid', 'string', 'string', 'uuid', 'string', 'string', 'json', 'float', 'datetime'],
  'dashboard-graph': ['date', 'string', 'float', 'integer', 'float', 'float'],
  'prompts-mentions': ['uuid', 'string', 'string', 'integer', 'float', 'float'],
}

const parseExport = (response: LightMyRequestResponse, delimiter = ','): string[][] => parse(response.rawPayload, { bom: true, delimiter, record_delimiter: ['\r\n', '\n', '\r'] })

const mean = (values: (number | null)[]) => {
  const present = values.filter((v): v is number => v !== null)
  return present.reduce((a, b) => a + b, 0) / present.length
}
const sentimentCell = (value: number | null) => (value === null ? '' : String(roundSentiment(value)))

describe.each(testBackends)('exports (%s)', (backend) => {
  let ctx: TestContext
  let fx: ExportFixture
  beforeAll(async () => {
    // Many downloads from one workspace here; the quota has its own suite.
    ctx = await createTestContext(backend, { exportQuotaPerHour: 1000, rateLimitPerMinute: 100_000 })
    fx = await seedExportFixture(ctx)
  })
  afterAll(() => ctx.close())

  const download = async (type: string, query = '') => {
    const response = await ctx.get(`/api/v1/exports/${type}?${PERIOD}${query}`, fx.key)
    expect(response.statusCode, response.body).toBe(200)
    return response
  }
  const rowsOf = async (type: string, query = '') => {
    const [header, ...rows] = parseExport(await download(type, query))
    expect(header).toEqual(COLUMNS[type as keyof typeof COLUMNS])
    return rows
  }
  const statistics = async (type: string, query = '') => {
    const response = await ctx.get(`/api/v1/exports/${type}/statistics?${PERIOD}${query}`, fx.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  describe('chat-responses', () => {
    it('has one row per response in the range, full text, mentions by position, in created_at order', async () => {
      const rows = await rowsOf('chat-responses')
      const s = fx.sentiment
      expect(rows).toEqual([
        [fx.ids.r1, 'openai', 'gpt-4o', fx.p1, P1_TEXT, CONTENT.r1, '["Globex","Acme"]', sentimentCell(s.r1), '2026-05-01T09:00:00.000Z'],
        [fx.ids.r2, 'anthropic', 'claude-sonnet-4', fx.p1, P1_TEXT, CONTENT.r2, '["Acme"]', sentimentCell(s.r2), '2026-05-01T15:00:00.000Z'],
        // A text cell starting with "-" is neutralized with a leading apostrophe.
        [fx.ids.r3, 'openai', 'gpt-4o', fx.p2, P2_TEXT, `'${CONTENT.r3}`, '["Globex","Acme"]', sentimentCell(s.r3), '2026-05-02T08:00:00.000Z'],
        [fx.ids.r4, 'google', 'gemini-2.5-pro', fx.p2, P2_TEXT, '', '[]', '', '2026-05-02T12:00:00.000Z'],
        [fx.ids.r5, 'perplexity', 'sonar', fx.p1, P1_TEXT, CONTENT.r5, '[]', sentimentCell(s.r5), '2026-05-03T23:59:59.000Z'],
      ])
      expect(s.r4).toBeNull()
      expect(s.r1).not.toBeNull()
      expect(JSON.parse(rows[0][6])).toEqual(['Globex', 'Acme'])
    })

    it('filters by provider, tag and has_content', async () => {
      const ids = async (query: string) => (await rowsOf('chat-responses', query)).map((r) => r[0])
      expect(await ids('&models=openai')).toEqual([fx.ids.r1, fx.ids.r3])
      expect(await ids('&models=anthropic,google')).toEqual([fx.ids.r2, fx.ids.r4])
      expect(await ids('&tags=db')).toEqual([fx.ids.r3, fx.ids.r4])
      expect(await ids('&tags=nope')).toEqual([])
      expect(await ids('&has_content=true')).toEqual([fx.ids.r1, fx.ids.r2, fx.ids.r3, fx.ids.r5])
      expect(await ids('&has_content=false')).toEqual([fx.ids.r4])
      expect(await ids('&has_content=true&models=openai&tags=crm')).toEqual([fx.ids.r1])
    })

    it('is TSV with a BOM and a type-hint row when asked', async () => {
      const response = await download('chat-responses', '&excel_compatible=true&include_type_hints=true')
      expect(response.headers['content-type']).toBe('text/tab-separated-values; charset=utf-8')
      expect(response.headers['content-disposition']).toBe(`attachment; filename="chat-responses_${RANGE.from}_${RANGE.to}.tsv"`)
      expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      const [header, hints, ...rows] = parseExport(response, '\t')
      expect(header).toEqual(COLUMNS['chat-responses'])
      expect(hints).toEqual(TYPE_HINTS['chat-responses'])
      // The same cells as the CSV file: the tab and newlines of r3 stay inside their cell.
      expect(rows).toEqual(await rowsOf('chat-responses'))
      expect(rows[2][5]).toBe(`'${CONTENT.r3}`)
    })
  })

  describe('sources-citations', () => {
    it('has one row per (response, url) with the response date, as CSV only', async () => {
      const response = await download('sources-citations')
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(response.headers['content-disposition']).toBe(`attachment; filename="sources-citations_${RANGE.from}_${RANGE.to}.csv"`)
      expect(response.rawPayload[0]).toBe('u'.charCodeAt(0)) // no BOM on CSV
      expect(response.body).toContain('"CRM, reviewed"')
      expect(parseExport(response).slice(1)).toEqual([
        ['https://g2.com/crm', 'g2.com', 'CRM, reviewed', fx.ids.r1, 'openai', '2026-05-01T09:00:00.000Z'],
        ['https://acme.com/pricing', 'acme.com', '', fx.ids.r3, 'openai', '2026-05-02T08:00:00.000Z'],
        ['https://en.wikipedia.org/wiki/CRM', 'wikipedia.org', '', fx.ids.r5, 'perplexity', '2026-05-03T23:59:59.000Z'],
      ])
      expect((await rowsOf('sources-citations', '&models=perplexity')).map((r) => r[0])).toEqual(['https://en.wikipedia.org/wiki/CRM'])
      expect((await rowsOf('sources-citations', '&tags=db')).map((r) => r[0])).toEqual(['https://acme.com/pricing'])
    })

    it('takes no format options', async () => {
      for (const option of ['excel_compatible=true', 'include_type_hints=false', 'has_content=true']) {
        const response = await ctx.get(`/api/v1/exports/sources-citations?${PERIOD}&${option}`, fx.key)
        expect(response.statusCode).toBe(400)
        expect(response.json().error).toMatchObject({ code: 'unknown_parameter', param: option.split('=')[0] })
      }
    })
  })

  describe('dashboard-graph', () => {
    const ms = (key: string) => fx.mentionSentiment[key]
    it('has every date × active brand, zero-filled, with the day metrics', async () => {
      const rows = await rowsOf('dashboard-graph')
      // 05-01: r1, r2 (2 responses). Acme in both: 100, 1 + 3 = 4 occurrences, positions (2 + 1) / 2.
      // Globex in r1 only: 50. 05-02: r3, r4 (2): Acme and Globex in r3: 50 each.
      // 05-03: r5 (1), nobody named. Initech is never named; Umbrella is inactive.
      expect(rows).toEqual([
        ['2026-05-01', 'Acme', '100', '4', sentimentCell(mean([ms('r1 Acme'), ms('r2 Acme')])), '1.5'],
        ['2026-05-01', 'Globex', '50', '1', sentimentCell(ms('r1 Globex')), '1'],
        ['2026-05-01', 'Initech', '0', '0', '0', '0'],
        ['2026-05-02', 'Acme', '50', '1', sentimentCell(ms('r3 Acme')), '2'],
        ['2026-05-02', 'Globex', '50', '1', sentimentCell(ms('r3 Globex')), '1'],
        ['2026-05-02', 'Initech', '0', '0', '0', '0'],
        ['2026-05-03', 'Acme', '0', '0', '0', '0'],
        ['2026-05-03', 'Globex', '0', '0', '0', '0'],
        ['2026-05-03', 'Initech', '0', '0', '0', '0'],
      ])
    })

    it('applies the filters to the denominator too', async () => {
      // openai: 05-01 has r1 only, 05-02 r3 only, so both brands are at 100 those days.
      const openai = await rowsOf('dashboard-graph', '&models=openai')
      expect(openai.map((r) => [r[0], r[1], r[2], r[3], r[5]])).toEqual([
        ['2026-05-01', 'Acme', '100', '1', '2'],
        ['2026-05-01', 'Globex', '100', '1', '1'],
        ['2026-05-01', 'Initech', '0', '0', '0'],
        ['2026-05-02', 'Acme', '100', '1', '2'],
        ['2026-05-02', 'Globex', '100', '1', '1'],
        ['2026-05-02', 'Initech', '0', '0', '0'],
        ['2026-05-03', 'Acme', '0', '0', '0'],
        ['2026-05-03', 'Globex', '0', '0', '0'],
        ['2026-05-03', 'Initech', '0', '0', '0'],
      ])
      // tag db: r3, r4 on 05-02 only.
      const db = await rowsOf('dashboard-graph', '&tags=db')
      expect(db.filter((r) => r[3] !== '0').map((r) => [r[0], r[1], r[2]])).toEqual([
        ['2026-05-02', 'Acme', '50'],
        ['2026-05-02', 'Globex', '50'],
      ])
    })

    it('has a type-hint row and TSV when asked', async () => {
      const response = await download('dashboard-graph', '&include_type_hints=1')
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(parseExport(response)[1]).toEqual(TYPE_HINTS['dashboard-graph'])
      const tsv = await download('dashboard-graph', '&excel_compatible=1')
      expect(tsv.headers['content-disposition']).toBe(`attachment; filename="dashboard-graph_${RANGE.from}_${RANGE.to}.tsv"`)
      expect(parseExport(tsv, '\t')).toEqual(parseExport(await download('dashboard-graph')))
    })

    it('sums to the dashboard mention counts for the same range and filters', async () => {
      for (const filter of ['', '&models=openai', '&tags=crm']) {
        const rows = await rowsOf('dashboard-graph', filter)
        const summed: Record<string, number> = {}
        for (const row of rows) summed[row[1]] = (summed[row[1]] ?? 0) + Number(row[3])
        const dashboard = await ctx.get(`/api/v1/dashboard?start_date=${RANGE.from}&end_date=${RANGE.to}${filter}`, fx.key)
        expect(dashboard.statusCode, dashboard.body).toBe(200)
        const brands = dashboard.json().data.brands as Record<string, { mention_count: number }>
        expect(Object.keys(brands).sort()).toEqual(Object.keys(summed).sort())
        for (const [name, metrics] of Object.entries(brands)) expect(summed[name], `${name}${filter}`).toBe(metrics.mention_count)
      }
      // By hand: Acme 4 + 1 = 5, Globex 1 + 1 = 2, Initech 0.
      const rows = await rowsOf('dashboard-graph')
      expect(rows.filter((r) => r[1] === 'Acme').reduce((n, r) => n + Number(r[3]), 0)).toBe(5)
    })
  })

  describe('prompts-mentions', () => {
    it('has every (prompt, active brand) with a mention, ordered by prompt text', async () => {
      const ms = (key: string) => fx.mentionSentiment[key]
      // P1: Acme in r1 (1 occurrence, position 2) and r2 (3, position 1); Globex in r1 (1, 1).
      // P2: Acme and Globex in r3.
      expect(await rowsOf('prompts-mentions')).toEqual([
        [fx.p1, P1_TEXT, 'Acme', '4', sentimentCell(mean([ms('r1 Acme'), ms('r2 Acme')])), '1.5'],
        [fx.p1, P1_TEXT, 'Globex', '1', sentimentCell(ms('r1 Globex')), '1'],
        [fx.p2, P2_TEXT, 'Acme', '1', sentimentCell(ms('r3 Acme')), String(roundPosition(2))],
        [fx.p2, P2_TEXT, 'Globex', '1', sentimentCell(ms('r3 Globex')), '1'],
      ])
      expect((await rowsOf('prompts-mentions', '&models=anthropic')).map((r) => [r[1], r[2], r[3]])).toEqual([[P1_TEXT, 'Acme', '3']])
      expect(await rowsOf('prompts-mentions', '&models=google')).toEqual([])
    })

    it('has a type-hint row when asked', async () => {
      expect(parseExport(await download('prompts-mentions', '&include_type_hints=true'))[1]).toEqual(TYPE_HINTS['prompts-mentions'])
    })
  })

  describe('metadata', () => {
    const filterSets = ['', '&models=openai', '&tags=db', '&models=perplexity,anthropic&tags=crm']

    it('statistics count exactly the rows of the file and estimate its size within 20%', async () => {
      for (const type of TYPES) {
        for (const filter of filterSets) {
          const stats = await statistics(type, filter)
          const file = await download(type, filter)
          expect(stats.data.total_rows, `${type}${filter}`).toBe(parseExport(file).length - 1)
          const bytes = file.rawPayload.length
          expect(Math.abs(stats.data.estimated_size_mb * 1_000_000 - bytes) / bytes, `${type}${filter}: ${stats.data.estimated_size_mb} MB vs ${bytes} bytes`).toBeLessThanOrEqual(
            0.2,
          )
          expect(stats.data.date_range).toEqual({ start: RANGE.from, end: RANGE.to })
        }
      }
      for (const filter of ['&has_content=true', '&has_content=false']) {
        expect((await statistics('chat-responses', filter)).data.total_rows).toBe(parseExport(await download('chat-responses', filter)).length - 1)
      }
    })

    it('statistics have exactly the spec fields, last_updated from ingestion or null', async () => {
      const started = Date.now() - 10 * 60_000
      const stats = await statistics('chat-responses')
      expect(Object.keys(stats).sort()).toEqual(['data', 'success'])
      expect(Object.keys(stats.data).sort()).toEqual(['date_range', 'estimated_size_mb', 'last_updated', 'total_rows'])
      expect(Date.parse(stats.data.last_updated)).toBeGreaterThan(started)
      expect(Date.parse(stats.data.last_updated)).toBeLessThanOrEqual(Date.now())
      const empty = await ctx.get('/api/v1/exports/chat-responses/statistics?date_from=2020-01-01&date_to=2020-01-02', fx.key)
      expect(empty.json().data).toMatchObject({ total_rows: 0, last_updated: null, date_range: { start: '2020-01-01', end: '2020-01-02' } })
      // dashboard-graph still has its zero rows on an empty period: 2 days × 3 active brands.
      const graph = await ctx.get('/api/v1/exports/dashboard-graph/statistics?date_from=2020-01-01&date_to=2020-01-02', fx.key)
      expect(graph.json().data.total_rows).toBe(6)
    })

    it('manifests carry version, statistics, refresh hints and the columns', async () => {
      const keys = { 'chat-responses': 'created_at', 'sources-citations': 'citation_date', 'dashboard-graph': 'date', 'prompts-mentions': '' }
      for (const type of TYPES) {
        const response = await ctx.get(`/api/v1/exports/${type}/manifest?${PERIOD}`, fx.key)
        expect(response.statusCode, response.body).toBe(200)
        const body = response.json()
        const stats = (await statistics(type)).data
        expect(body).toEqual({
          success: true,
          data: {
            manifest_version: '1.0',
            export_type: type,
            statistics: { total_rows: stats.total_rows, estimated_size_mb: stats.estimated_size_mb },
            refresh_hints: { recommended_interval_hours: 24, supports_incremental: type !== 'prompts-mentions', incremental_key: keys[type] },
            columns: COLUMNS[type].map((name) => ({ name, type: expect.any(String), nullable: expect.any(Boolean) })),
          },
        })
      }
      const chat = (await ctx.get(`/api/v1/exports/chat-responses/manifest?${PERIOD}`, fx.key)).json().data.columns
      expect(chat.map((c: { type: string }) => c.type)).toEqual(TYPE_HINTS['chat-responses'])
      expect(chat.filter((c: { nullable: boolean }) => c.nullable).map((c: { name: string }) => c.name)).toEqual(['sentiment'])
    })

    it('schema is Markdown with one table row per column', async () => {
      for (const type of TYPES) {
        const response = await ctx.get(`/api/v1/exports/${type}/schema?${PERIOD}`, fx.key)
        expect(response.statusCode, response.body).toBe(200)
        expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8')
        const lines = response.body.split('\n')
        expect(lines[0]).toMatch(/^# \S/)
        const table = lines.indexOf('| Column | Type | Nullable | Description |')
        expect(table).toBeGreaterThan(0)
        expect(lines[table + 1]).toBe('|---|---|---|---|')
        const rows = lines.slice(table + 2).filter((l) => l.startsWith('|'))
        expect(rows.map((l) => l.split('|')[1].trim())).toEqual(COLUMNS[type])
        for (const row of rows) expect(row.split(' | ')).toHaveLength(4)
      }
      expect((await ctx.get(`/api/v1/exports/chat-responses/schema?${PERIOD}&models=openai&tags=crm`, fx.key)).statusCode).toBe(200)
    })
  })

  describe('parameters and access', () => {
    it('requires date_from and date_to, in order', async () => {
      for (const type of TYPES) {
        for (const suffix of ['', '/statistics', '/manifest', '/schema']) {
          const missing = await ctx.get(`/api/v1/exports/${type}${suffix}?date_to=${RANGE.to}`, fx.key)
          expect(missing.statusCode).toBe(400)
          expect(missing.json().error).toMatchObject({ code: 'missing_parameter', param: 'date_from' })
        }
      }
      const reversed = await ctx.get('/api/v1/exports/chat-responses?date_from=2026-05-03&date_to=2026-05-01', fx.key)
      expect(reversed.statusCode).toBe(400)
      expect(reversed.json().error).toMatchObject({ code: 'invalid_parameter', param: 'date_from' })
      const bad = await ctx.get('/api/v1/exports/dashboard-graph?date_from=2026-02-30&date_to=2026-03-01', fx.key)
      expect(bad.json().error).toMatchObject({ code: 'invalid_parameter', param: 'date_from' })
    })

    it('rejects parameters the spec does not list for the route', async () => {
      const cases = [
        ['dashboard-graph', 'has_content=true'],
        ['prompts-mentions', 'model_ids=gpt-4o'],
        ['chat-responses', 'start_date=2026-05-01'],
        ['chat-responses/manifest', 'has_content=true'],
        ['chat-responses/manifest', 'excel_compatible=true'],
        ['dashboard-graph/statistics', 'include_type_hints=true'],
        ['dashboard-graph/schema', 'models=openai'],
        ['sources-citations/schema', 'tags=crm'],
      ]
      for (const [path, param] of cases) {
        const response = await ctx.get(`/api/v1/exports/${path}?${PERIOD}&${param}`, fx.key)
        expect(response.statusCode, `${path} ${param}`).toBe(400)
        expect(response.json().error).toMatchObject({ code: 'unknown_parameter', param: param.split('=')[0] })
      }
      const provider = await ctx.get(`/api/v1/exports/chat-responses?${PERIOD}&models=chatgpt`, fx.key)
      expect(provider.json().error).toMatchObject({ code: 'invalid_parameter', param: 'models' })
      const flag = await ctx.get(`/api/v1/exports/chat-responses?${PERIOD}&excel_compatible=yes`, fx.key)
      expect(flag.json().error).toMatchObject({ code: 'invalid_parameter', param: 'excel_compatible' })
    })

    it('needs read:analytics, export:data and a Premium workspace on every route', async () => {
      const basic = await ctx.tenant({ tier: 'basic' })
      const noExport = await ctx.tenant({ scopes: ['read:analytics'] })
      const noRead = await ctx.tenant({ scopes: ['export:data'] })
      for (const type of TYPES) {
        for (const suffix of ['', '/statistics', '/manifest', '/schema']) {
          const url = `/api/v1/exports/${type}${suffix}?${PERIOD}`
          expect((await ctx.get(url, basic.key)).json().error.code).toBe('plan_required')
          const scope = await ctx.get(url, noExport.key)
          expect(scope.statusCode).toBe(403)
          expect(scope.json().error.code).toBe('insufficient_scope')
          expect(scope.json().error.message).toContain('export:data')
          expect((await ctx.get(url, noRead.key)).json().error.code).toBe('insufficient_scope')
          expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401)
        }
      }
    })

    it("never shows another workspace's data", async () => {
      const other = await ctx.tenant()
      for (const type of TYPES) {
        const response = await ctx.get(`/api/v1/exports/${type}?${PERIOD}`, other.key)
        const rows = parseExport(response).slice(1)
        // dashboard-graph lists the other workspace's (no) brands: no rows at all.
        expect(rows, type).toEqual([])
      }
    })
  })

  it('agrees with /api/v1/responses on the number of responses', async () => {
    for (const filter of ['', '&models=openai', '&tags=db']) {
      const list = await ctx.get(`/api/v1/responses?start_date=${RANGE.from}&end_date=${RANGE.to}${filter}`, fx.key)
      expect(list.statusCode, list.body).toBe(200)
      expect((await statistics('chat-responses', filter)).data.total_rows).toBe(list.json().data.pagination.total_items)
    }
  })
})
