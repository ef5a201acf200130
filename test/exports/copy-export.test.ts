// On a PostgreSQL server the file is written by COPY (src/exports/copy-export.ts). It must
// be the same bytes the CSV writer (csv-writer.ts) writes from the same rows: every export
// type, CSV and TSV with type hints, on text that needs quoting, formula neutralization,
// JSON escaping and float rounding at its edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { EXPORT_DEFINITIONS } from '../../src/exports/definitions/index.js'
import { createExportWriter } from '../../src/exports/csv-writer.js'
import { resolveExportFilters, type ExportQuery } from '../../src/exports/export-filters.js'
import { openRowStream } from '../../src/exports/row-stream.js'
import { roundedFloatCell } from '../../src/exports/copy-export.js'
import { CopyOutStream, createCopyOutDecoder } from '../../src/exports/copy-out-stream.js'
import { COLLECT_EVERY_BYTES, copyReads } from '../../src/exports/young-garbage.js'
import { roundPosition, roundScore, roundSentiment } from '../../src/queries/rounding.js'

/**
 * One backend message: its code, its length (itself included) and its content. The shape and
 * the codes used below (CopyOutResponse 'H', CopyData 'd', NoticeResponse 'N', ParameterStatus
 * 'S', CopyDone 'c', ErrorResponse 'E', CommandComplete 'C', ReadyForQuery 'Z') are
 * PostgreSQL 15's "Frontend/Backend Protocol", 55.7 Message Formats
 * (postgresql.org/docs/15/protocol-message-formats.html); the COPY flow is 55.2.6.
 */
function message(code: string, content: Buffer | string): Buffer {
  const body = Buffer.from(content)
  const header = Buffer.alloc(5)
  header.write(code, 0, 'latin1')
  header.writeUInt32BE(body.length + 4, 1)
  return Buffer.concat([header, body])
}

describe('COPY protocol to CRLF records', () => {
  // One CopyData message per row, as a backend sends them; LFs inside quoted cells stay.
  const rows = ['a,"b\nc",d\n', '"x""\n",y,\n', ',,"\n"\n', 'last,"",z\n', '\n']
  const expected = 'a,"b\nc",d\r\n"x""\n",y,\r\n,,"\n"\r\nlast,"",z\r\n\r\n'
  const after = Buffer.concat([message('C', 'COPY 5\0'), message('Z', 'I')])
  const stream = Buffer.concat([
    message('H', Buffer.from([0, 0, 3, 0, 0, 0, 0, 0, 0])),
    message('d', rows[0]),
    message('d', rows[1]),
    // Messages a backend may send in the middle of a COPY carry nothing for the file.
    message('N', 'SNOTICE\0Mhello\0\0'),
    message('S', 'TimeZone\0UTC\0'),
    message('d', rows[2]),
    message('d', rows[3]),
    message('d', rows[4]),
    message('c', ''),
    after,
  ])

  /** The stream decoded in the given pieces: the rows' text, how it ended, and the bytes handed back. */
  function decodeIn(views: Buffer[]) {
    // Each piece a read of its own, as the socket gives them: the decoder writes over it.
    const pieces = views.map((view) => Buffer.from(view))
    const decode = createCopyOutDecoder()
    const out: Buffer[] = []
    let ended: { done: boolean; rest: Buffer } | undefined
    const handedBack: Buffer[] = []
    for (const piece of pieces) {
      if (ended) {
        handedBack.push(piece)
        continue
      }
      const chunk = decode(piece)
      out.push(chunk.rows)
      if (chunk.ended) {
        ended = chunk.ended
        handedBack.push(chunk.ended.rest)
      }
    }
    return { text: Buffer.concat(out).toString(), ended, handedBack: Buffer.concat(handedBack) }
  }

  it('adds a CR to each row end and to no newline inside quotes, and hands back what follows CopyDone, wherever the reads split', () => {
    for (let a = 0; a <= stream.length; a++) {
      for (let b = a; b <= stream.length; b++) {
        const { text, ended, handedBack } = decodeIn([stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)])
        expect(text).toBe(expected)
        expect(ended?.done).toBe(true)
        expect(handedBack.equals(after)).toBe(true)
      }
    }
  })

  it('stops at an ErrorResponse and hands it back unread, with the rows before it', () => {
    const error = Buffer.concat([message('E', 'SERROR\0C57014\0Mcanceling statement\0\0'), message('Z', 'E')])
    const failing = Buffer.concat([message('H', Buffer.from([0, 0, 0])), message('d', rows[0]), error])
    for (let a = 0; a <= failing.length; a++) {
      const { text, ended, handedBack } = decodeIn([failing.subarray(0, a), failing.subarray(a)])
      // The last row's LF when there is room for it before the error, which is handed back whole.
      expect(['a,"b\nc",d\r\n', 'a,"b\nc",d\r']).toContain(text)
      expect(ended?.done).toBe(false)
      expect(handedBack.equals(error)).toBe(true)
    }
  })

  it('refuses a row that does not end with a line feed', () => {
    expect(() => createCopyOutDecoder()(message('d', 'a,b'))).toThrow(/line feed/)
  })
})

