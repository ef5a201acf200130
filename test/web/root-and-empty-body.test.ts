// GET / answers the dashboard to any client that does not ask only for JSON (curl, with or
// without --compressed, health checkers), and an action route with no parameters takes an
// empty body (docs/dashboard.md). curl's own headers: `Accept: */*`, and with --compressed
// `Accept-Encoding: deflate, gzip, br, zstd` (curl 8; lib/http.c).
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { ensureDashboardBuilt } from '../../src/web/ensure-built.js'

describe('GET / for any client that does not ask only for JSON (pglite)', () => {
  let ctx: TestContext
  beforeAll(async () => {
    expect(ensureDashboardBuilt(console.error)).toBe(true)
    ctx = await createTestContext('pglite')
  }, 180_000)
  afterAll(() => ctx?.close())

  const page = (body: string) => expect(body).toContain('<div id="root">')

  it('serves the app to curl, with and without --compressed, and to a client sending no Accept', async () => {
    const plain = await ctx.app.inject({ url: '/', headers: { accept: '*/*', 'user-agent': 'curl/8.5.0' } })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-type']).toMatch(/text\/html/)
    page(plain.body)
    const compressed = await ctx.app.inject({ url: '/', headers: { accept: '*/*', 'accept-encoding': 'deflate, gzip, br, zstd' } })
    expect(compressed.statusCode).toBe(200)
    expect(compressed.headers['content-type']).toMatch(/text\/html/)
    const encoding = compressed.headers['content-encoding']
    page(
      encoding === 'gzip'
        ? gunzipSync(compressed.rawPayload).toString()
        : encoding === undefined
          ? compressed.body
          : (await import('node:zlib')).brotliDecompressSync(compressed.rawPayload).toString(),
    )
    const gzipOnly = await ctx.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } })
    expect(gzipOnly.statusCode).toBe(200)
    page(gzipOnly.headers['content-encoding'] === 'gzip' ? gunzipSync(gzipOnly.rawPayload).toString() : gzipOnly.body)
    const none = await ctx.app.inject({ url: '/' })
    expect(none.statusCode).toBe(200)
    page(none.body)
    expect(String(none.headers['content-security-policy'])).toContain("default-src 'none'")
  })

  it('answers a client that asks only for JSON with the JSON 404, and HEAD like GET', async () => {
    const json = await ctx.app.inject({ url: '/', headers: { accept: 'application/json' } })
    expect(json.statusCode).toBe(404)
    expect(json.json().error.code).toBe('not_found')
    expect((await ctx.app.inject({ method: 'HEAD', url: '/', headers: { accept: '*/*' } })).statusCode).toBe(200)
  })
})

describe.each(testBackends)('an action route without parameters takes an empty body (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  }, 120_000)
  afterAll(() => ctx?.close())

  it('POST /api/v1/brands/discover with no body, an empty JSON body, or {}', async () => {
    const { key } = await ctx.tenant({ scopes: ['manage:workspace', 'read:analytics'] })
    const auth = { authorization: `Bearer ${key}` }
    const bodies = [
      { headers: auth },
      { headers: { ...auth, 'content-type': 'application/json' }, payload: '' },
      { headers: { ...auth, 'content-type': 'application/json' }, payload: '{}' },
    ]
    for (const request of bodies) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/brands/discover', ...request })
      expect(response.statusCode, response.body).toBe(202)
    }
    // A body with fields is still refused: the route takes none.
    const extra = await ctx.app.inject({ method: 'POST', url: '/api/v1/brands/discover', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"x":1}' })
    expect(extra.statusCode).toBe(400)
  })
})
