// Property-based hostile requests over every route of the OpenAPI document: random and
// wrong-typed parameters and bodies never produce a 5xx, errors always carry the
// envelope, and the server stays up. New routes are covered because the document is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

interface Operation {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  params: { name: string; in: string }[]
}

const RUNS = Number(process.env.HOSTILE_RUNS ?? 25)

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '9'.repeat(40),
    'NaN',
    'true',
    'null',
    '[]',
    '{}',
    '2026-02-30',
    '2026-13-01',
    '../../etc/passwd',
    "' or 1=1 --",
    '%00',
    '\u0000',
    '😀'.repeat(300),
    'a'.repeat(5000),
    'openai,,google',
    '00000000-0000-0000-0000-000000000000',
  ),
  fc.uuid(),
  fc.integer().map(String),
  fc.double().map(String),
)

describe.each(testBackends)('hostile input (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let operations: Operation[]
  let ids: string[]

  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000, bodyLimitBytes: 256 * 1024 })
    key = (await ctx.tenant()).key
    const promptId = await createPrompt(ctx, key, 'Best CRM?', ['crm'])
    const brandId = await createBrand(ctx, key, { name: 'Acme', domain: 'acme.com', is_primary: true })
    await ingest(ctx, key, [{ prompt_id: promptId, provider: 'openai', model: 'gpt-4o', content: 'Acme is great. https://acme.com/x', created_at: new Date().toISOString() }])
    ids = [promptId, brandId]
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json()
    operations = []
    for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; in: string }[] }>>(document.paths)) {
      for (const method of ['get', 'post', 'patch'] as const) {
        if (item[method]) operations.push({ method: method.toUpperCase() as Operation['method'], path, params: item[method].parameters ?? [] })
      }
    }
  })
  afterAll(() => ctx.close())

  function assertHandled(response: { statusCode: number; headers: Record<string, unknown>; body: string }, rawWhat: string) {
    const what = rawWhat.length > 200 ? `${rawWhat.slice(0, 200)}…` : rawWhat
    expect(response.statusCode, `${what} -> ${response.statusCode} ${response.body.slice(0, 300)}`).toBeLessThan(500)
    if (response.statusCode >= 400 && String(response.headers['content-type']).includes('json')) {
      const body = JSON.parse(response.body)
      expect(body.success, what).toBe(false)
      expect(typeof body.error?.code, what).toBe('string')
      expect(typeof body.error?.message, what).toBe('string')
    }
  }

  it('reads the document and finds the API', () => {
    expect(operations.length).toBeGreaterThan(5)
    expect(operations.some((op) => op.path === '/api/v1/filters')).toBe(true)
  })

  it('random query parameters and path ids never cause a 5xx', async () => {
    for (const op of operations) {
      const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name)
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.oneof(fc.constantFrom(...(queryNames.length ? queryNames : ['x'])), fc.string({ maxLength: 12 })), hostileString), { maxLength: 6 }),
          fc.oneof(hostileString, fc.constantFrom(...ids)),
          async (pairs, id) => {
            const path = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id) || 'x')
            const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
            const response = await ctx.app.inject({
              method: op.method,
              url: query ? `${path}?${query}` : path,
              headers: { authorization: `Bearer ${key}`, ...(op.method !== 'GET' ? { 'content-type': 'application/json' } : {}) },
              ...(op.method !== 'GET' ? { payload: '{}' } : {}),
            })
            assertHandled(response, `${op.method} ${path}?${query}`)
          },
        ),
        { numRuns: RUNS },
      )
    }
  }, 300_000)

  it('random, wrong-typed and deeply nested bodies never cause a 5xx', async () => {
    const writes = operations.filter((op) => op.method !== 'GET')
    expect(writes.length).toBeGreaterThan(0)
    const deep = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth)
    for (const op of writes) {
      const path = op.path.replace(/\{[^}]+\}/g, ids[0])
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue().map((v) => JSON.stringify(v)),
            fc
              .dictionary(fc.constantFrom('name', 'text', 'tags', 'domain', 'aliases', 'responses', 'observations', 'is_primary', 'x'), fc.jsonValue())
              .map((v) => JSON.stringify(v)),
            fc.constantFrom(
              '{',
              'null',
              '"str"',
              '[]',
              '{"responses": 5}',
              '{"responses": [null, 1, "a", {}]}',
              `{"responses": ${deep(5000, '1')}}`,
              `{"name": ${deep(2000, '"x"')}}`,
              '\uFEFF{}',
              '{"__proto__": {"admin": true}}',
              '{"constructor": {"prototype": {"x": 1}}}',
            ),
          ),
          async (payload) => {
            const response = await ctx.app.inject({ method: op.method, url: path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload })
            assertHandled(response, `${op.method} ${path} ${payload.slice(0, 80)}`)
          },
        ),
        { numRuns: RUNS },
      )
    }
  }, 300_000)

  it('refuses lone surrogates and invalid UTF-8 in JSON bodies, naming the field', async () => {
    const send = (url: string, payload: string | Buffer) =>
      ctx.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=utf-8' }, payload })
    const item = (content: string) =>
      `{"responses": [{"prompt_id": "${ids[0]}", "provider": "openai", "model": "gpt-4o", "created_at": "${new Date().toISOString()}", "content": ${content}}]}`
    const cases: [string, string | Buffer, string][] = [
      ['/api/v1/ingest/responses', item('"escaped backslash \\\\ud800 is text, \\ud800 alone is not"'), 'responses[0].content'],
      ['/api/v1/ingest/responses', item('"low half \\uDC00 first"'), 'responses[0].content'],
      ['/api/v1/ingest/responses', item('"reversed pair \\udc00\\ud83d"'), 'responses[0].content'],
      ['/api/v1/prompts', '{"text": "Best CRM?", "tags": ["ok", "\\udfff"]}', 'tags[1]'],
      ['/api/v1/prompts', Buffer.concat([Buffer.from('{"text": "Best '), Buffer.from([0xc3, 0x28]), Buffer.from(' CRM?"}')]), 'text'],
      ['/api/v1/prompts', Buffer.concat([Buffer.from('{"text": "CESU '), Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]), Buffer.from('"}')]), 'text'],
      ['/api/v1/brands', Buffer.concat([Buffer.from('{"name": "Acme", "domain": "acme.com", "aliases": ["x'), Buffer.from([0xff]), Buffer.from('"]}')]), 'aliases[0]'],
    ]
    for (const [url, payload, param] of cases) {
      const response = await send(url, payload)
      const what = `${url} ${String(payload).slice(0, 120)}`
      expect(response.statusCode, what).toBe(400)
      const body = response.json()
      expect(body.error.code, what).toBe('invalid_parameter')
      expect(body.error.param, what).toBe(param)
      expect(body.error.message, what).toMatch(/UTF-8|surrogate/)
    }
    // Complete pairs, escaped or not, and a literal U+FFFD are ordinary text.
    const fine = await send('/api/v1/prompts', '{"text": "Best CRM? \\ud83d\\ude00 😀 \\ufffd \\\\ud800", "tags": ["ok"]}')
    expect(fine.statusCode, fine.body).toBe(201)
    expect(fine.json().data.text).toBe('Best CRM? 😀 😀 \uFFFD \\ud800')
  })

  it('answers unknown_parameter for every unknown query name, Object.prototype members included', async () => {
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__proto__[]', 'constructor[prototype]']) {
      for (const path of ['/api/v1/filters', '/api/v1/dashboard', `/api/v1/brands/${ids[1]}`]) {
        const response = await ctx.get(`${path}?${encodeURIComponent(name).replace('%5B%5D', '[]')}=1`, key)
        expect(response.statusCode, `${path} ${name}`).toBe(400)
        expect(response.json().error.code, `${path} ${name}`).toBe('unknown_parameter')
        expect(response.json().error.param, `${path} ${name}`).toBe(name.replace(/\[\]$/, ''))
      }
    }
    // Write routes take no query parameters at all.
    const write = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/prompts?dry_run=1',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: '{"text": "x"}',
    })
    expect(write.statusCode).toBe(400)
    expect(write.json().error).toMatchObject({ code: 'unknown_parameter', param: 'dry_run' })
  })

  it('malformed percent-encoding, invalid UTF-8, duplicates and odd content types are handled', async () => {
    const raw = [
      '/api/v1/filters?%zz=1',
      '/api/v1/filters?a=%',
      '/api/v1/filters?a=%C3%28',
      '/api/v1/filters?%ff%fe=%ff',
      '/api/v1/dashboard?models=openai&models=openai&models[]=google&start_date=2026-01-01&start_date=2026-01-02',
      '/api/v1/dashboard?start_date[]=2026-01-01',
      `/api/v1/dashboard?tags=${'t,'.repeat(2000)}`,
      '/api/v1/brands/%E0%A4%A',
      '/api/v1/brands/..%2F..%2Fadmin',
    ]
    for (const url of raw) assertHandled(await ctx.get(url, key), url)
    // NUL cannot be stored in PostgreSQL text: refused up front, in queries and bodies alike.
    const nulQuery = await ctx.get('/api/v1/urls-detailed?tags=%00', key)
    expect(nulQuery.statusCode).toBe(400)
    expect(nulQuery.json().error.param).toBe('tags')
    const nulBody = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/responses',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ responses: [{ prompt_id: ids[0], provider: 'openai', model: 'gpt-4o', content: 'a\u0000b', created_at: new Date().toISOString() }] }),
    })
    expect(nulBody.statusCode).toBe(400)
    expect(nulBody.json().error.param).toBe('responses[0].content')
    const xml = await ctx.app.inject({ method: 'POST', url: '/api/v1/prompts', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/xml' }, payload: '<a/>' })
    assertHandled(xml, 'xml body')
    expect(xml.statusCode).toBe(415)
    const huge = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/prompts',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(300 * 1024) }),
    })
    expect(huge.statusCode).toBe(413)
    assertHandled(huge, 'huge body')
    expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200)
  })
})
