import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SwaggerParser from '@apidevtools/swagger-parser'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

describe.each(testBackends)('request conventions (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 5 })
    key = (await ctx.tenant()).key
  })
  afterAll(() => ctx.close())

  it('rejects an unknown parameter by name', async () => {
    const response = await ctx.get('/api/v1/filters?workspace_id=abc', key)
    expect(response.statusCode).toBe(400)
    expect(response.json().error).toMatchObject({ code: 'unknown_parameter', param: 'workspace_id' })
  })

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const echoed = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-123' } })
    expect(echoed.headers['x-request-id']).toBe('trace-123')
    const replaced = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } })
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('unknown routes get the envelope', async () => {
    const response = await ctx.get('/api/v1/nothing-here', key)
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('not_found')
  })

  it('health and readiness need no key', async () => {
    expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    expect((await ctx.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' })
  })

  it('the per-key limiter answers 429 with Retry-After once exceeded', async () => {
    const limited = (await ctx.tenant()).key
    const statuses: number[] = []
    let last
    for (let i = 0; i < 7; i++) {
      last = await ctx.get('/api/v1/filters', limited)
      statuses.push(last.statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0)
    expect(last!.headers['x-ratelimit-limit']).toBe('5')
    expect(last!.json().error.code).toBe('rate_limited')
    // Another key is counted on its own.
    expect((await ctx.get('/api/v1/filters', (await ctx.tenant()).key)).statusCode).toBe(200)
  })

  it('serves a valid OpenAPI 3.1 document that lists /api/v1/filters', async () => {
    const response = await ctx.app.inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toBe('3.1.0')
    expect(document.paths['/api/v1/filters'].get).toBeDefined()
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined()
    const docs = await ctx.app.inject({ url: '/docs' })
    expect([200, 302]).toContain(docs.statusCode)
  })
})
