// Notification channels end to end (docs/agents-and-notifications.md): a local Slack-style
// receiver (an HTTP server taking the JSON an incoming webhook takes: {text, blocks}, per
// https://api.slack.com/messaging/webhooks) and a local SMTP server (smtp-server, each
// message parsed with mailparser) receive a test send, a real visibility.changed emitted
// through the webhooks' emitter, and a weekly digest scheduled by day, hour and time zone.
// Also: targets sealed and masked, validation, retries after a 500, pausing, isolation.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'
import { emitWebhookEvent } from '../../src/webhooks/emit.js'
import { scheduleDueDigests } from '../../src/notifications/digest-scheduler.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'
import { eventually } from '../helpers/wait.js'

const SECRET_KEY = 'test-secret-key-for-notifications-0123456789'
const PUBLIC_URL = 'https://beacon.example.com'

interface SlackPost {
  path: string
  body: { text: string; blocks: { type: string; text?: { type: string; text: string }; elements?: { type: string; url?: string; text?: unknown }[] }[] }
  status: number
}

async function startSlack() {
  const received: SlackPost[] = []
  const counts = new Map<string, number>()
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      const n = (counts.get(path) ?? 0) + 1
      counts.set(path, n)
      // Slack answers "ok" with 200; a 500 once on /flaky.
      const status = path === '/flaky' && n === 1 ? 500 : 200
      received.push({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), status })
      response.statusCode = status
      response.end(status === 200 ? 'ok' : 'internal_error')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { received, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

async function startSmtp() {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail)
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(testBackends)('notification channels (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let slack: Awaited<ReturnType<typeof startSlack>>
  let smtp: Awaited<ReturnType<typeof startSmtp>>

  beforeAll(async () => {
    slack = await startSlack()
    smtp = await startSmtp()
    ctx = await createTestContext(backend, {
      secretKey: SECRET_KEY,
      webhookAllowPrivate: true,
      webhookRetrySchedule: [1],
      webhookTimeoutMs: 5000,
      jobsWorker: true,
      rateLimitPerMinute: 1_000_000,
      smtpUrl: smtp.url,
      emailFrom: 'Beacon <beacon@example.com>',
      publicUrl: PUBLIC_URL,
    })
    a = await ctx.tenant({ name: 'Acme Marketing' })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await slack?.close()
    await smtp?.close()
  })

  const create = async (body: Record<string, unknown>, key = a.key) => {
    const response = await post(ctx, '/api/v1/notifications', key, body)
    expect(response.statusCode, response.body).toBe(201)
    return response.json().data as { id: string; kind: string; target: string; events: string[]; digest_schedule: unknown; active: boolean }
  }
  const deliveries = async (channelId: string) => {
    const response = await ctx.get(`/api/v1/notifications/${channelId}/deliveries`, a.key)
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data.deliveries as {
      id: string
      event: string
      state: string
      last_status: number | null
      attempts: { attempt: number; status_code: number | null; error: string | null }[]
    }[]
  }
  const testSend = async (channelId: string) => {
    const response = await post(ctx, `/api/v1/notifications/${channelId}/test`, a.key, {})
    expect(response.statusCode, response.body).toBe(202)
    return response.json().data.delivery_id as string
  }

  it('stores the Slack URL sealed and shows it only masked; e-mail addresses are checked and listed', async () => {
    const url = slack.url('/services/T000/B000/secretpart1234')
    const channel = await create({ kind: 'slack', target: url, events: ['visibility.changed'] })
    expect(channel).toMatchObject({ kind: 'slack', events: ['visibility.changed'], digest_schedule: null, active: true })
    expect(channel.target).toBe(`http://${new URL(url).host}/…1234`)
    const list = await ctx.get('/api/v1/notifications', a.key)
    const one = await ctx.get(`/api/v1/notifications/${channel.id}`, a.key)
    for (const body of [list.body, one.body]) {
      expect(body).not.toContain('secretpart')
      expect(body).not.toContain('/services/')
    }
    const row = await ctx.database.db.selectFrom('notification_channel').select('target_sealed').where('id', '=', channel.id).executeTakeFirstOrThrow()
    expect(row.target_sealed.startsWith('v1.')).toBe(true)
    expect(row.target_sealed).not.toContain('secretpart')

    const email = await create({ kind: 'email', target: 'ops@example.com, cmo@example.com;ops@example.com', events: ['digest.weekly'] })
    expect(email.target).toBe('ops@example.com, cmo@example.com')
    // Subscribed to the digest without a schedule: Monday 09:00 UTC.
    expect(email.digest_schedule).toEqual({ day: 'monday', hour: 9, timezone: 'UTC' })
  })

  it('refuses bad targets, events and schedules with a message saying what to do', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'slack', target: 'http://169.254.169.254/latest', events: ['visibility.changed'] }, 'target'],
      [{ kind: 'slack', target: 'not a url', events: ['visibility.changed'] }, 'target'],
      [{ kind: 'email', target: 'ops@example.com, nobody', events: ['digest.weekly'] }, 'target'],
      [{ kind: 'email', target: 'ops@example.com', events: ['digest.weekly'], digest_schedule: { day: 'monday', hour: 9, timezone: 'Mars/Olympus' } }, 'digest_schedule'],
    ]
    for (const [body, param] of cases) {
      const response = await post(ctx, '/api/v1/notifications', a.key, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().error.param).toBe(param)
      expect(response.json().error.message.length).toBeGreaterThan(20)
    }
    const badEvent = await post(ctx, '/api/v1/notifications', a.key, { kind: 'slack', target: slack.url('/x'), events: ['everything'] })
    expect(badEvent.statusCode).toBe(400)
    const badHour = await post(ctx, '/api/v1/notifications', a.key, {
      kind: 'email',
      target: 'a@example.com',
      events: ['digest.weekly'],
      digest_schedule: { day: 'monday', hour: 24, timezone: 'UTC' },
    })
    expect(badHour.statusCode).toBe(400)
    // Without SMTP_URL there are no e-mail channels.
    const saved = ctx.config.smtpUrl
    ctx.config.smtpUrl = undefined
    try {
      const response = await post(ctx, '/api/v1/notifications', a.key, { kind: 'email', target: 'a@example.com', events: ['digest.weekly'] })
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toMatch(/SMTP_URL/)
    } finally {
      ctx.config.smtpUrl = saved
    }
  })

  it('a test send reaches Slack as Block Kit and the mailbox as text and HTML; the log says delivered', async () => {
    const slackChannel = await create({ kind: 'slack', target: slack.url('/test-send'), events: ['collection.run.failed'] })
    const emailChannel = await create({ kind: 'email', target: 'team@example.com', events: ['collection.run.failed'] })
    const slackDelivery = await testSend(slackChannel.id)
    const emailDelivery = await testSend(emailChannel.id)
    await eventually(async () => (await deliveries(slackChannel.id))[0]?.state === 'delivered' && (await deliveries(emailChannel.id))[0]?.state === 'delivered', 30_000, 200)

    const posted = slack.received.filter((r) => r.path === '/test-send')
    expect(posted).toHaveLength(1)
    expect(posted[0].body.text).toBe('Beacon test notification')
    expect(posted[0].body.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Beacon test notification' } })
    expect(posted[0].body.blocks.find((b) => b.type === 'actions')?.elements?.[0].url).toBe(`${PUBLIC_URL}/`)

    const mail = smtp.received.find((m) => m.subject === 'Beacon test notification')!
    expect(mail).toBeDefined()
    expect(mail.from?.value).toEqual([{ name: 'Beacon', address: 'beacon@example.com' }])
    expect((Array.isArray(mail.to) ? mail.to : [mail.to]).map((t) => t?.text)).toEqual(['team@example.com'])
    expect(mail.text).toMatch(/this channel is set up/)
    expect(mail.html).toMatch(/<h1[^>]*>Beacon test notification<\/h1>/)

    const [slackLog] = await deliveries(slackChannel.id)
    expect(slackLog).toMatchObject({ id: slackDelivery, event: 'notification.test', state: 'delivered', last_status: 200 })
    const [emailLog] = await deliveries(emailChannel.id)
    expect(emailLog).toMatchObject({ id: emailDelivery, event: 'notification.test', state: 'delivered', last_status: 250 })
    expect(emailLog.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 250, error: null })])
  }, 60_000)

  it('a visibility.changed emitted by the webhooks emitter reaches the subscribed channels only; a 500 is retried', async () => {
    const t = await ctx.tenant()
    const subscribed = await create({ kind: 'slack', target: slack.url('/flaky'), events: ['visibility.changed'] }, t.key)
    const other = await create({ kind: 'slack', target: slack.url('/runs-only'), events: ['collection.run.completed'] }, t.key)
    const mailbox = await create({ kind: 'email', target: 'alerts@example.com', events: ['visibility.changed'] }, t.key)
    const period = (start: string, end: string, visibility: number) => ({ start_date: start, end_date: end, visibility, responses: 120 })
    const change = {
      run_id: null,
      brand: { id: '0193a0c0-0000-7000-8000-0000000000b1', name: 'Acme <Inc>' },
      previous: period('2026-11-01', '2026-11-07', 0.3),
      current: period('2026-11-08', '2026-11-14', 0.45),
      change: { delta: 0.15, p_value: 0.012, significant: true as const },
    }
    await emitWebhookEvent(ctx.database.db, t.workspaceId, 'visibility.changed', change, ctx.app.jobs.tasks)
    const log = async (id: string) => {
      const response = await ctx.get(`/api/v1/notifications/${id}/deliveries`, t.key)
      return response.json().data.deliveries as { state: string; attempts: { status_code: number | null; error: string | null }[] }[]
    }
    await eventually(async () => (await log(subscribed.id))[0]?.state === 'delivered' && (await log(mailbox.id))[0]?.state === 'delivered', 30_000, 200)
    const posts = slack.received.filter((r) => r.path === '/flaky')
    expect(posts.map((p) => p.status)).toEqual([500, 200])
    expect(new Set(posts.map((p) => JSON.stringify(p.body))).size).toBe(1)
    expect(posts[1].body.text).toBe('Acme <Inc>: visibility up 15.0 points')
    // mrkdwn escapes <, > and & so a brand name cannot make a link or a mention.
    expect(posts[1].body.blocks[1].text?.text).toContain('Acme &lt;Inc&gt; was named in 45.0% of 120 answers')
    expect((await log(subscribed.id))[0].attempts.map((x) => [x.status_code, x.error])).toEqual([
      [500, 'receiver answered 500'],
      [200, null],
    ])
    expect(await log(other.id)).toEqual([])
    const mail = smtp.received.find((m) => m.subject === 'Acme <Inc>: visibility up 15.0 points')!
    expect(mail.text).toMatch(/significant \(p = 0.012\)/)
    expect(mail.html).toContain('Acme &lt;Inc&gt;')
    expect(mail.html).not.toContain('Acme <Inc>')
  }, 60_000)

  it('PATCH changes events, schedule and target; a paused channel gets nothing delivered; other workspaces get 404', async () => {
    const channel = await create({ kind: 'slack', target: slack.url('/patch-a'), events: ['collection.run.completed'] })
    const patch = (body: unknown, key = a.key) => post(ctx, `/api/v1/notifications/${channel.id}`, key, body, 'PATCH')
    const changed = await patch({ events: ['digest.weekly'], digest_schedule: { day: 'friday', hour: 17, timezone: 'America/New_York' }, target: slack.url('/patch-b9999') })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json().data).toMatchObject({ events: ['digest.weekly'], digest_schedule: { day: 'friday', hour: 17, timezone: 'America/New_York' } })
    expect(changed.json().data.target).toMatch(/…9999$/)
    expect((await patch({})).statusCode).toBe(400)
    const paused = await patch({ active: false })
    expect(paused.json().data.active).toBe(false)
    await testSend(channel.id)
    await eventually(async () => (await deliveries(channel.id))[0]?.state === 'failed', 30_000, 200)
    expect((await deliveries(channel.id))[0].attempts[0].error).toMatch(/paused/)
    expect(slack.received.some((r) => r.path.startsWith('/patch-'))).toBe(false)

    const other = await ctx.tenant()
    expect((await ctx.get(`/api/v1/notifications/${channel.id}`, other.key)).statusCode).toBe(404)
    expect((await patch({ active: true }, other.key)).statusCode).toBe(404)
    expect((await post(ctx, `/api/v1/notifications/${channel.id}/test`, other.key, {})).statusCode).toBe(404)
    expect((await ctx.get(`/api/v1/notifications/${channel.id}/deliveries`, other.key)).statusCode).toBe(404)
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/notifications/${channel.id}`, headers: { authorization: `Bearer ${other.key}` } })
    expect(del.statusCode).toBe(404)
    const mine = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/notifications/${channel.id}`, headers: { authorization: `Bearer ${a.key}` } })
    expect(mine.statusCode).toBe(200)
    expect((await ctx.get(`/api/v1/notifications/${channel.id}`, a.key)).statusCode).toBe(404)
    // manage:workspace only.
    const reader = await ctx.tenant({ scopes: ['read:analytics'] })
    expect((await ctx.get('/api/v1/notifications', reader.key)).statusCode).toBe(403)
  }, 60_000)

  it('sends the weekly digest at its local hour, once even when two passes race, by e-mail and to Slack', async () => {
    const t = await ctx.tenant({ name: 'Digest Co' })
    await createBrand(ctx, t.key, { name: 'Acme', is_primary: true })
    await createBrand(ctx, t.key, { name: 'Globex' })
    const prompt = await createPrompt(ctx, t.key, 'Best CRM?')
    // The week of 2026-11-16..22 against 2026-11-09..15: Acme in 28 of 40 answers, before 12 of 40.
    const answers: unknown[] = []
    for (const [day, acme, source] of [
      ['2026-11-18', 28, 'https://www.newreview.com/acme'],
      ['2026-11-11', 12, 'https://oldreview.com/x'],
    ] as const) {
      for (let i = 0; i < 40; i++) {
        const names = [i < acme ? 'Acme' : null, i % 4 === 0 ? 'Globex' : null].filter(Boolean)
        answers.push({
          prompt_id: prompt,
          provider: 'openai',
          model: 'gpt-4o',
          content: names.length ? `Try ${names.join(' or ')}.` : 'It depends.',
          created_at: `${day}T12:00:00Z`,
          citations: i < 5 ? [{ url: source }, { url: 'https://always.org/a' }] : [],
        })
      }
    }
    await ingest(ctx, t.key, answers)
    const mailbox = await create(
      { kind: 'email', target: 'cmo@example.com', events: ['digest.weekly'], digest_schedule: { day: 'monday', hour: 10, timezone: 'Europe/Berlin' } },
      t.key,
    )
    const channel = await create(
      { kind: 'slack', target: slack.url('/digest'), events: ['digest.weekly'], digest_schedule: { day: 'monday', hour: 10, timezone: 'Europe/Berlin' } },
      t.key,
    )
    // Created before the slot (a channel created after this week's slot waits for the next).
    await sql`update notification_channel set created_at = '2026-01-01T00:00:00Z' where workspace_id = ${t.workspaceId}`.execute(ctx.database.db)

    // Monday 2026-11-23 10:00 in Berlin is 09:00 UTC: not yet at 08:59 UTC, due at 09:30 UTC.
    expect(await scheduleDueDigests(ctx.database.db, ctx.app.jobs.tasks, { now: new Date('2026-11-23T08:59:00Z'), publicUrl: PUBLIC_URL })).toEqual([])
    const now = new Date('2026-11-23T09:30:00Z')
    const passes = await Promise.all([1, 2, 3].map(() => scheduleDueDigests(ctx.database.db, ctx.app.jobs.tasks, { now, publicUrl: PUBLIC_URL })))
    const ours = async () => {
      const rows = await ctx.database.db.selectFrom('notification_delivery').select(['channel_id']).where('workspace_id', '=', t.workspaceId).execute()
      return rows.map((r) => r.channel_id).sort()
    }
    expect(await ours()).toEqual([mailbox.id, channel.id].sort())
    expect(passes.flat().length).toBeGreaterThanOrEqual(2)
    // A later pass in the same week sends nothing more.
    await scheduleDueDigests(ctx.database.db, ctx.app.jobs.tasks, { now: new Date('2026-11-24T09:30:00Z'), publicUrl: PUBLIC_URL })
    expect(await ours()).toHaveLength(2)

    await eventually(
      async () => smtp.received.some((m) => m.subject?.startsWith('Beacon weekly digest for Digest Co')) && slack.received.some((r) => r.path === '/digest'),
      30_000,
      200,
    )
    const mail = smtp.received.find((m) => m.subject?.startsWith('Beacon weekly digest for Digest Co'))!
    expect(mail.subject).toBe('Beacon weekly digest for Digest Co, 2026-11-16 to 2026-11-22: Acme 70.0% (+40.0 pts, significant)')
    // Plain text: every rate with its interval, the tested change, share of voice, new sources, runs, the link.
    expect(mail.text).toContain('2026-11-16 to 2026-11-22, compared with 2026-11-09 to 2026-11-15; 40 answers.')
    expect(mail.text).toMatch(/Acme \(your brand\): 70\.0% \[54\.6–81\.9\], was 30\.0%/)
    expect(mail.text).toContain('change +40.0 pts: significant (p < 0.001); share of voice 73.7%; 28 mentions')
    expect(mail.text).toMatch(/Globex: 25\.0% \[[\d.]+–[\d.]+\], was 25\.0%\n {4}change ±0\.0 pts: within noise \(p = 1\)/)
    expect(mail.text).toContain('newreview.com: cited by 5 answers')
    expect(mail.text).not.toContain('always.org')
    expect(mail.text).not.toContain('oldreview.com')
    expect(mail.text).toContain('No collection runs in this period.')
    expect(mail.text).toContain(`Open the dashboard: ${PUBLIC_URL}/?start_date=2026-11-16&end_date=2026-11-22`)
    // HTML for mail clients: tables, inline styles, no <style> block or script; only the significant change is coloured.
    expect(mail.html).toContain('<table role="presentation"')
    expect(mail.html).not.toMatch(/<style|<script|class=/)
    expect(mail.html).toMatch(/color:#0e7c3a;[^>]*>\+40\.0 pts/)
    expect(mail.html).toMatch(/color:#52606d;[^>]*>±0\.0 pts/)
    expect(mail.html).toContain(`href="${PUBLIC_URL}/?start_date=2026-11-16&amp;end_date=2026-11-22"`)

    const digestPost = slack.received.find((r) => r.path === '/digest')!
    expect(digestPost.body.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Weekly digest: Digest Co' } })
    const acmeBlock = digestPost.body.blocks.find((b) => b.text?.text.startsWith('*Acme*'))
    expect(acmeBlock?.text?.text).toMatch(/70\.0% \(95%: 54\.6–81\.9\), :large_green_circle: \+40\.0 pts, significant/)
    expect(digestPost.body.blocks.at(-1)).toMatchObject({ type: 'actions', elements: [{ type: 'button', url: `${PUBLIC_URL}/?start_date=2026-11-16&end_date=2026-11-22` }] })
    // The delivery log keeps the digest's data (the mail arrives just before the attempt is recorded).
    const latest = async () => (await ctx.get(`/api/v1/notifications/${mailbox.id}/deliveries`, t.key)).json().data.deliveries[0]
    await eventually(async () => (await latest())?.state === 'delivered', 30_000, 200)
    const delivery = await latest()
    expect(delivery).toMatchObject({ event: 'digest.weekly', state: 'delivered', payload: { type: 'digest.weekly', data: { period: { start: '2026-11-16', end: '2026-11-22' } } } })
    expect(delivery.payload.data.brands[0]).toMatchObject({
      name: 'Acme',
      visibility_score: 70,
      previous_visibility_score: 30,
      responses: 40,
      visibility_test: { delta: 40, significant: true },
    })
  }, 90_000)
})
