// Query fan-out in the dashboard, in a real browser (chromium through playwright-core) against
// the real server (`beacon serve --demo`, in-memory PGlite; the demo's answers carry their
// searches): the answer page lists the engine's searches as the API gives them, and "What the
// engines searched" shows the API's ranking for the URL's filters, reached from the nav, with
// the filters kept in the URL. Screenshots go to test-output/screenshots.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js'
import { startChildServer, type ChildServer } from '../faults/helpers/private-services.js'
import { formatCount, formatDateTime } from '../../web/src/lib/format.js'

const SHOTS = 'test-output/screenshots'
const available = chromiumAvailable()
if (!available) console.warn('search queries e2e skipped: /usr/bin/chromium is missing (apt-get install -y chromium)')

const addDays = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

interface Ranked {
  query: string
  count: number
  prompts: number
  providers: { provider: string; count: number }[]
  first_seen: string
  last_seen: string
}

describe.skipIf(!available)('what the engines searched, in the browser (chromium, pglite)', () => {
  let server: ChildServer
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let page: Page
  let key: string
  let base: string
  const errors: string[] = []
  const today = new Date().toISOString().slice(0, 10)

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: T }).data
  }
  const tableRows = (testId: string): Promise<Record<string, string>[]> =>
    page.$$eval(`[data-testid="${testId}"] tbody tr`, (rows) =>
      rows.map((row) => Object.fromEntries([...row.querySelectorAll('td')].map((td) => [td.dataset.col ?? '', (td.textContent ?? '').trim()]))),
    )
  const shot = async (name: string) => {
    await page.waitForLoadState('networkidle').catch(() => undefined)
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
  }
  const asRows = (list: Ranked[]) =>
    list.map((q) => ({
      query: q.query,
      count: formatCount(q.count),
      prompts: formatCount(q.prompts),
      providers: q.providers.map((p) => `${p.provider} (${formatCount(p.count)})`).join(', '),
      first_seen: formatDateTime(q.first_seen),
      last_seen: formatDateTime(q.last_seen),
    }))

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    server = await startChildServer({ DATABASE_URL: 'memory://' }, ['--demo'], 300_000)
    base = server.url
    key = String((server.startup.demo as { key: string }).key)
    browser = await launchChromium()
    page = await browser.context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${base}/#key=${key}`)
    await page.waitForSelector('nav a', { timeout: 60_000 })
  }, 320_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("the answer page lists the engine's searches in its order", async () => {
    const list = await api<{ responses: { id: string }[] }>(`/responses?start_date=${addDays(today, -30)}&end_date=${today}&per_page=50`)
    let chosen: { id: string; queries: string[] } | undefined
    for (const r of list.responses) {
      const detail = await api<{ search_queries: string[] }>(`/responses/${r.id}`)
      if (detail.search_queries.length >= 2) {
        chosen = { id: r.id, queries: detail.search_queries }
        break
      }
    }
    expect(chosen, 'a demo answer with two or more searches').toBeDefined()
    await page.goto(`${base}/answers/${chosen!.id}`)
    await page.waitForSelector('[data-testid="answer-searches"] li', { timeout: 30_000 })
    expect(await page.$$eval('[data-testid="answer-searches"] li', (items) => items.map((li) => li.textContent))).toEqual(chosen!.queries)
    await shot('answer-searches')
  })

  it('"What the engines searched" is in the nav and shows the API\'s ranking for the period', async () => {
    await page.click('nav a[href="/searches"]')
    await page.waitForSelector('[data-testid="searches-table"] tbody tr', { timeout: 30_000 })
    expect(await page.textContent('h1')).toBe('What the engines searched')
    const data = await api<{ search_queries: Ranked[]; pagination: { total_items: number } }>(`/search-queries?start_date=${addDays(today, -30)}&end_date=${today}&per_page=20`)
    expect(data.search_queries.length).toBeGreaterThan(5)
    expect(await tableRows('searches-table')).toEqual(asRows(data.search_queries))
    await shot('searches')
  })

  it('takes its filters from the URL (period and provider), like the other pages', async () => {
    const start = addDays(today, -7)
    await page.goto(`${base}/searches?period=7d&providers=google`)
    await page.waitForSelector('[data-testid="searches-table"] tbody tr', { timeout: 30_000 })
    const data = await api<{ search_queries: Ranked[] }>(`/search-queries?start_date=${start}&end_date=${today}&models=google&per_page=20`)
    expect(data.search_queries.every((q) => q.providers.every((p) => p.provider === 'google'))).toBe(true)
    expect(await tableRows('searches-table')).toEqual(asRows(data.search_queries))
    await shot('searches-google-7d')
  })

  it('logged no script errors', () => {
    expect(errors).toEqual([])
  })
})
