// API keys over the API: create within the caller's scopes (the token once), list without
// tokens, revoke effective on the next request, also for answers the cache holds, and on a
// second instance sharing the database. 404 across workspaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { hashApiKey } from '../../src/auth/api-keys.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { post } from '../helpers/requests.js'

const del = (app: FastifyInstance, url: string, key: string) => app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${key}` } })

describe.each(testBackends)('API keys over the API (%s)', (backend) => {
  let ctx: TestContext
  let admin: { workspaceId: string; key: string; keyId: string }
  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000 })
    admin = await ctx.tenant()
  }, 120_000)
  afterAll(() => ctx?.close())

  async function createKey(key: string, body: Record<string, unknown>) {
    return post(ctx, '/api/v1/keys', key, body)
  }

  it("creates a key within the caller's scopes, returns the token once, and the token works with exactly those scopes", async () => {
    const response = await createKey(admin.key, { name: 'Looker', scopes: ['read:analytics'] })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json()
    expect(body.message).toMatch(/not shown again/)
    const created = body.data
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Looker',
      scopes: ['read:analytics'],
      prefix: created.key.slice(0, 10),
      created_at: expect.any(String),
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      key: expect.stringMatching(/^bvk_[0-9A-Za-z]{36}$/),
    })
    expect((await ctx.get('/api/v1/filters', created.key)).statusCode).toBe(200)
    // read:analytics only: the keys routes are closed to it.
    const denied = await ctx.get('/api/v1/keys', created.key)
    expect(denied.statusCode).toBe(403)
    expect(denied.json().error.code).toBe('insufficient_scope')

    // Stored as a hash only.
    const row = await ctx.database.db.selectFrom('api_key').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(row.key_hash).toBe(hashApiKey(created.key))
    expect(JSON.stringify(row)).not.toContain(created.key)

    // Listing shows it (after the create: the list is never an old cached answer) without the token.
    const list = await ctx.get('/api/v1/keys', admin.key)
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(created.key)
    expect(list.body).not.toContain(row.key_hash)
    const listed = list.json().data.keys.find((k: { id: string }) => k.id === created.id)
    // last_used_at is written after the answer (at most every 5 minutes): not compared here.
    const { key: _token, last_used_at: _used, ...rest } = created
    expect({ ...listed, last_used_at: undefined }).toEqual({ ...rest, last_used_at: undefined })
    expect(Object.keys(listed)).not.toContain('key')
  })

  it("refuses scopes beyond the caller's with 403 naming them and what to do; 400 for unknown scopes and past expiry", async () => {
    const manager = await createApiKey(ctx.database.db, { workspaceId: admin.workspaceId, scopes: ['manage:workspace', 'read:analytics'], name: 'manager' })
    const beyond = await createKey(manager.key, { name: 'x', scopes: ['read:analytics', 'export:data'] })
    expect(beyond.statusCode).toBe(403)
    expect(beyond.json().error).toMatchObject({ code: 'insufficient_scope', param: 'scopes' })
    expect(beyond.json().error.message).toMatch(/lacks export:data/)
    expect(beyond.json().error.message).toMatch(/Leave it out/)
    const within = await createKey(manager.key, { name: 'ok', scopes: ['manage:workspace'] })
    expect(within.statusCode, within.body).toBe(201)

    const unknown = await createKey(admin.key, { name: 'x', scopes: ['admin:everything'] })
    expect(unknown.statusCode).toBe(400)
    const none = await createKey(admin.key, { name: 'x', scopes: [] })
    expect(none.statusCode).toBe(400)
    const past = await createKey(admin.key, { name: 'x', scopes: ['read:analytics'], expires_at: '2020-01-01T00:00:00Z' })
    expect(past.statusCode).toBe(400)
    expect(past.json().error).toMatchObject({ code: 'invalid_parameter', param: 'expires_at' })
    const future = await createKey(admin.key, { name: 'x', scopes: ['read:analytics'], expires_at: '2099-01-01T00:00:00Z' })
    expect(future.statusCode).toBe(201)
    expect(future.json().data.expires_at).toBe('2099-01-01T00:00:00.000Z')
  })

  it('revocation is effective on the next request, even for an answer the cache holds', async () => {
    const reader = (await createKey(admin.key, { name: 'reader', scopes: ['read:analytics'] })).json().data
    const first = await ctx.get('/api/v1/dashboard', reader.key)
    expect(first.statusCode).toBe(200)
    // The same URL again is answered from the cache (another key of the workspace, same data version).
    const cached = await ctx.get('/api/v1/dashboard', admin.key)
    expect(cached.headers['x-cache']).toBe('hit')

    const revoked = await del(ctx.app, `/api/v1/keys/${reader.id}`, admin.key)
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json().data).toMatchObject({ id: reader.id, revoked_at: expect.any(String) })
    const after = await ctx.get('/api/v1/dashboard', reader.key)
    expect(after.statusCode).toBe(401)
    expect(after.json().error.message).toMatch(/revoked/)
    expect(after.body).not.toContain('"visibility')
    // The list says so at once too.
    const listed = (await ctx.get('/api/v1/keys', admin.key)).json().data.keys.find((k: { id: string }) => k.id === reader.id)
    expect(listed.revoked_at).toBe(revoked.json().data.revoked_at)
    // Revoking again changes nothing.
    const again = await del(ctx.app, `/api/v1/keys/${reader.id}`, admin.key)
    expect(again.statusCode).toBe(200)
    expect(again.json().data.revoked_at).toBe(revoked.json().data.revoked_at)
  })

  it('a key can revoke itself; its next request is refused', async () => {
    const self = (await createKey(admin.key, { name: 'self', scopes: ['manage:workspace', 'read:analytics'] })).json().data
    expect((await del(ctx.app, `/api/v1/keys/${self.id}`, self.key)).statusCode).toBe(200)
    expect((await ctx.get('/api/v1/keys', self.key)).statusCode).toBe(401)
  })

  it("another workspace's key ids are 404, and its keys are never listed", async () => {
    const other = await ctx.tenant()
    const theirs = (await createKey(other.key, { name: 'theirs', scopes: ['read:analytics'] })).json().data
    const attempt = await del(ctx.app, `/api/v1/keys/${theirs.id}`, admin.key)
    expect(attempt.statusCode).toBe(404)
    expect((await ctx.get('/api/v1/filters', theirs.key)).statusCode).toBe(200)
    const list = (await ctx.get('/api/v1/keys', admin.key)).json().data.keys as { id: string }[]
    expect(list.map((k) => k.id)).not.toContain(theirs.id)
    expect(list.map((k) => k.id)).not.toContain(other.keyId)
    expect((await del(ctx.app, '/api/v1/keys/0193a0c0-0000-7000-8000-000000000000', admin.key)).statusCode).toBe(404)
  })

  it('creates keys at once without losing any', async () => {
    const t = await ctx.tenant()
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createKey(t.key, { name: `k${i}`, scopes: ['read:analytics'] })))
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(201))
    const list = (await ctx.get('/api/v1/keys', t.key)).json().data.keys as { name: string }[]
    expect(list.map((k) => k.name).sort()).toEqual([...Array.from({ length: 8 }, (_, i) => `k${i}`), ''].sort())
  })

  it.runIf(backend === 'postgres')('a key revoked through one instance is refused by another at once, cached answers included', async () => {
    const other = await ctx.openInstance()
    try {
      const reader = (await createKey(admin.key, { name: 'two instances', scopes: ['read:analytics'] })).json().data
      const url = '/api/v1/dashboard?start_date=2026-01-01&end_date=2026-01-31'
      const warm = await other.app.inject({ url, headers: { authorization: `Bearer ${reader.key}` } })
      expect(warm.statusCode).toBe(200)
      expect((await other.app.inject({ url, headers: { authorization: `Bearer ${admin.key}` } })).headers['x-cache']).toBe('hit')
      expect((await del(ctx.app, `/api/v1/keys/${reader.id}`, admin.key)).statusCode).toBe(200)
      const refused = await other.app.inject({ url, headers: { authorization: `Bearer ${reader.key}` } })
      expect(refused.statusCode).toBe(401)
      // And the other instance's list shows the revocation.
      const list = await other.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${admin.key}` } })
      expect(list.json().data.keys.find((k: { id: string }) => k.id === reader.id).revoked_at).not.toBeNull()
    } finally {
      await other.close()
    }
  })
})
