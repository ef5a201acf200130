// The Collection page in a real browser (chromium through playwright-core) against the app built
// in-process, on PGlite and (with TEST_DATABASE_URL) PostgreSQL: a target added through the
// shared add-target form, a run started with "Run now" whose progress is the server's
// answers_counted, and the run's non-answers (why answers were not stored) listed as the API lists
// them, with the provider's JSON on demand. The provider is a scripted fake adapter: one prompt is
// refused with the body Anthropic sends for a refusal (test/fakes/non-answers.ts, shape from the
// SDK's Message type).
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt } from '../helpers/requests.js'
import { setAdapterOverride } from '../../src/collection/adapter-resolver.js'
import { nonAnswer } from '../../src/collection/adapters/provider-errors.js'
import { anthropicRefusal } from '../fakes/non-answers.js'
import { fakeAdapter, type FakeCall } from '../collection/helpers.js'
import { formatCount } from '../../web/src/lib/format.js'

const SHOTS = 'test-output/screenshots'
const SECRET_KEY = 'collection-e2e-secret-key-0123456789abcdef'
const available = chromiumAvailable()
if (!available) console.warn('collection e2e skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

describe.skipIf(!available).each(testBackends)('collection page in chromium (%s)', (backend) => {
  let ctx: TestContext
  let base: string
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let page: Page
  let tenant: { key: string; workspaceId: string }
  const calls: FakeCall[] = []
  const consoleErrors: string[] = []

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${tenant.key}` } })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: T }).data
  }

  function tableRows(testId: string): Promise<Record<string, string>[]> {
    return page.$$eval(`[data-testid="${testId}"] tbody tr`, (rows) =>
      rows.map((row) => Object.fromEntries([...row.querySelectorAll('td')].map((td) => [td.dataset.col ?? '', (td.textContent ?? '').trim()]))),
    )
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, secretKey: SECRET_KEY })
    // Targets whose model starts with "fake" answer through the fake; a prompt with "risky" in it is refused.
    setAdapterOverride({
      answer: (target) =>
        target.model.startsWith('fake')
          ? fakeAdapter(calls, (request) => {
              if (request.prompt.includes('risky'))
                throw nonAnswer('anthropic', 'refused', { reason: 'stop_reason: refusal', raw: anthropicRefusal(), tokensIn: 12, tokensOut: 0, webSearchCalls: 0 })
            })
          : undefined,
    })
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    tenant = await ctx.tenant({ name: 'Collection page' })
    await createPrompt(ctx, tenant.key, 'Which kanban board is best?')
    await createPrompt(ctx, tenant.key, 'Which risky shortcut works?')
    const stored = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/collection/credentials/claude-team',
      headers: { authorization: `Bearer ${tenant.key}` },
      payload: { provider: 'anthropic', api_key: 'sk-ant-collection-e2e-4242' },
    })
    expect(stored.statusCode, stored.body).toBeLessThan(300)
    browser = await launchChromium()
    page = await browser.context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
  }, 240_000)

  afterAll(async () => {
    setAdapterOverride(undefined)
    await browser?.close()
    await ctx?.close()
  })

  it('adds a target through the shared form, runs it, and lists why answers were not stored as the API does', async () => {
    await page.goto(`${base}/#key=${tenant.key}`)
    await page.waitForSelector('#main', { timeout: 60_000 })
    await page.goto(`${base}/collection`)
    await page.waitForSelector('[data-testid="target-form"]', { timeout: 30_000 })
    // The same form as Settings → Collection targets: provider, model, key, no web search.
    await page.selectOption('[data-testid="target-form"] select[name="provider"]', 'anthropic')
    await page.fill('[data-testid="target-form"] input[name="model"]', 'fake-claude')
    await page.uncheck('[data-testid="target-form"] input[name="web_search"]')
    await page.selectOption('[data-testid="target-form"] select[name="credential"]', 'claude-team')
    await page.click('[data-testid="target-form"] button[type="submit"]')
    await page.waitForSelector('[data-testid="targets-table"] tbody tr:has-text("fake-claude")', { timeout: 30_000 })
    const targets = await api<{ provider: string; model: string; web_search: boolean; credential: string | null; api: string }[]>('/collection/targets')
    expect(targets).toEqual([expect.objectContaining({ provider: 'anthropic', model: 'fake-claude', web_search: false, credential: 'claude-team', api: 'native' })])

    await page.click('button:has-text("Run now")')
    await page.waitForSelector('[data-testid="runs-table"] tbody tr td[data-col="state"]:has-text("succeeded")', { timeout: 60_000 })
    type Run = { id: string; planned: number; answers_counted: number; refused: number }
    const run = (await api<{ runs: Run[] }>('/collection/runs')).runs[0]
    expect(run).toMatchObject({ planned: 2, answers_counted: 2, refused: 1 })
    const progress = page.locator('[data-testid="runs-table"] tbody tr').first().locator('[data-testid="run-progress"]')
    expect(await progress.getAttribute('data-done')).toBe(String(run.answers_counted))

    // The run's non-answers, opened from its "Not answered" count.
    await page.click('[data-testid="runs-table"] tbody tr td[data-col="not_answered"] button')
    await page.waitForSelector('[data-testid="non-answers-table"] tbody tr', { timeout: 30_000 })
    type NonAnswer = { id: string; outcome: string; provider: string; model: string; prompt: string; reason: string; attempt: number }
    const listed = (await api<{ non_answers: NonAnswer[] }>(`/collection/runs/${run.id}/non-answers`)).non_answers
    expect(listed).toHaveLength(1)
    const rows = await tableRows('non-answers-table')
    expect(rows.map((r) => [r.outcome, r.target, r.prompt, r.reason, r.attempt])).toEqual(
      listed.map((n) => ['refused', `${n.provider} · ${n.model}`, n.prompt, n.reason, formatCount(n.attempt + 1)]),
    )
    expect(rows[0]).toMatchObject({ target: 'anthropic · fake-claude', prompt: 'Which risky shortcut works?', reason: 'stop_reason: refusal' })

    // The provider's JSON, fetched from the single-item route only when asked for.
    await page.click('[data-testid="non-answers-table"] tbody tr button:has-text("JSON")')
    await page.waitForSelector('[data-testid="non-answer-raw"] pre', { timeout: 30_000 })
    const detail = await api<{ raw: unknown }>(`/collection/runs/${run.id}/non-answers/${listed[0].id}`)
    expect(detail.raw).toEqual(anthropicRefusal())
    expect(await page.textContent('[data-testid="non-answer-raw"] pre')).toBe(JSON.stringify(detail.raw, null, 2))
    await page.waitForLoadState('networkidle').catch(() => undefined)
    await page.screenshot({ path: `${SHOTS}/collection-non-answers${backend === 'pglite' ? '' : `-${backend}`}.png`, fullPage: true })
  }, 180_000)

  it('logged no script errors or CSP violations', () => {
    expect(consoleErrors).toEqual([])
  })
})
