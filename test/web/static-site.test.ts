// The dashboard's files as the app serves them: index.html with a strict CSP for page paths,
// hashed assets pre-compressed and cached for good, and the API's own 404s untouched.
import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from '../helpers/test-app.js'
import { ensureDashboardBuilt } from '../../src/web/ensure-built.js'
import { WEB_DIST } from '../../src/web/dashboard.js'

describe('web dashboard files (pglite)', () => {
  let ctx: TestContext
  const html = { accept: 'text/html,application/xhtml+xml' }

  beforeAll(async () => {
    expect(ensureDashboardBuilt(console.error)).toBe(true)
    ctx = await createTestContext('pglite')
  }, 180_000)
  afterAll(() => ctx?.close())

  it('serves index.html at / and at any page path, with a strict CSP and no caching', async () => {
    for (const url of ['/', '/brands/123', '/settings/prompts?period=7d']) {
      const response = await ctx.app.inject({ url, headers: html })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-type']).toMatch(/text\/html/)
      expect(response.body).toContain('<div id="root">')
      const csp = String(response.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("default-src 'none'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toContain('unsafe-eval')
      expect(response.headers['x-frame-options']).toBe('DENY')
      expect(response.headers['cache-control']).toBe('no-cache')
    }
    // The built page has no inline script or style for the CSP to refuse.
    const page = (await ctx.app.inject({ url: '/', headers: html })).body
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(page).not.toMatch(/<style/)
  })

  it('sends hashed assets compressed when asked, cached for a year', async () => {
    const script = readdirSync(`${WEB_DIST}assets`).find((f) => /^index-.*\.js$/.test(f))!
    const br = await ctx.app.inject({ url: `/assets/${script}`, headers: { 'accept-encoding': 'br, gzip' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['cache-control']).toContain('immutable')
    const plain = await ctx.app.inject({ url: `/assets/${script}` })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(Number(br.headers['content-length']))
  })

  it('leaves the API, docs and probes alone: unknown API paths are JSON 404s even for browsers', async () => {
    for (const url of ['/api/v1/nope', '/api/v2/dashboard', '/mcp/x', '/openapi.json/x']) {
      const response = await ctx.app.inject({ url, headers: html })
      expect(response.statusCode, url).toBe(404)
      expect(response.json().error.code).toBe('not_found')
    }
    // A non-browser client asking for an unknown path gets JSON too.
    expect((await ctx.app.inject({ url: '/nope' })).json().error.code).toBe('not_found')
    expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200)
    expect((await ctx.app.inject({ url: '/api/v1/filters' })).statusCode).toBe(401)
  })
})
