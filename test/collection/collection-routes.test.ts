// The collection routes on every backend: validation with clear messages, scopes,
// isolation between workspaces, credentials encrypted and never returned, and the start-up
// check of stored credentials against BEACON_SECRET_KEY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, post } from '../helpers/requests.js'
import { addTarget } from './helpers.js'

const SECRET = 'a-test-secret-key-of-at-least-32-characters'

describe.each(testBackends)('collection routes (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000, secretKey: SECRET })
  }, 120_000)
  afterAll(() => ctx.close())

  const put = (url: string, key: string, body: unknown) =>
    ctx.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })
  const del = (url: string, key: string) => ctx.app.inject({ method: 'DELETE', url, headers: { authorization: `Bearer ${key}` } })

  it('adds, lists, changes and deletes targets with defaults filled in', async () => {
    const { key } = await ctx.tenant()
    const created = await post(ctx, '/api/v1/collection/targets', key, { provider: 'openai', model: 'gpt-4o-mini', web_search: true })
    expect(created.statusCode, created.body).toBe(201)
    const target = created.json().data
    expect(target).toMatchObject({
      kind: 'answer',
      provider: 'openai',
      model: 'gpt-4o-mini',
      api: 'native',
      base_url: null,
      web_search: true,
      samples: 1,
      schedule: '0 6 * * *',
      timezone: 'UTC',
      enabled: true,
      credential: null,
      flagged: false,
    })
    expect(new Date(target.next_run_at).getUTCHours()).toBe(6)
    const aio = await post(ctx, '/api/v1/collection/targets', key, { kind: 'aio', serp: 'serpapi', schedule: '30 7 * * 1-5', timezone: 'Europe/Berlin' })
    expect(aio.statusCode, aio.body).toBe(201)
    expect(aio.json().data).toMatchObject({ kind: 'aio', serp: 'serpapi', locale: 'en-US', provider: null, model: null, timezone: 'Europe/Berlin' })
    const compatible = await post(ctx, '/api/v1/collection/targets', key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: 'http://8.8.8.8/v1/' })
    expect(compatible.json().data.base_url).toBe('http://8.8.8.8/v1')
    // base_url is an address Beacon will call: loopback needs COLLECTION_ALLOW_PRIVATE, metadata endpoints never.
    const loopback = await post(ctx, '/api/v1/collection/targets', key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: 'http://127.0.0.1:11434/v1' })
    expect(loopback.statusCode).toBe(400)
    expect(loopback.json().error).toMatchObject({ code: 'invalid_parameter', param: 'base_url' })
    expect(loopback.json().error.message).toMatch(/COLLECTION_ALLOW_PRIVATE=true/)
    const metadata = await post(ctx, '/api/v1/collection/targets', key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: 'http://169.254.169.254/v1' })
    expect(metadata.statusCode).toBe(400)
    expect(metadata.json().error.message).toMatch(/collection targets may never reach/)

    const list = await ctx.get('/api/v1/collection/targets', key)
    expect(list.json().data.map((t: { id: string }) => t.id)).toEqual([target.id, aio.json().data.id, compatible.json().data.id])
    const changed = await post(ctx, `/api/v1/collection/targets/${target.id}`, key, { samples: 3, enabled: false }, 'PATCH')
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json().data).toMatchObject({ samples: 3, enabled: false, model: 'gpt-4o-mini', next_run_at: null })
    expect((await del(`/api/v1/collection/targets/${target.id}`, key)).statusCode).toBe(200)
    expect((await ctx.get(`/api/v1/collection/targets/${target.id}`, key)).statusCode).toBe(404)
    expect((await del(`/api/v1/collection/targets/${target.id}`, key)).statusCode).toBe(404)
  })

  it.each([
    [{ provider: 'openai' }, 'model', /needs model/],
    [{ model: 'x' }, 'provider', /needs provider/],
    [{ provider: 'mistral', model: 'x' }, 'provider', /./],
    [{ provider: 'openai', model: 'x', samples: 11 }, 'samples', /./],
    [{ provider: 'openai', model: 'x', schedule: '0 6 * *' }, 'schedule', /5 fields/],
    [{ provider: 'openai', model: 'x', schedule: '61 6 * * *' }, 'schedule', /not a valid cron expression/],
    [{ provider: 'openai', model: 'x', timezone: 'Mars/Olympus' }, 'timezone', /IANA time zone/],
    [{ provider: 'openai', model: 'x', api: 'openai_compatible' }, 'base_url', /needs base_url/],
    [{ provider: 'openai', model: 'x', base_url: 'http://x/v1' }, 'base_url', /only to api "openai_compatible"/],
    [{ provider: 'openai', model: 'x', credential: 'missing' }, 'credential', /PUT \/api\/v1\/collection\/credentials\/missing/],
    [{ kind: 'aio' }, 'serp', /needs serp/],
    [{ kind: 'aio', serp: 'serpapi', model: 'x' }, 'model', /answer targets/],
    [{ provider: 'openai', model: 'x', colour: 'red' }, 'colour', /./],
  ])('refuses %j naming %s', async (body, param, message) => {
    const { key } = await ctx.tenant()
    const response = await post(ctx, '/api/v1/collection/targets', key, body)
    expect(response.statusCode, response.body).toBe(400)
    const error = response.json().error
    expect(error.message).toMatch(message)
    expect(`${error.param ?? ''} ${error.message}`).toContain(param)
  })

  it('checks scopes: reading needs read:analytics, configuring manage:workspace, running write:data', async () => {
    const owner = await ctx.tenant()
    const target = await addTarget(ctx, owner.key, { provider: 'openai', model: 'gpt-4o', api: 'demo' })
    const reader = await ctx.tenant({ scopes: ['read:analytics'] })
    const writer = await ctx.tenant({ scopes: ['write:data'] })
    expect((await ctx.get('/api/v1/collection/targets', reader.key)).statusCode).toBe(200)
    expect((await ctx.get('/api/v1/collection/runs', reader.key)).statusCode).toBe(200)
    const refused = [
      await post(ctx, '/api/v1/collection/targets', reader.key, { provider: 'openai', model: 'x' }),
      await post(ctx, '/api/v1/collection/targets', writer.key, { provider: 'openai', model: 'x' }),
      await put('/api/v1/collection/credentials/main', reader.key, { provider: 'openai', api_key: 'sk-1234' }),
      await ctx.get('/api/v1/collection/credentials', reader.key),
      await post(ctx, '/api/v1/collection/runs', reader.key, {}),
      await ctx.get('/api/v1/collection/targets', writer.key),
    ]
    for (const response of refused) {
      expect(response.statusCode).toBe(403)
      expect(response.json().error.code).toBe('insufficient_scope')
    }
    expect(refused[0].json().error.message).toContain('manage:workspace')
    expect(refused[4].json().error.message).toContain('write:data')
    // Another workspace's target is not found, whatever the route.
    const other = await ctx.tenant()
    expect((await ctx.get(`/api/v1/collection/targets/${target}`, other.key)).statusCode).toBe(404)
    expect((await post(ctx, `/api/v1/collection/targets/${target}`, other.key, { samples: 2 }, 'PATCH')).statusCode).toBe(404)
    expect((await del(`/api/v1/collection/targets/${target}`, other.key)).statusCode).toBe(404)
    const run = await post(ctx, '/api/v1/collection/runs', other.key, { target_ids: [target] })
    expect(run.statusCode).toBe(400)
    expect(run.json().error.param).toBe('target_ids')
  })

  it('runs: 202 with the run queued; 400 when there is nothing to ask; cancel; 404 across workspaces', async () => {
    const { key } = await ctx.tenant()
    const empty = await post(ctx, '/api/v1/collection/runs', key, {})
    expect(empty.statusCode).toBe(400)
    expect(empty.json().error.message).toContain('POST /api/v1/collection/targets')
    const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', api: 'demo' })
    const noPrompt = await post(ctx, '/api/v1/collection/runs', key, {})
    expect(noPrompt.json().error.param).toBe('prompt_ids')
    const prompt = await createPrompt(ctx, key, 'Best CRM?')
    const started = await post(ctx, '/api/v1/collection/runs', key, { target_ids: [target], prompt_ids: [prompt] })
    expect(started.statusCode, started.body).toBe(202)
    const run = started.json().data
    expect(run).toMatchObject({ state: 'queued', trigger: 'manual', target_ids: [target], prompt_ids: [prompt], planned: 0, errors: [] })
    const cancelled = await post(ctx, `/api/v1/collection/runs/${run.id}/cancel`, key, {})
    expect(cancelled.json().data.state).toBe('cancelled')
    const again = await post(ctx, `/api/v1/collection/runs/${run.id}/cancel`, key, {})
    expect(again.json().data.state).toBe('cancelled')
    const other = await ctx.tenant()
    expect((await ctx.get(`/api/v1/collection/runs/${run.id}`, other.key)).statusCode).toBe(404)
    expect((await post(ctx, `/api/v1/collection/runs/${run.id}/cancel`, other.key, {})).statusCode).toBe(404)
    expect((await ctx.get('/api/v1/collection/runs', other.key)).json().data.runs).toEqual([])
  })

  it('credentials: stored encrypted, listed by name and last 4, never returned; targets may name them', async () => {
    const { key, workspaceId } = await ctx.tenant()
    const apiKey = 'sk-live-abcdefghijklmnopqrstuvwxyz-9Q7Z'
    const stored = await put('/api/v1/collection/credentials/openai-main', key, { provider: 'openai', api_key: apiKey })
    expect(stored.statusCode, stored.body).toBe(200)
    expect(stored.json().data).toMatchObject({ name: 'openai-main', provider: 'openai', last_four: '9Q7Z' })
    expect(stored.body).not.toContain('abcdefghij')
    const row = await ctx.database.db.selectFrom('collection_credential').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
    expect(row.sealed).toMatch(/^v1\./)
    expect(row.sealed).not.toContain('abcdefghij')
    const list = await ctx.get('/api/v1/collection/credentials', key)
    expect(list.json().data).toEqual([{ name: 'openai-main', provider: 'openai', last_four: '9Q7Z', created_at: expect.any(String), updated_at: expect.any(String) }])
    const target = await addTarget(ctx, key, { provider: 'openai', model: 'gpt-4o', credential: 'openai-main' })
    const inUse = await del('/api/v1/collection/credentials/openai-main', key)
    expect(inUse.statusCode).toBe(400)
    expect(inUse.json().error.message).toContain(target)
    expect((await put('/api/v1/collection/credentials/bad name', key, { provider: 'openai', api_key: 'x' })).statusCode).toBe(400)
    expect((await put('/api/v1/collection/credentials/x', key, { provider: 'openai', api_key: '' })).statusCode).toBe(400)
    // The other workspace sees none of it.
    const other = await ctx.tenant()
    expect((await ctx.get('/api/v1/collection/credentials', other.key)).json().data).toEqual([])
    expect((await del('/api/v1/collection/credentials/openai-main', other.key)).statusCode).toBe(404)
    await post(ctx, `/api/v1/collection/targets/${target}`, key, { credential: null }, 'PATCH')
    expect((await del('/api/v1/collection/credentials/openai-main', key)).statusCode).toBe(200)
  })

  it('without BEACON_SECRET_KEY a credential cannot be stored: 503 saying what to set', async () => {
    const app = await buildApp({ config: { ...ctx.config, secretKey: undefined }, database: ctx.database, logger: false })
    try {
      const { key } = await ctx.tenant()
      const response = await app.inject({
        method: 'PUT',
        url: '/api/v1/collection/credentials/main',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ provider: 'openai', api_key: 'sk-1234567' }),
      })
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toMatch(/BEACON_SECRET_KEY is not set.*openssl rand/)
    } finally {
      await app.close()
    }
  })

  it('start-up fails with a clear message when credentials are stored and the key is missing or wrong', async () => {
    const { key } = await ctx.tenant()
    expect((await put('/api/v1/collection/credentials/startup', key, { provider: 'anthropic', api_key: 'sk-ant-1234' })).statusCode).toBe(200)
    try {
      await expect(buildApp({ config: { ...ctx.config, secretKey: undefined }, database: ctx.database, logger: false })).rejects.toThrow(
        /stored encrypted, but BEACON_SECRET_KEY is not set.*Start Beacon with the BEACON_SECRET_KEY they were stored with/,
      )
      await expect(buildApp({ config: { ...ctx.config, secretKey: 'another-secret-key-of-at-least-32-chars!' }, database: ctx.database, logger: false })).rejects.toThrow(
        /open with neither BEACON_SECRET_KEY nor BEACON_SECRET_KEY_PREVIOUS: provider credential \(collection_credential workspace_id=[0-9a-f-]+, name=startup\)/,
      )
      const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false })
      await app.close()
    } finally {
      await del('/api/v1/collection/credentials/startup', key)
    }
  })
})
