// The setup pages in a real browser (chromium through playwright-core) against the app built
// in-process, on PGlite and (with TEST_DATABASE_URL) PostgreSQL: the guided start on an empty
// workspace, provider keys, targets, webhooks, notification channels and API keys. Every test
// asserts what the API holds afterwards, not only what the page shows. A local receiver
// stands in for the webhook and Slack endpoints. Screenshots go to test-output/screenshots.
import { mkdirSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

const SHOTS = 'test-output/screenshots'
const SECRET_KEY = 'settings-e2e-secret-key-0123456789abcdef'
const available = chromiumAvailable()
if (!available) console.warn('settings e2e skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** A webhook / Slack incoming-webhook stand-in: records every POST and answers 200 "ok" (as Slack's incoming webhooks do). */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body })
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((done) => server.close(() => done())) }
}

describe.skipIf(!available).each(testBackends)('settings pages and guided start in chromium (%s)', (backend) => {
  let ctx: TestContext
  let base: string
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let page: Page
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let tenant: { key: string; workspaceId: string }
  const consoleErrors: string[] = []

  async function api<T>(path: string, key = tenant.key): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: T }).data
  }

  async function shot(name: string, target: Page = page) {
    await target.waitForLoadState('networkidle').catch(() => undefined)
    await target.screenshot({ path: `${SHOTS}/${name}${backend === 'pglite' ? '' : `-${backend}`}.png`, fullPage: true })
  }

  async function signIn(key: string, path: string, ready: string) {
    await page.goto(`${base}/#key=${key}`)
    await page.waitForSelector('#main', { timeout: 60_000 })
    await page.goto(`${base}${path}`)
    await page.waitForSelector(ready, { timeout: 30_000 })
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ctx = await createTestContext(backend, {
      jobsWorker: true,
      rateLimitPerMinute: 1_000_000,
      secretKey: SECRET_KEY,
      webhookAllowPrivate: true,
      demoLatencyMs: 20,
    })
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    receiver = await startReceiver()
    tenant = await ctx.tenant({ name: 'Fresh workspace' })
    browser = await launchChromium()
    page = await browser.context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
    page.on('dialog', (dialog) => void dialog.accept())
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await receiver?.close()
    await ctx?.close()
  })

  it('a workspace with no brands opens on the guided start and ends on the overview with what it set up', async () => {
    await page.goto(`${base}/#key=${tenant.key}`)
    await page.waitForURL(/\/start$/, { timeout: 60_000 })
    await page.waitForSelector('form[aria-label="Your brand"]')
    await shot('guided-start-brand')
    await page.fill('input[name="name"]', 'Northwind Boards')
    await page.fill('input[name="domain"]', 'northwind.example')
    await page.fill('input[name="category"]', 'project management')
    await page.click('form[aria-label="Your brand"] button[type="submit"]')

    await page.fill('input[name="competitors"]', 'Trackory, Cadencia')
    await page.click('form[aria-label="Competitors"] button[type="submit"]')

    // Suggestions from the category, three picked by default.
    await page.waitForSelector('[data-testid="prompt-suggestions"] input:checked')
    const suggestions = await page.$$eval('[data-testid="prompt-suggestions"] label', (labels) => labels.map((l) => (l.textContent ?? '').trim()))
    expect(suggestions).toContain('What are the best project management tools?')
    expect(suggestions).toContain('Northwind Boards vs Trackory: which project management tool is better?')
    await page.fill('textarea', 'Which kanban tool do agencies use?')
    await shot('guided-start-prompts')
    await page.click('form[aria-label="Prompts"] button[type="submit"]')

    // No key stored: the demo engine is pre-selected.
    await page.waitForSelector('[data-testid="target-choice"]')
    expect(await page.isChecked('[data-testid="target-choice"] input[value="demo"]')).toBe(true)
    await page.click('form[aria-label="Where to ask"] button[type="submit"]')

    await page.waitForSelector('[data-testid="first-run"]')
    await shot('guided-start-run')
    await page.waitForSelector('[data-testid="first-run"][data-state="succeeded"]', { timeout: 120_000 })
    const shown = await page.getAttribute('[data-testid="first-run"]', 'data-done')

    // What the API holds now.
    const brands = await api<{ competitors: { name: string; domain: string; is_primary: boolean }[] }>('/brands')
    expect(brands.competitors.map((b) => [b.name, b.is_primary]).sort()).toEqual([
      ['Cadencia', false],
      ['Northwind Boards', true],
      ['Trackory', false],
    ])
    expect(brands.competitors.find((b) => b.is_primary)?.domain).toBe('northwind.example')
    const brandId = (await api<{ brands: { id: string }[] }>('/filters')).brands[0].id
    const prompts = await api<{ prompts: { text: string }[] }>(`/prompts?brand_id=${brandId}`)
    expect(prompts.prompts.map((p) => p.text)).toEqual(expect.arrayContaining(['What are the best project management tools?', 'Which kanban tool do agencies use?']))
    expect(prompts.prompts).toHaveLength(4)
    const targets = await api<{ api: string; kind: string }[]>('/collection/targets')
    expect(targets.map((t) => [t.kind, t.api])).toEqual([['answer', 'demo']])
    const runs = await api<{ runs: { state: string; planned: number; succeeded: number }[] }>('/collection/runs')
    expect(runs.runs).toHaveLength(1)
    expect(runs.runs[0]).toMatchObject({ state: 'succeeded', planned: 4, succeeded: 4 })
    expect(shown).toBe('4')

    // Discovery over the first answers (the demo engine names brands the workspace does not track).
    await page.click('[data-testid="first-run"] ~ button:has-text("Next")')
    await page.waitForSelector('[data-testid="job-progress"][data-state="succeeded"]', { timeout: 120_000 })
    // What discovery proposes from four random demo answers varies: the page lists exactly what the API holds.
    const suggested = await api<{ competitors: { name: string }[] }>('/brands?discovery_status=suggested&is_active=false&per_page=20')
    const expected = suggested.competitors.map((b) => b.name).sort()
    await expect
      .poll(async () => (await page.$$eval('[data-testid="start-suggestions"] li strong', (nodes) => nodes.map((n) => n.textContent ?? ''))).sort(), { timeout: 30_000 })
      .toEqual(expected)
    if (expected.length === 0) expect(await page.textContent('main')).toContain('No other names found yet')
    // Prompt ideas: the engines' own top searches of the first run, then one per discovered name (at most three).
    const searched = await api<{ search_queries: { query: string }[] }>('/search-queries?per_page=3')
    const ideas = new Set([...searched.search_queries.map((q) => q.query), ...suggested.competitors.slice(0, 3).map((b) => `What are the alternatives to ${b.name}?`)])
    await expect.poll(async () => page.locator('[data-testid="discovered-prompt-ideas"] button').count(), { timeout: 30_000 }).toBe(ideas.size)
    await shot('guided-start-done')
    await page.click('button:has-text("Open the overview")')
    await page.waitForSelector('[data-testid="dashboard-table"] tbody tr', { timeout: 60_000 })
    expect(new URL(page.url()).pathname).toBe('/')
  }, 400_000)

  it('provider keys are write-only: stored, listed by last four, replaced and deleted', async () => {
    await signIn(tenant.key, '/settings/credentials', 'form[aria-label="Add a provider key"]')
    await page.selectOption('select[name="provider"]', 'anthropic')
    await page.fill('input[name="name"]', 'Claude team')
    await page.fill('input[name="api_key"]', 'sk-ant-test-secret-4821')
    await page.click('form[aria-label="Add a provider key"] button[type="submit"]')
    await page.waitForSelector('[data-credential="claude-team"]')
    const stored = await api<{ name: string; provider: string; last_four: string }[]>('/collection/credentials')
    expect(stored).toEqual([expect.objectContaining({ name: 'claude-team', provider: 'anthropic', last_four: '4821' })])
    expect(JSON.stringify(stored)).not.toContain('sk-ant-test-secret')
    expect(await page.textContent('[data-credential="claude-team"] [data-testid="credential-last-four"]')).toBe('…4821')
    expect(await page.content()).not.toContain('sk-ant-test-secret')
    await shot('settings-credentials')

    await page.click('[data-credential="claude-team"] button:has-text("Replace")')
    await page.fill('form[aria-label="Replace the key claude-team"] input[name="api_key"]', 'sk-ant-rotated-7777')
    await page.click('form[aria-label="Replace the key claude-team"] button[type="submit"]')
    await expect.poll(async () => (await api<{ last_four: string }[]>('/collection/credentials')).map((c) => c.last_four), { timeout: 20_000 }).toEqual(['7777'])

    await page.click('[data-credential="claude-team"] button:has-text("Delete")')
    await expect.poll(async () => (await api<unknown[]>('/collection/credentials')).length, { timeout: 20_000 }).toBe(0)
    await page.waitForSelector('[data-credential="claude-team"]', { state: 'detached' })
  })

  it('targets: an AI-overview target is added and paused as the API then lists it', async () => {
    await signIn(tenant.key, '/settings/targets', '[data-testid="target-form"]')
    await page.check('input[name="kind"][value="aio"]')
    await page.selectOption('select[name="serp"]', 'dataforseo')
    await page.fill('input[name="locale"]', 'en-GB')
    await page.fill('input[name="schedule"]', '0 7 * * 1')
    await page.fill('input[name="timezone"]', 'Europe/London')
    await page.click('[data-testid="target-form"] button[type="submit"]')
    await page.waitForSelector('[data-testid="settings-targets"] tbody tr:has-text("AI overview")')
    type Target = { id: string; kind: string; serp: string | null; locale: string | null; schedule: string; timezone: string; enabled: boolean }
    const aio = (await api<Target[]>('/collection/targets')).find((t) => t.kind === 'aio')
    expect(aio).toMatchObject({ serp: 'dataforseo', locale: 'en-GB', schedule: '0 7 * * 1', timezone: 'Europe/London', enabled: true })
    await shot('settings-targets')
    await page.click('[data-testid="settings-targets"] tbody tr:has-text("AI overview") button[aria-pressed="true"]')
    await expect.poll(async () => (await api<Target[]>('/collection/targets')).find((t) => t.id === aio!.id)?.enabled, { timeout: 20_000 }).toBe(false)
  })

  it('webhooks: the secret is shown once, a test send arrives signed and the delivery log shows it; a refused address is explained in plain words', async () => {
    await signIn(tenant.key, '/settings/webhooks', 'form[aria-label="Add a webhook"]')
    // A link-local address is always refused by the API's outbound guard.
    await page.fill('input[name="url"]', 'http://169.254.169.254/latest')
    await page.click('form[aria-label="Add a webhook"] button[type="submit"]')
    await page.waitForSelector('[data-testid="action-error"]')
    const refusal = await page.textContent('[data-testid="action-error"] strong')
    expect(refusal).toMatch(/^Please check /)
    expect(refusal).toContain('internal network addresses')
    expect((await api<{ webhooks: unknown[] }>('/webhooks')).webhooks).toHaveLength(0)

    await page.fill('input[name="url"]', `${receiver.url}/hooks/beacon`)
    await page.uncheck('input[name="events"][value="collection.run.failed"]')
    await page.click('form[aria-label="Add a webhook"] button[type="submit"]')
    await page.waitForSelector('[data-testid="webhook-secret"]')
    const secret = await page.inputValue('[data-testid="webhook-secret"] [data-testid="secret-value"]')
    expect(secret).toMatch(/^whsec_/)
    await shot('settings-webhooks-secret')
    const hooks = await api<{ webhooks: { id: string; url: string; events: string[] }[] }>('/webhooks')
    expect(hooks.webhooks).toEqual([expect.objectContaining({ url: `${receiver.url}/hooks/beacon`, events: ['collection.run.completed', 'visibility.changed'] })])
    expect(JSON.stringify(hooks)).not.toContain(secret)
    // Dismissed, the secret is gone from the page for good.
    await page.click('button:has-text("I have stored it")')
    expect(await page.content()).not.toContain(secret)

    await page.click('[data-testid="webhook-list"] li button:has-text("Send test")')
    await page.waitForSelector('[data-testid="webhook-deliveries"] tbody tr[data-state="delivered"]', { timeout: 90_000 })
    const arrived = receiver.received.find((r) => r.path === '/hooks/beacon')
    expect(arrived?.headers['webhook-signature']).toMatch(/^v1,/)
    const deliveries = await api<{ deliveries: { state: string; last_status: number | null; attempts: unknown[] }[] }>(`/webhooks/${hooks.webhooks[0].id}/deliveries`)
    expect(deliveries.deliveries[0]).toMatchObject({ state: 'delivered', last_status: 200 })
    expect(await page.textContent('[data-testid="webhook-deliveries"] tbody tr td[data-col="status"]')).toBe('200')
    await shot('settings-webhooks')
  }, 120_000)

  it('notification channels: a Slack channel is added (URL masked afterwards) and its test message arrives', async () => {
    await signIn(tenant.key, '/settings/notifications', 'form[aria-label="Add a notification channel"]')
    await page.fill('input[name="target"]', `${receiver.url}/services/T000/B000/slacksecret1234`)
    await page.click('form[aria-label="Add a notification channel"] button[type="submit"]')
    await page.waitForSelector('[data-testid="channel-list"] li')
    const channels = await api<{ channels: { id: string; kind: string; target: string; events: string[]; digest_schedule: { day: string; hour: number } | null }[] }>(
      '/notifications',
    )
    expect(channels.channels).toHaveLength(1)
    expect(channels.channels[0]).toMatchObject({
      kind: 'slack',
      events: ['collection.run.failed', 'visibility.changed', 'digest.weekly'],
      digest_schedule: { day: 'monday', hour: 9 },
    })
    expect(channels.channels[0].target).not.toContain('slacksecret')
    expect(await page.content()).not.toContain('slacksecret')
    await page.click('[data-testid="channel-list"] li button:has-text("Send test")')
    await page.waitForSelector('[data-testid="channel-deliveries"] tbody tr[data-state="delivered"]', { timeout: 90_000 })
    const slack = receiver.received.find((r) => r.path.startsWith('/services/'))
    expect((JSON.parse(slack!.body) as { blocks?: unknown[] }).blocks?.length).toBeGreaterThan(0)
    await shot('settings-notifications')
  }, 120_000)

  it('API keys: the scope picker offers only the signed-in key’s scopes; the token is shown once, works, and stops working when revoked', async () => {
    const limited = await ctx.tenant({ name: 'Limited admin', scopes: ['read:analytics', 'manage:workspace'] })
    await signIn(limited.key, '/settings/keys', '[data-testid="scope-picker"]')
    const picker = await page.$$eval('[data-testid="scope-picker"] input', (inputs) => inputs.map((i) => [i.getAttribute('value'), i.hasAttribute('disabled')]))
    expect(Object.fromEntries(picker)).toEqual({ 'read:analytics': false, 'export:data': true, 'write:data': true, 'manage:workspace': false })
    await page.fill('input[name="name"]', 'Looker export')
    await page.click('form[aria-label="Create an API key"] button[type="submit"]')
    await page.waitForSelector('[data-testid="new-key"]')
    const token = await page.inputValue('[data-testid="new-key"] [data-testid="secret-value"]')
    expect(token).toMatch(/^bvk_/)
    await shot('settings-keys')
    const keys = await api<{ keys: { id: string; name: string; scopes: string[]; revoked_at: string | null }[] }>('/keys', limited.key)
    const created = keys.keys.find((k) => k.name === 'Looker export')!
    expect(created.scopes).toEqual(['read:analytics'])
    expect(JSON.stringify(keys)).not.toContain(token)
    // The new key works, within its scopes.
    expect((await fetch(`${base}/api/v1/filters`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)

    await page.click('button:has-text("I have stored it")')
    await page.click(`[data-key-id="${created.id}"] button:has-text("Revoke")`)
    await expect
      .poll(async () => (await api<{ keys: { id: string; revoked_at: string | null }[] }>('/keys', limited.key)).keys.find((k) => k.id === created.id)?.revoked_at, {
        timeout: 20_000,
      })
      .not.toBeNull()
    expect((await fetch(`${base}/api/v1/filters`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
  })

  it('logged no script errors or CSP violations', () => {
    expect(consoleErrors).toEqual([])
  })
})
