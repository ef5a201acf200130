// Webhooks end to end: a local receiver verifies every delivery with the `standardwebhooks`
// package, answers 500 twice then 200, and sees the retries with growing delays; the
// delivery log matches what it saw. Also: test sends, the final failure, SSRF refusals at
// creation and at delivery time (a name that resolves to an internal address by then),
// scopes, isolation between workspaces, and the secret shown once.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import type { Config } from '../../src/config.js'
import { SecretBox } from '../../src/security/secret-box.js'
import type { Resolver } from '../../src/security/outbound-url.js'
import { emitWebhookEvent, queueDelivery, type DeliveryTaskData } from '../../src/webhooks/emit.js'
import { webhookDeliveryTask } from '../../src/webhooks/delivery-task.js'
import { createWebhook } from '../../src/webhooks/webhooks.js'
import type { TaskSender } from '../../src/jobs/job-runtime.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { post } from '../helpers/requests.js'
import { eventually, sleep } from '../helpers/wait.js'

const SECRET_KEY = 'test-secret-key-for-webhooks-0123456789abcdef'
// Retries after 1 s, then 4 s: short enough for a test, growing like the real schedule.
const SCHEDULE = [1, 4]
const period = (visibility: number) => ({ start_date: '2026-11-01', end_date: '2026-11-07', visibility, responses: 120 })
const visibilityChange = {
  run_id: null,
  brand: { id: '0193a0c0-0000-7000-8000-0000000000b1', name: 'Acme' },
  previous: period(0.3),
  current: period(0.45),
  change: { delta: 0.15, p_value: 0.012, significant: true as const },
}

interface Received {
  path: string
  headers: Record<string, string>
  body: string
  at: number
  status: number
  verified: boolean
}

