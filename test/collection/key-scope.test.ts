// Where keys may go (docs/collection.md, "Outbound requests"), on both backends: a stored
// credential only serves targets of its own provider (refused with a 400 on create and patch,
// and at run time, which flags the target); OPENAI_COMPATIBLE_API_KEY from the environment goes
// only to hosts the operator lists in OPENAI_COMPATIBLE_ALLOWED_HOSTS, never to a tenant's own
// base_url. Through the real openai_compatible adapter and SDK against a local chat completions fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Config } from '../../src/config.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, post } from '../helpers/requests.js'
import { startOpenAICompatibleFake, type ProviderFake } from '../fakes/index.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

const SECRET_KEY = 'key-scope-test-secret-key-0123456789abcdef'
const ENV_KEY = 'sk-operator-compatible-key-0000'

describe.each(testBackends)('keys only to their own provider (%s)', (backend) => {
  let ctx: TestContext
  let fake: ProviderFake
  let saved: string | undefined

  beforeAll(async () => {
    fake = await startOpenAICompatibleFake({ latencyMs: 5 })
    saved = process.env.OPENAI_COMPATIBLE_API_KEY
    process.env.OPENAI_COMPATIBLE_API_KEY = ENV_KEY
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, secretKey: SECRET_KEY, collectionAllowPrivate: true, collectionMaxAttempts: 1 })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await fake?.close()
    if (saved === undefined) delete process.env.OPENAI_COMPATIBLE_API_KEY
    else process.env.OPENAI_COMPATIBLE_API_KEY = saved
  })

  /** Runs fn with some settings changed on the running app and its job runtime (they share the config object). */
  async function withConfig<T>(changes: Partial<Config>, fn: () => Promise<T>): Promise<T> {
    const before = { ...ctx.config }
    Object.assign(ctx.config, changes)
    try {
      return await fn()
    } finally {
      Object.assign(ctx.config, before)
    }
  }

  const putCredential = (key: string, name: string, provider: string, apiKey: string) =>
    ctx.app.inject({ method: 'PUT', url: `/api/v1/collection/credentials/${name}`, headers: { authorization: `Bearer ${key}` }, payload: { provider, api_key: apiKey } })

  it('refuses a credential of another provider on create and patch, saying what to do', async () => {
    const w = await ctx.tenant()
    expect((await putCredential(w.key, 'oa', 'openai', 'sk-openai-stored-1111')).statusCode).toBe(200)
    expect((await putCredential(w.key, 'local', 'openai_compatible', 'sk-local-stored-2222')).statusCode).toBe(200)
    const compatible = { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${fake.url}/v1` }

    const refused = await post(ctx, '/api/v1/collection/targets', w.key, { ...compatible, credential: 'oa' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error).toMatchObject({
      param: 'credential',
      message: expect.stringMatching(
        /^credential "oa" is stored for provider "openai"; an openai_compatible target can only use a credential stored for "openai_compatible" .*PUT \/api\/v1\/collection\/credentials\/\{name\} \{"provider": "openai_compatible"/,
      ),
    })
    const anthropic = await post(ctx, '/api/v1/collection/targets', w.key, { provider: 'anthropic', model: 'claude', credential: 'oa' })
    expect([anthropic.statusCode, anthropic.json().error.message]).toEqual([400, expect.stringContaining('an anthropic target can only use a credential stored for "anthropic"')])
    const serp = await post(ctx, '/api/v1/collection/targets', w.key, { kind: 'aio', serp: 'serpapi', credential: 'local' })
    expect([serp.statusCode, serp.json().error.message]).toEqual([400, expect.stringContaining('a serpapi target can only use a credential stored for "serpapi"')])

    // Its own provider's credential is fine, both ways round.
    const local = await addTarget(ctx, w.key, { ...compatible, credential: 'local' })
    const native = await addTarget(ctx, w.key, { provider: 'openai', model: 'gpt-5', credential: 'oa' })
    // Turning the native target into an openai_compatible one would send its openai key to the base_url: refused.
    const patched = await post(ctx, `/api/v1/collection/targets/${native}`, w.key, { api: 'openai_compatible', base_url: `${fake.url}/v1` }, 'PATCH')
    expect([patched.statusCode, patched.json().error?.param]).toEqual([400, 'credential'])
    const swapped = await post(ctx, `/api/v1/collection/targets/${local}`, w.key, { credential: 'oa' }, 'PATCH')
    expect([swapped.statusCode, swapped.json().error?.param]).toEqual([400, 'credential'])
    // Both unchanged.
    expect((await ctx.get(`/api/v1/collection/targets/${native}`, w.key)).json().data).toMatchObject({ api: 'native', credential: 'oa' })
    expect((await ctx.get(`/api/v1/collection/targets/${local}`, w.key)).json().data).toMatchObject({ api: 'openai_compatible', credential: 'local' })
  })

  it('refuses at run time a credential that no longer matches (replaced under the same name), records why and flags the target; the key is never sent', async () => {
    const w = await ctx.tenant()
    await createPrompt(ctx, w.key, 'Which kanban tool?')
    expect((await putCredential(w.key, 'shared', 'openai_compatible', 'sk-local-stored-3333')).statusCode).toBe(200)
    const target = await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${fake.url}/v1`, credential: 'shared' })
    // The name now holds an OpenAI key: the target may no longer use it.
    expect((await putCredential(w.key, 'shared', 'openai', 'sk-openai-stored-4444')).statusCode).toBe(200)
    const before = fake.requests.length
    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
    expect(run).toMatchObject({ state: 'failed', planned: 1, failed: 1 })
    expect(run.errors).toEqual([
      {
        target_id: target,
        code: 'forbidden',
        message: expect.stringMatching(/^credential "shared" is stored for provider "openai"; an openai_compatible target can only use/),
        count: 1,
      },
    ])
    expect(fake.requests.length).toBe(before)
    const view = (await ctx.get(`/api/v1/collection/targets/${target}`, w.key)).json().data
    expect(view).toMatchObject({ flagged: true, flag_reason: expect.stringContaining('is stored for provider "openai"') })
    expect(JSON.stringify(run)).not.toContain('sk-openai-stored-4444')
  })

  it('sends the environment key to an openai_compatible base_url only when its host is in OPENAI_COMPATIBLE_ALLOWED_HOSTS', async () => {
    const w = await ctx.tenant()
    await createPrompt(ctx, w.key, 'Which roadmap tool?')
    await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${fake.url}/v1` })
    const authorizations = async () => {
      const before = fake.requests.length
      const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
      expect(run, JSON.stringify(run.errors)).toMatchObject({ state: 'succeeded', succeeded: 1 })
      return fake.requests.slice(before).map((request) => request.headers.authorization)
    }
    // Not listed (the default): the tenant's base_url gets the placeholder, not the operator's key.
    expect(await authorizations()).toEqual(['Bearer no-key'])
    expect(await withConfig({ openaiCompatibleAllowedHosts: ['llm.example.com'] }, authorizations)).toEqual(['Bearer no-key'])
    // Listed by the operator: the key goes there.
    expect(await withConfig({ openaiCompatibleAllowedHosts: ['llm.example.com', new URL(fake.url).hostname] }, authorizations)).toEqual([`Bearer ${ENV_KEY}`])
  })
})
