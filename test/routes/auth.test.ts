import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createApiKey, revokeApiKey } from '../../src/admin/api-key-store.js'
import { generateApiKey } from '../../src/auth/api-keys.js'

describe.each(testBackends)('authentication (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string; keyId: string }
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    tenant = await ctx.tenant()
  })
  afterAll(() => ctx.close())

  async function expect401(headers: Record<string, string>) {
    const response = await ctx.app.inject({ url: '/api/v1/filters', headers })
    expect(response.statusCode).toBe(401)
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/)
    const body = response.json()
    expect(body.success).toBe(false)
    expect(body.error.code).toBe('invalid_api_key')
    expect(body.error.request_id).toBe(response.headers['x-request-id'])
    return body
  }

  it('accepts a valid key', async () => {
    const response = await ctx.get('/api/v1/filters', tenant.key)
    expect(response.statusCode).toBe(200)
  })

  it('401 without a header', async () => {
    const body = await expect401({})
    expect(body.error.message).toContain('Authorization: Bearer')
  })
  it('401 when not Bearer', () => expect401({ authorization: `Basic ${tenant.key}` }))
  it('401 when malformed', () => expect401({ authorization: 'Bearer not-a-key' }))
  it('401 on a bad checksum', () => {
    const key = tenant.key
    const broken = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a')
    return expect401({ authorization: `Bearer ${broken}` })
  })
  it('401 on an unknown well-formed key', () => expect401({ authorization: `Bearer ${generateApiKey()}` }))

  it('401 on a revoked key', async () => {
    const key = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['read:analytics'] })
    expect((await ctx.get('/api/v1/filters', key.key)).statusCode).toBe(200)
    await revokeApiKey(ctx.database.db, key.id)
    const body = await expect401({ authorization: `Bearer ${key.key}` })
    expect(body.error.message).toContain('revoked')
  })

  it('401 on an expired key', async () => {
    const key = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['read:analytics'], expiresAt: new Date(Date.now() - 1000) })
    const body = await expect401({ authorization: `Bearer ${key.key}` })
    expect(body.error.message).toContain('expired')
  })

  it('403 insufficient_scope without read:analytics', async () => {
    const key = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['write:data'] })
    const response = await ctx.get('/api/v1/filters', key.key)
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('insufficient_scope')
    expect(response.json().error.message).toContain('read:analytics')
  })

  it('records last use, throttled', async () => {
    const key = await createApiKey(ctx.database.db, { workspaceId: tenant.workspaceId, scopes: ['read:analytics'] })
    await ctx.get('/api/v1/filters', key.key)
    await new Promise((r) => setTimeout(r, 50))
    const first = await ctx.database.db.selectFrom('api_key').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow()
    expect(first.last_used_at).toBeInstanceOf(Date)
    await ctx.get('/api/v1/filters', key.key)
    await new Promise((r) => setTimeout(r, 50))
    const second = await ctx.database.db.selectFrom('api_key').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow()
    expect(second.last_used_at?.getTime()).toBe(first.last_used_at?.getTime())
  })
})