/** A receiver: /flaky answers 500 twice then 200, /down always 500, anything else 200. */
async function startReceiver(secrets: Map<string, string>) {
  const received: Received[] = []
  const counts = new Map<string, number>()
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]))
      let verified = false
      const secret = secrets.get(path)
      if (secret) {
        try {
          new Webhook(secret).verify(body, headers)
          verified = true
        } catch {
          verified = false
        }
      }
      const n = (counts.get(path) ?? 0) + 1
      counts.set(path, n)
      const status = path === '/down' ? 500 : path === '/flaky' && n <= 2 ? 500 : 200
      received.push({ path, headers, body, at: Date.now(), status, verified })
      response.statusCode = status
      response.end(status === 200 ? 'ok' : 'broken')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { received, url: (path: string) => `http://127.0.0.1:${port}${path}`, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(testBackends)('webhooks (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const secrets = new Map<string, string>()

  beforeAll(async () => {
    ctx = await createTestContext(backend, {
      secretKey: SECRET_KEY,
      webhookAllowPrivate: true,
      webhookRetrySchedule: SCHEDULE,
      webhookTimeoutMs: 3000,
      jobsWorker: true,
      rateLimitPerMinute: 1_000_000,
    })
    a = await ctx.tenant()
    receiver = await startReceiver(secrets)
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await receiver?.close()
  })

  /** Runs fn with some settings changed on the running app (its config object is shared). */
  async function withConfig<T>(changes: Partial<Config>, fn: () => Promise<T>): Promise<T> {
    const saved = { ...ctx.config }
    Object.assign(ctx.config, changes)
    try {
      return await fn()
    } finally {
      Object.assign(ctx.config, saved)
    }
  }

  async function create(key: string, path: string, events: string[]) {
    const response = await post(ctx, '/api/v1/webhooks', key, { url: receiver.url(path), events })
    expect(response.statusCode, response.body).toBe(201)
    const data = response.json().data as { id: string; secret: string; url: string; events: string[] }
    secrets.set(path, data.secret)
    return data
  }

  const deliveries = async (webhookId: string, key = a.key) => {
    const response = await ctx.get(`/api/v1/webhooks/${webhookId}/deliveries`, key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data as {
      deliveries: {
        id: string
        event: string
        state: string
        payload: { type: string; timestamp: string; data: unknown }
        next_attempt_at: string | null
        finished_at: string | null
        last_status: number | null
        attempts: { attempt: number; status_code: number | null; error: string | null; at: string; duration_ms: number }[]
      }[]
      pagination: { total_items: number }
    }
  }

  it('shows the secret once; lists and reads never return it, and the database holds it sealed', async () => {
    const created = await create(a.key, '/once', ['visibility.changed'])
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created.events).toEqual(['visibility.changed'])
    const list = await ctx.get('/api/v1/webhooks', a.key)
    const one = await ctx.get(`/api/v1/webhooks/${created.id}`, a.key)
    expect(list.statusCode).toBe(200)
    expect(one.statusCode).toBe(200)
    expect(list.json().data.webhooks.map((w: { id: string }) => w.id)).toContain(created.id)
    expect(one.json().data).toEqual({ id: created.id, url: receiver.url('/once'), events: ['visibility.changed'], active: true, created_at: expect.any(String) })
    const raw = created.secret.slice('whsec_'.length)
    for (const body of [list.body, one.body]) {
      expect(body).not.toContain(raw)
      expect(body).not.toMatch(/secret/)
    }
    const row = await ctx.database.db.selectFrom('webhook').select('secret_sealed').where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(row.secret_sealed).not.toContain(raw)
    expect(row.secret_sealed.startsWith('v1.')).toBe(true)
  })

  it('delivers a signed event, retrying after 500s with growing delays; the delivery log matches what the receiver saw', async () => {
    const flaky = await create(a.key, '/flaky', ['collection.run.completed', 'collection.run.failed'])
    const other = await create(a.key, '/other', ['visibility.changed'])
    const data = { run: { id: '0193a0c0-0000-7000-8000-000000000001', state: 'succeeded' } }
    const ids = await emitWebhookEvent(ctx.database.db, a.workspaceId, 'collection.run.completed', data, ctx.app.jobs.tasks)
    expect(ids).toHaveLength(1)
    await eventually(async () => (await deliveries(flaky.id)).deliveries[0]?.state === 'delivered', 40_000, 200)

    const seen = receiver.received.filter((r) => r.path === '/flaky')
    expect(seen.map((r) => r.status)).toEqual([500, 500, 200])
    expect(seen.every((r) => r.verified)).toBe(true)
    // One message id across retries (receivers de-duplicate on it), a fresh timestamp each time.
    expect(new Set(seen.map((r) => r.headers['webhook-id']))).toEqual(new Set([ids[0]]))
    for (const r of seen) expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    const stamps = seen.map((r) => Number(r.headers['webhook-timestamp']))
    expect(new Set(stamps).size).toBe(3)
    stamps.forEach((stamp, i) => expect(Math.abs(stamp * 1000 - seen[i].at)).toBeLessThan(2000))
    const body = JSON.parse(seen[0].body)
    expect(body).toEqual({ type: 'collection.run.completed', timestamp: expect.any(String), data })
    expect(new Set(seen.map((r) => r.body)).size).toBe(1)
    const gaps = [seen[1].at - seen[0].at, seen[2].at - seen[1].at]
    expect(gaps[0]).toBeGreaterThanOrEqual(SCHEDULE[0] * 1000 - 100)
    expect(gaps[1]).toBeGreaterThanOrEqual(SCHEDULE[1] * 1000 - 100)
    expect(gaps[1]).toBeGreaterThan(gaps[0])

    const log = await deliveries(flaky.id)
    expect(log.pagination.total_items).toBe(1)
    const [delivery] = log.deliveries
    expect(delivery).toMatchObject({ id: ids[0], event: 'collection.run.completed', state: 'delivered', last_status: 200, next_attempt_at: null })
    expect(delivery.payload).toEqual(body)
    expect(delivery.attempts.map((x) => [x.attempt, x.status_code])).toEqual(seen.map((r, i) => [i + 1, r.status]))
    expect(delivery.attempts.map((x) => x.error)).toEqual(['receiver answered 500', 'receiver answered 500', null])
    // The log's times are the receiver's, give or take the round trip.
    delivery.attempts.forEach((x, i) => expect(Math.abs(Date.parse(x.at) - seen[i].at)).toBeLessThan(2000))
    // A webhook not subscribed to the event got nothing.
    expect((await deliveries(other.id)).deliveries).toEqual([])
    expect(receiver.received.some((r) => r.path === '/other')).toBe(false)
  }, 60_000)

  it("emitted inside the caller's transaction, nothing is delivered when it rolls back", async () => {
    const c = await ctx.tenant()
    const hook = await create(c.key, '/rolled-back', ['visibility.changed'])
    const emitted = await ctx.database.db
      .transaction()
      .execute(async (trx) => {
        expect(await emitWebhookEvent(trx, c.workspaceId, 'visibility.changed', visibilityChange, ctx.app.jobs.tasks)).toHaveLength(1)
        throw new Error('roll back')
      })
      .catch((error: Error) => error.message)
    expect(emitted).toBe('roll back')
    await sleep(2500)
    expect((await deliveries(hook.id, c.key)).deliveries).toEqual([])
    expect(receiver.received.some((r) => r.path === '/rolled-back')).toBe(false)
    // The same emit committed is delivered: the rollback, not a broken emit, stopped it.
    await emitWebhookEvent(ctx.database.db, c.workspaceId, 'visibility.changed', visibilityChange, ctx.app.jobs.tasks)
    await eventually(() => receiver.received.some((r) => r.path === '/rolled-back'), 20_000, 100)
  })

  it('fails a delivery after the last attempt of the schedule', async () => {
    const down = await create(a.key, '/down', ['collection.run.failed'])
    await emitWebhookEvent(ctx.database.db, a.workspaceId, 'collection.run.failed', { run: { id: '0193a0c0-0000-7000-8000-000000000002', state: 'failed' } }, ctx.app.jobs.tasks)
    await eventually(async () => (await deliveries(down.id)).deliveries[0]?.state === 'failed', 40_000, 200)
    const [delivery] = (await deliveries(down.id)).deliveries
    expect(delivery.attempts.map((x) => x.status_code)).toEqual(Array(SCHEDULE.length + 1).fill(500))
    expect(delivery).toMatchObject({ last_status: 500, next_attempt_at: null, finished_at: expect.any(String) })
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(SCHEDULE.length + 1)
  }, 60_000)

  it('a test send delivers webhook.test to that webhook only, whatever it subscribes to', async () => {
    const target = await create(a.key, '/test-send', ['visibility.changed'])
    const response = await ctx.app.inject({ method: 'POST', url: `/api/v1/webhooks/${target.id}/test`, headers: { authorization: `Bearer ${a.key}` } })
    expect(response.statusCode, response.body).toBe(202)
    const { delivery_id } = response.json().data
    await eventually(async () => (await deliveries(target.id)).deliveries[0]?.state === 'delivered', 20_000, 200)
    const seen = receiver.received.filter((r) => r.path === '/test-send')
    expect(seen).toHaveLength(1)
    expect(seen[0].verified).toBe(true)
    expect(seen[0].headers['webhook-id']).toBe(delivery_id)
    expect(JSON.parse(seen[0].body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: target.id } })
  }, 30_000)

  it('refuses internal addresses at creation: private unless allowed, link-local and metadata always', async () => {
    const refused = async (url: string) => {
      const response = await post(ctx, '/api/v1/webhooks', a.key, { url, events: ['visibility.changed'] })
      return { status: response.statusCode, error: response.json().error as { code: string; param: string; message: string } | undefined }
    }
    await withConfig({ webhookAllowPrivate: false }, async () => {
      for (const url of [receiver.url('/x'), 'http://[::1]:9/', 'http://10.1.2.3/', 'http://localhost:9/']) {
        const { status, error } = await refused(url)
        expect(status, url).toBe(400)
        expect(error).toMatchObject({ code: 'invalid_parameter', param: 'url', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true') })
      }
    })
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://metadata.google.internal/']) {
      const { status, error } = await refused(url)
      expect(status, url).toBe(400)
      expect(error?.message).toMatch(/never reach/)
    }
    expect((await refused('ftp://example.com/')).status).toBe(400)
    const badEvent = await post(ctx, '/api/v1/webhooks', a.key, { url: receiver.url('/x'), events: ['collection.run.started'] })
    expect(badEvent.statusCode).toBe(400)
    expect(badEvent.json().error.message).toMatch(/collection\.run\.completed, collection\.run\.failed, visibility\.changed/)
    expect((await post(ctx, '/api/v1/webhooks', a.key, { url: receiver.url('/x'), events: [] })).statusCode).toBe(400)
  })

  it('refuses at delivery time a name that now resolves to an internal address (DNS rebinding), before sending anything', async () => {
    // Saved while the name resolved to a public address; by delivery time it points inside.
    const publicAtFirst: Resolver = async () => [{ address: '93.184.215.14', family: 4 }]
    const { assertOutboundUrl } = await import('../../src/security/outbound-url.js')
    const url = `http://rebind.example:${receiver.port}/rebind`
    await assertOutboundUrl(url, { allowPrivate: false, resolver: publicAtFirst })
    const box = SecretBox.fromSecretKey(SECRET_KEY)
    const webhook = await createWebhook(ctx.database.db, a.workspaceId, { url, events: ['visibility.changed'] }, box)
    const sent: { data: object; startAfterSeconds?: number }[] = []
    const capture: TaskSender = {
      send: async (_type, data, options) => {
        sent.push({ data, startAfterSeconds: options?.startAfterSeconds })
        return null
      },
    }
    const attempt = async (address: string, allowPrivate: boolean, deliveryId: string, n: number) => {
      const task = webhookDeliveryTask({ secretKey: SECRET_KEY, timeoutMs: 2000, retrySchedule: SCHEDULE, allowPrivate, resolver: async () => [{ address, family: 4 }] })
      const data: DeliveryTaskData = { workspaceId: a.workspaceId, deliveryId, attempt: n }
      await task.handle({ id: 'x', type: 'webhook_delivery', data, db: ctx.database.db, retryCount: 0, retryLimit: 0, stopping: false, tasks: capture })
    }
    const deliveryId = await queueDelivery(ctx.database.db, a.workspaceId, webhook.id, 'visibility.changed', visibilityChange, capture)
    await attempt('127.0.0.1', false, deliveryId, 1)
    await attempt('169.254.169.254', true, deliveryId, 2)
    const [delivery] = (await deliveries(webhook.id)).deliveries
    expect(delivery.attempts.map((x) => [x.status_code, x.error])).toEqual([
      // The refusal names the setting, never what the name resolved to.
      [null, expect.stringMatching(/^rebind\.example is refused: it resolves to an address webhooks may not reach; .*WEBHOOK_ALLOW_PRIVATE=true/)],
      [null, expect.stringMatching(/^rebind\.example is refused: it resolves to an address webhooks may not reach; .*link-local and cloud metadata addresses never/)],
    ])
    // The first attempt scheduled the second after the schedule's first wait.
    expect(sent.filter((s) => 'attempt' in s.data && s.data.attempt === 2).map((s) => s.startAfterSeconds)).toEqual([SCHEDULE[0]])
    expect(receiver.received.some((r) => r.path === '/rebind')).toBe(false)
    // The same name resolving to the receiver, with private addresses allowed, gets through:
    // the refusals above were the guard, not a broken request.
    await attempt('127.0.0.1', true, deliveryId, 3)
    expect((await deliveries(webhook.id)).deliveries[0].state).toBe('delivered')
    expect(receiver.received.filter((r) => r.path === '/rebind')).toHaveLength(1)
  })

  it('answers 503 with what to do when BEACON_SECRET_KEY is not set', async () => {
    await withConfig({ secretKey: undefined }, async () => {
      const response = await post(ctx, '/api/v1/webhooks', a.key, { url: receiver.url('/x'), events: ['visibility.changed'] })
      expect(response.statusCode).toBe(503)
      expect(response.json().error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('BEACON_SECRET_KEY is not set') })
    })
  })

  it('needs manage:workspace on every webhook route', async () => {
    const reader = await ctx.tenant({ scopes: ['read:analytics', 'write:data', 'export:data'] })
    const mine = await create(a.key, '/scoped', ['visibility.changed'])
    const requests = [
      { method: 'POST' as const, url: '/api/v1/webhooks', payload: { url: receiver.url('/x'), events: ['visibility.changed'] } },
      { method: 'GET' as const, url: '/api/v1/webhooks' },
      { method: 'GET' as const, url: `/api/v1/webhooks/${mine.id}` },
      { method: 'DELETE' as const, url: `/api/v1/webhooks/${mine.id}` },
      { method: 'POST' as const, url: `/api/v1/webhooks/${mine.id}/test` },
      { method: 'GET' as const, url: `/api/v1/webhooks/${mine.id}/deliveries` },
    ]
    for (const request of requests) {
      const response = await ctx.app.inject({ ...request, headers: { authorization: `Bearer ${reader.key}` } })
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(403)
      expect(response.json().error.code).toBe('insufficient_scope')
    }
  })

  it("another workspace's webhook is not found on any route, and deleting one stops its deliveries", async () => {
    const b = await ctx.tenant({ name: 'Other' })
    const theirs = await create(b.key, '/theirs', ['visibility.changed'])
    for (const [method, url] of [
      ['GET', `/api/v1/webhooks/${theirs.id}`],
      ['DELETE', `/api/v1/webhooks/${theirs.id}`],
      ['POST', `/api/v1/webhooks/${theirs.id}/test`],
      ['GET', `/api/v1/webhooks/${theirs.id}/deliveries`],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: { authorization: `Bearer ${a.key}` } })
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.body).not.toContain(receiver.url('/theirs'))
    }
    const list = await ctx.get('/api/v1/webhooks', a.key)
    expect(list.body).not.toContain(theirs.id)
    // A's events never reach B's webhook.
    expect(await emitWebhookEvent(ctx.database.db, a.workspaceId, 'visibility.changed', visibilityChange, ctx.app.jobs.tasks)).not.toHaveLength(0)
    expect((await deliveries(theirs.id, b.key)).deliveries).toEqual([])
    // B deletes its webhook: gone for B too, with its log.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${theirs.id}`, headers: { authorization: `Bearer ${b.key}` } })
    expect(deleted.statusCode).toBe(200)
    expect((await ctx.get(`/api/v1/webhooks/${theirs.id}`, b.key)).statusCode).toBe(404)
    expect(await emitWebhookEvent(ctx.database.db, b.workspaceId, 'visibility.changed', visibilityChange, ctx.app.jobs.tasks)).toEqual([])
    expect((await ctx.get('/api/v1/webhooks/not-a-uuid', a.key)).statusCode).toBe(400)
  })
})
