// Walks every route of the OpenAPI document with a key of workspace A and every id kind
// of workspace B (path, query and body). B's ids are 404 (or a 400 naming the id), and
// nothing of B ever appears in A's answers. New routes are covered by reading the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'
import { DEMO_TARGET_ID, seedDemo } from '../../src/demo/seed-demo.js'
import { createRun } from '../../src/collection/runs.js'
import { putCredential } from '../../src/collection/credentials.js'
import { SecretBox } from '../../src/security/secret-box.js'
import { createWebhook } from '../../src/webhooks/webhooks.js'
import { createChannel } from '../../src/notifications/channels.js'
import { createApiKey } from '../../src/admin/api-key-store.js'

const TODAY = new Date().toISOString().slice(0, 10)

describe.each(testBackends)('tenant isolation matrix (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  const b: Record<string, string> = {}
  let bSecrets: string[]
  let document: { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>> }

  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000, exportQuotaPerHour: 100_000 })
    a = await ctx.tenant({ name: 'Workspace A' })
    const promptA = await createPrompt(ctx, a.key, 'Which CRM?', ['crm'])
    await createBrand(ctx, a.key, { name: 'Alpha', is_primary: true })
    await ingest(ctx, a.key, [{ prompt_id: promptA, provider: 'openai', model: 'gpt-4o', content: 'Alpha is fine. https://alpha.example/x', created_at: new Date().toISOString() }])
    const demo = await seedDemo(ctx.database.db)
    const brand = await ctx.database.db.selectFrom('brand').select(['id', 'name']).where('workspace_id', '=', demo.workspaceId).orderBy('id').executeTakeFirstOrThrow()
    const prompt = await ctx.database.db.selectFrom('prompt').select(['id', 'text']).where('workspace_id', '=', demo.workspaceId).orderBy('id').executeTakeFirstOrThrow()
    const response = await ctx.database.db.selectFrom('response').select('id').where('workspace_id', '=', demo.workspaceId).orderBy('id').executeTakeFirstOrThrow()
    // Collection: B's demo target, a run of B's and a credential of B's.
    const runId = await createRun(ctx.database.db, demo.workspaceId, {}, ctx.app.jobs.tasks)
    await putCredential(ctx.database.db, demo.workspaceId, 'b-only-credential', { provider: 'openai', api_key: 'sk-b-secret-9876' }, 'a-test-secret-key-of-at-least-32-characters')
    Object.assign(b, {
      brand_id: brand.id,
      target_brand_id: brand.id,
      prompt_id: prompt.id,
      prompt_template_id: prompt.id,
      response_id: response.id,
      target_id: DEMO_TARGET_ID,
      run_id: runId,
    })
    const webhook = await createWebhook(
      ctx.database.db,
      demo.workspaceId,
      { url: 'https://hooks.workspace-b.example/beacon', events: ['visibility.changed'] },
      SecretBox.fromSecretKey('tenant-isolation-test-key-0123456789abcdef'),
    )
    Object.assign(b, { webhook_id: webhook.id })
    // A notification channel and an API key of B's.
    const channel = await createChannel(
      ctx.database.db,
      demo.workspaceId,
      {
        kind: 'slack',
        target: 'https://hooks.slack.workspace-b.example/services/B',
        hint: 'https://hooks.slack.workspace-b.example/…es/B',
        events: ['digest.weekly'],
        schedule: null,
      },
      SecretBox.fromSecretKey('tenant-isolation-test-key-0123456789abcdef'),
    )
    const bKey = await createApiKey(ctx.database.db, { workspaceId: demo.workspaceId, scopes: ['read:analytics'], name: 'b-only-key-name' })
    Object.assign(b, { channel_id: channel.id, key_id: bKey.id })
    bSecrets = [
      ...[brand.id, brand.name, prompt.id, prompt.text, response.id, 'tasklane', 'Kanbrio', 'gpt-4o-mini', 'sonar-pro'],
      ...[DEMO_TARGET_ID, runId, 'b-only-credential', '9876'],
      ...[webhook.id, 'workspace-b.example', webhook.secret],
      ...[channel.id, bKey.id, 'b-only-key-name', bKey.key_prefix],
    ]
    document = (await ctx.app.inject({ url: '/openapi.json' })).json()
  }, 180_000)
  afterAll(() => ctx.close())

  /** A valid change for each PATCH route, so that only the id decides the answer. */
  function patchBody(path: string): Record<string, unknown> {
    if (path.includes('/brands/')) return { name: 'Mine now' }
    if (path.includes('/collection/targets/')) return { samples: 2 }
    if (path.includes('/notifications/')) return { active: true }
    return { text: 'Mine now' }
  }

  function assertNoB(body: string, what: string) {
    for (const secret of bSecrets) expect(body.toLowerCase().includes(secret.toLowerCase()), `${what} leaks "${secret}"`).toBe(false)
  }

  it('path and query ids of B are 404 or a 400 naming the id; A answers hold nothing of B', async () => {
    let probes = 0
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/v1/')) continue
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'patch'].includes(method)) continue
        const parameters = operation.parameters ?? []
        const dates = path.startsWith('/api/v1/exports') ? { date_from: '2026-01-01', date_to: TODAY } : {}
        const base = new URLSearchParams(Object.fromEntries(Object.entries(dates).filter(([k]) => parameters.some((p) => p.name === k))))
        const idParams = parameters.filter((p) => b[p.name] && p.in === 'query')
        const hasPathId = /\{[^}]+\}/.test(path)
        const send = (url: string) =>
          method === 'get' ? ctx.get(url, a.key) : post(ctx, url, a.key, method === 'patch' ? patchBody(path) : {}, method.toUpperCase() as 'POST' | 'PATCH')
        if (hasPathId) {
          const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => b[name] ?? b.prompt_id)
          const query = new URLSearchParams(base)
          for (const p of parameters) if (p.required && p.in === 'query' && b[p.name]) query.set(p.name, b[p.name])
          const response = await send(`${url}?${query}`)
          probes++
          expect(response.statusCode, `${method} ${url}`).toBe(404)
          // Echoing the id the caller sent is not a leak; anything else of B would be.
          assertNoB(
            Object.values(b).reduce((body, id) => body.split(id).join(''), response.body),
            `${method} ${url}`,
          )
        }
        for (const p of idParams) {
          const query = new URLSearchParams(base)
          query.set(p.name, b[p.name])
          const url = path.replace(/\{([^}]+)\}/g, () => b.prompt_id)
          const response = await send(`${url}?${query}`)
          probes++
          expect([400, 404], `${method} ${path}?${p.name}=B → ${response.statusCode}`).toContain(response.statusCode)
          assertNoB(response.body.replace(b[p.name], ''), `${method} ${path}?${p.name}`)
        }
        if (!hasPathId && method === 'get') {
          const query = new URLSearchParams(base)
          for (const p of parameters)
            if (p.required && p.in === 'query' && p.name === 'brand_id')
              query.set('brand_id', (await ctx.database.db.selectFrom('brand').select('id').where('workspace_id', '=', a.workspaceId).executeTakeFirstOrThrow()).id)
          const response = await ctx.get(`${path}?${query}`, a.key)
          probes++
          expect(response.statusCode, `${path}: ${response.body.slice(0, 200)}`).toBeLessThan(300)
          assertNoB(response.body, `GET ${path}`)
        }
      }
    }
    expect(probes).toBeGreaterThan(20)
  }, 120_000)

  it("body ids of B are refused: ingestion naming B's prompt stores nothing", async () => {
    const responses = await post(ctx, '/api/v1/ingest/responses', a.key, {
      responses: [{ prompt_id: b.prompt_id, provider: 'openai', model: 'gpt-4o', content: 'x', created_at: new Date().toISOString() }],
    })
    expect(responses.statusCode).toBe(400)
    expect(responses.json().error.details[0].field).toBe('prompt_id')
    const aio = await post(ctx, '/api/v1/ingest/aio', a.key, { observations: [{ prompt_id: b.prompt_id, observed_at: new Date().toISOString(), has_aio: false }] })
    expect(aio.statusCode).toBe(400)
    const count = await ctx.database.db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', a.workspaceId)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
  })
})
