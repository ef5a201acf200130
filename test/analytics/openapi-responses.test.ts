// Every analytics route answers 200 with a body that validates against the response
// schema it declares in the OpenAPI document (which also drives serialization).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// CommonJS modules seen from ESM: the class and the function sit on `default`.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module.default }).default ?? Ajv2020Module
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule.default }).default ?? addFormatsModule
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { DEMO_TARGET_ID, seedDemo } from '../../src/demo/seed-demo.js'
import { createRun } from '../../src/collection/runs.js'
import { putCredential } from '../../src/collection/credentials.js'
import { SecretBox } from '../../src/security/secret-box.js'
import { queueDelivery } from '../../src/webhooks/emit.js'
import { createChannel } from '../../src/notifications/channels.js'
import { queueNotification } from '../../src/notifications/emit.js'
import { createWebhook } from '../../src/webhooks/webhooks.js'

const TODAY = '2026-06-30'

describe.each(testBackends)('responses match the OpenAPI document (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let document: {
    paths: Record<
      string,
      Record<string, { parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
    >
  }
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    ctx = await createTestContext(backend, { rateLimitPerMinute: 1_000_000 })
    const demo = await seedDemo(ctx.database.db, { today: TODAY })
    key = demo.key
    const brand = await ctx.database.db.selectFrom('brand').select('id').where('workspace_id', '=', demo.workspaceId).where('is_primary', '=', true).executeTakeFirstOrThrow()
    const prompt = await ctx.database.db.selectFrom('prompt').select('id').where('workspace_id', '=', demo.workspaceId).orderBy('id').executeTakeFirstOrThrow()
    ids.brand_id = brand.id
    ids.target_brand_id = brand.id
    ids.prompt_id = prompt.id
    ids.prompt_template_id = prompt.id
    ids.response_id = (await ctx.database.db.selectFrom('response').select('id').where('workspace_id', '=', demo.workspaceId).orderBy('id').executeTakeFirstOrThrow()).id
    // A queued job (no worker runs in this suite) for GET /jobs/{job_id}.
    ids.job_id = (await ctx.app.jobs.enqueue(ctx.database.db, demo.workspaceId, 'reanalysis')).id
    // Collection: the demo's target, a queued run and a stored credential.
    ids.target_id = DEMO_TARGET_ID
    ids.run_id = await createRun(ctx.database.db, demo.workspaceId, {}, ctx.app.jobs.tasks)
    // One kept non-answer of that run, for GET /collection/runs/{run_id}/non-answers/{non_answer_id}.
    ids.non_answer_id = '019a0000-0000-7000-8000-00000000a001'
    await ctx.database.db
      .insertInto('collection_non_answer')
      .values({
        workspace_id: demo.workspaceId,
        id: ids.non_answer_id,
        run_id: ids.run_id,
        target_id: DEMO_TARGET_ID,
        prompt_id: prompt.id,
        external_id: `run:${ids.run_id}:${DEMO_TARGET_ID}:${prompt.id}:0`,
        sample: 0,
        attempt: 0,
        outcome: 'refused',
        reason: 'stop_reason: refusal',
        provider: 'anthropic',
        raw: JSON.stringify({ type: 'message', stop_reason: 'refusal', content: [] }),
      })
      .execute()
    await putCredential(ctx.database.db, demo.workspaceId, 'openai-main', { provider: 'openai', api_key: 'sk-test-openapi-1234' }, 'a-test-secret-key-of-at-least-32-characters')
    // A webhook with one delivery and one logged attempt for the webhook routes.
    const webhook = await createWebhook(
      ctx.database.db,
      demo.workspaceId,
      { url: 'https://hooks.example.com/beacon', events: ['collection.run.completed'] },
      SecretBox.fromSecretKey('openapi-test-secret-key-0123456789abcdef'),
    )
    ids.webhook_id = webhook.id
    const deliveryId = await queueDelivery(ctx.database.db, demo.workspaceId, webhook.id, 'collection.run.completed', { run: { id: 'r1' } }, { send: async () => null })
    await ctx.database.db
      .insertInto('webhook_attempt')
      .values({ workspace_id: demo.workspaceId, delivery_id: deliveryId, attempt: 1, status_code: 500, duration_ms: 12, error: 'receiver answered 500' })
      .execute()
    // A notification channel with one delivery and one logged attempt for the notification routes.
    const channel = await createChannel(
      ctx.database.db,
      demo.workspaceId,
      {
        kind: 'email',
        target: 'marketing-team@example.com',
        hint: 'marketing-team@example.com',
        events: ['digest.weekly'],
        schedule: { day: 'monday', hour: 9, timezone: 'Europe/Berlin' },
      },
      SecretBox.fromSecretKey('openapi-test-secret-key-0123456789abcdef'),
    )
    ids.channel_id = channel.id
    const notificationId = await queueNotification(
      ctx.database.db,
      demo.workspaceId,
      channel.id,
      'notification.test',
      { channel_id: channel.id, message: 'hi' },
      { send: async () => null },
    )
    await ctx.database.db
      .insertInto('notification_attempt')
      .values({ workspace_id: demo.workspaceId, delivery_id: notificationId, attempt: 1, status_code: 250, duration_ms: 12, error: null })
      .execute()
    document = (await ctx.app.inject({ url: '/openapi.json' })).json()
  }, 180_000)
  afterAll(() => ctx.close())

  it('every GET route under /api/v1 except exports returns a valid 200', async () => {
    const ajv = new (Ajv2020 as unknown as new (options: object) => import('ajv').default)({ strict: false, allErrors: true })
    ;(addFormats as unknown as (ajv: unknown) => void)(ajv)
    const checked: string[] = []
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.get
      if (!operation || !path.startsWith('/api/v1/') || path.startsWith('/api/v1/exports')) continue
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? ids.prompt_id)
      const query = new URLSearchParams()
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue
        if (parameter.name === 'start_date') query.set('start_date', '2026-05-01')
        if (parameter.name === 'end_date') query.set('end_date', TODAY)
        if (parameter.required && ids[parameter.name]) query.set(parameter.name, ids[parameter.name])
      }
      const response = await ctx.get(`${url}?${query}`, key)
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200)
      const schema = operation.responses['200']?.content?.['application/json']?.schema
      expect(schema, `${path} declares a 200 schema`).toBeDefined()
      const validate = ajv.compile(schema as object)
      const body = response.json()
      expect(validate(body), `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true)
      // The demo has data in this range, so the payload is not trivially empty.
      expect(JSON.stringify(body.data).length, path).toBeGreaterThan(40)
      checked.push(path)
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        '/api/v1/dashboard',
        '/api/v1/brands',
        '/api/v1/brands/{brand_id}',
        '/api/v1/prompts',
        '/api/v1/prompts/{prompt_id}',
        '/api/v1/sources',
        '/api/v1/urls',
        '/api/v1/urls-detailed',
        '/api/v1/responses',
        '/api/v1/responses/{response_id}',
        '/api/v1/aio-metrics',
        '/api/v1/aio-metrics/prompt/{prompt_id}',
        '/api/v1/filters',
        '/api/v1/jobs/{job_id}',
        '/api/v1/webhooks',
        '/api/v1/webhooks/{webhook_id}',
        '/api/v1/webhooks/{webhook_id}/deliveries',
        '/api/v1/keys',
        '/api/v1/notifications',
        '/api/v1/notifications/{channel_id}',
        '/api/v1/notifications/{channel_id}/deliveries',
      ]),
    )
  }, 120_000)
})