const postgresOnly = testBackends.filter((backend) => backend === 'postgres')

describe.skipIf(postgresOnly.length === 0).each(postgresOnly)('exports written by COPY (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let workspaceId: string
  const PERIOD = { date_from: '2026-05-01', date_to: '2026-05-03' }

  beforeAll(async () => {
    ctx = await createTestContext(backend, { exportQuotaPerHour: 1000 })
    const tenant = await ctx.tenant()
    key = tenant.key
    workspaceId = tenant.workspaceId
    const db = ctx.database.db
    await db.insertInto('model').values({ workspace_id: workspaceId, id: 'gpt-4o', provider: 'openai', name: 'GPT-4o' }).execute()
    // Names and texts that need quoting, escaping or neutralizing in both formats.
    const brandNames = ['Acme', 'Quote "Co"', 'Comma, Inc', 'Tab\tCo', '=SUM(A1)', 'Back\\slash', 'Ünïcode 🚀', 'Line\nBreak', 'ctrl\u0001char', '@home', '-minus']
    // The last brand is inactive: its mentions stay in the table but never in a file.
    const brands = [...brandNames, 'Gone Co'].map((name, i) => ({ workspace_id: workspaceId, id: randomUUID(), name, is_active: i < brandNames.length }))
    await db.insertInto('brand').values(brands).execute()
    const promptTexts = ['Plain prompt', '=HYPERLINK("x")', '+1 prompt', '\tTabbed, "quoted"', '\rCR first', 'multi\r\nline']
    const prompts = promptTexts.map((text, i) => ({ workspace_id: workspaceId, id: randomUUID(), text, tags: i % 2 ? ['a'] : ['b', 'c'] }))
    await db.insertInto('prompt').values(prompts).execute()
    const contents = [
      '',
      'plain',
      'comma, here',
      'quote " here',
      'tab\there',
      'crlf\r\nhere',
      '=1+1',
      '-5 reasons',
      '@mention',
      '\u00e9t\u00e9 🚀',
      'lone\rcr',
      'x'.repeat(5000) + '\n',
    ]
    const sentiments = [null, 0.0005, -0.0005, 0.1235, -0.1235, 1 / 3, -1 / 3, 0.9995, -0.9995, 1, -1, 0, 0.0015, 0.2675, 1e-7, -1e-7, 0.0045, 0.1 + 0.2]
    const responses = Array.from({ length: 120 }, (_, i) => ({
      workspace_id: workspaceId,
      id: randomUUID(),
      prompt_id: prompts[i % prompts.length].id,
      provider: ['openai', 'anthropic', 'google'][i % 3],
      model: 'gpt-4o',
      content: contents[i % contents.length],
      // Same-second pairs, so the id breaks ties.
      created_at: new Date(Date.UTC(2026, 4, 1 + (i % 3), 10, 0, Math.floor(i / 6))),
      sentiment: sentiments[i % sentiments.length],
    }))
    await db.insertInto('response').values(responses).execute()
    const mentions = responses.flatMap((response, i) =>
      brands
        .filter((_, b) => (i + b) % 3 === 0)
        .map((brand, p) => ({
          workspace_id: workspaceId,
          response_id: response.id,
          brand_id: brand.id,
          prompt_id: response.prompt_id,
          provider: response.provider,
          model: response.model,
          created_at: response.created_at,
          occurrences: 1 + ((i + p) % 4),
          // Ties in position, ordered by name.
          position: 1 + Math.floor(p / 2),
          sentiment: sentiments[(i + p) % sentiments.length],
        })),
    )
    // Answers that name only the inactive brand ("[]" in the file, as answers naming nobody).
    const onlyInactive = [0, 1, 2].map((i) => ({ ...responses[i], id: randomUUID(), content: `only the inactive brand ${i}` }))
    await db.insertInto('response').values(onlyInactive).execute()
    const inactive = brands[brands.length - 1]
    for (const response of onlyInactive) {
      mentions.push({
        ...mentions[0],
        response_id: response.id,
        brand_id: inactive.id,
        prompt_id: response.prompt_id,
        provider: response.provider,
        created_at: response.created_at,
        position: 1,
      })
    }
    await db.insertInto('mention').values(mentions).execute()
    const citations = responses.slice(0, 60).map((response, i) => ({
      workspace_id: workspaceId,
      response_id: response.id,
      url: `https://example.com/${i % 2 ? 'a,b' : '"q"'}/${i}`,
      domain: i % 3 ? 'example.com' : '=evil.com',
      title: i % 2 ? 'Title, with "quotes"' : '',
      prompt_id: response.prompt_id,
      provider: response.provider,
      model: response.model,
      created_at: response.created_at,
    }))
    await db.insertInto('citation').values(citations).execute()
    await sql`analyze`.execute(db)
  }, 120_000)
  afterAll(() => ctx?.close())

  /** The file as the CSV writer writes it from the definition's rows. */
  async function writerFile(type: string, query: ExportQuery): Promise<Buffer> {
    const definition = EXPORT_DEFINITIONS.find((d) => d.type === type)!
    const excel = definition.formatOptions && query.excel_compatible === true
    const writer = createExportWriter(definition.columns, { format: excel ? 'tsv' : 'csv', typeHints: definition.formatOptions && query.include_type_hints === true })
    const rows = await openRowStream(ctx.database, definition.source(ctx.database.db, workspaceId, resolveExportFilters(query)), { batchSize: 7 })
    let text = writer.preamble()
    for await (const batch of rows) text += writer.records(batch)
    return Buffer.from(text)
  }

  const variants: [string, Partial<ExportQuery>][] = [
    ['csv', {}],
    ['tsv with type hints', { excel_compatible: true, include_type_hints: true }],
    ['csv, tags and providers', { tags: ['a'], models: ['openai', 'google'] }],
  ]
  for (const definition of EXPORT_DEFINITIONS) {
    for (const [label, options] of variants) {
      if (options.excel_compatible && !definition.formatOptions) continue
      it(`${definition.type}, ${label}: the same bytes as the writer`, async () => {
        const query: ExportQuery = { ...PERIOD, ...options }
        const params = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, Array.isArray(value) ? value.join(',') : String(value)]))
        const response = await ctx.get(`/api/v1/exports/${definition.type}?${params}`, key)
        expect(response.statusCode).toBe(200)
        const expected = await writerFile(definition.type, query)
        // More than a header: the comparison covers data rows.
        expect(expected.toString().split('\r\n').length).toBeGreaterThan(4)
        expect(response.rawPayload.equals(expected)).toBe(true)
        if (!response.rawPayload.equals(expected)) expect(response.rawPayload.toString()).toBe(expected.toString())
      })
    }
  }

  /** All a stream gives, or the error it ends with. */
  async function readAll(stream: CopyOutStream): Promise<{ text: string; error?: Error }> {
    const chunks: Buffer[] = []
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer)
      return { text: Buffer.concat(chunks).toString() }
    } catch (error) {
      return { text: Buffer.concat(chunks).toString(), error: error as Error }
    }
  }

  it('reads a COPY off the socket as CRLF records, many socket reads long, and gives the connection back to pg', async () => {
    const client = await ctx.database.connection.pool!.connect()
    try {
      // About 2 MB: rows split across socket reads, quoted cells holding line feeds.
      const { text, error } = await readAll(
        client.query(
          new CopyOutStream(`copy (select i, repeat('x', i % 300), case when i % 7 = 0 then E'two\nlines' end from generate_series(1, 20000) i) to stdout with (format csv)`),
        ),
      )
      expect(error).toBeUndefined()
      // (COPY quotes an empty string, to tell it from NULL.)
      const cell = (n: number) => (n % 300 === 0 ? '""' : 'x'.repeat(n % 300))
      const expected = Array.from({ length: 20000 }, (_, n) => `${n + 1},${cell(n + 1)},${(n + 1) % 7 === 0 ? '"two\nlines"' : ''}\r\n`).join('')
      expect(text.length).toBe(expected.length)
      expect(text === expected).toBe(true)
      // pg read the CommandComplete and ReadyForQuery after the rows: the connection answers.
      expect((await client.query('select 41 + 1 as n')).rows).toEqual([{ n: 42 }])
    } finally {
      client.release()
    }
  })

  it('asks for a young-generation collection every COLLECT_EVERY_BYTES of socket reads', async () => {
    const client = await ctx.database.connection.pool!.connect()
    try {
      const before = copyReads.collections
      // About 2.5 × COLLECT_EVERY_BYTES of rows (each read counts its protocol bytes too).
      const rows = Math.ceil((2.5 * COLLECT_EVERY_BYTES) / 202)
      const { text, error } = await readAll(client.query(new CopyOutStream(`copy (select repeat('z', 200) from generate_series(1, ${rows})) to stdout`)))
      expect(error).toBeUndefined()
      expect(text.length).toBe(rows * 202)
      const asked = copyReads.collections - before
      expect(asked).toBeGreaterThanOrEqual(2)
      expect(asked).toBeLessThanOrEqual(3)
    } finally {
      client.release()
    }
  })

  it('ends the stream with the error of a COPY that fails midway, and the connection still answers', async () => {
    const client = await ctx.database.connection.pool!.connect()
    try {
      const { text, error } = await readAll(
        client.query(new CopyOutStream(`copy (select case when i < 5000 then repeat('y', 200) else (1 / (i - i))::text end from generate_series(1, 10000) i) to stdout`)),
      )
      expect(error?.message).toMatch(/division by zero/)
      // Rows before the error arrived, none after it.
      expect(text.length).toBeGreaterThan(0)
      expect(text.length).toBeLessThanOrEqual(4999 * 202)
      expect((await client.query('select 1 as n')).rows).toEqual([{ n: 1 }])
    } finally {
      client.release()
    }
  })

  it('rounds floats exactly as JavaScript does', async () => {
    const edges = [0.0005, -0.0005, 0.005, -0.005, 0.125, -0.125, 1.005, 2.675, -2.675, 99.995, 1e-9, -1e-9, 0, 123456.789, 0.1 + 0.2, 1 / 3]
    const values = [
      ...edges,
      ...fc.sample(fc.double({ min: -1000, max: 1000, noNaN: true }), 3000),
      ...fc.sample(fc.integer({ min: -200000, max: 200000 }), 500).map((n) => n / 2000),
    ]
    const { rows } = await sql<{ v: number; d2: string; d3: string }>`
      select v, ${sql.raw(roundedFloatCell('v', 2))} as d2, ${sql.raw(roundedFloatCell('v', 3))} as d3
      from unnest(${values}::float8[]) with ordinality as u(v, n) order by n`.execute(ctx.database.db)
    const mismatches = rows.filter(
      (row, i) => row.d2 !== String(roundScore(values[i])) || row.d3 !== String(roundSentiment(values[i])) || row.d2 !== String(roundPosition(values[i])),
    )
    expect(mismatches).toEqual([])
  })
})
