// The dashboard in a real browser (chromium through playwright-core) against the real
// server (`beacon serve --demo` on in-memory PGlite): every page renders, the numbers on
// screen are the API's for the same filters, filters live in the URL with working
// back/forward, and signing in works by link and by paste, with a clear message for a bad
// key. Screenshots of every page go to test-output/screenshots for review.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js'
import { startChildServer, type ChildServer } from '../faults/helpers/private-services.js'
import { changeVerdict, formatCount, formatDateTime, formatInterval, formatPosition, formatScore, formatSentiment } from '../../web/src/lib/format.js'

const SHOTS = 'test-output/screenshots'
const available = chromiumAvailable()
if (!available) console.warn('dashboard e2e skipped: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this)')

const addDays = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

describe.skipIf(!available)('web dashboard end to end (chromium, pglite)', () => {
  let server: ChildServer
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let page: Page
  let key: string
  let base: string
  const consoleErrors: string[] = []
  const today = new Date().toISOString().slice(0, 10)

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: T }).data
  }

  async function open(path: string, ready: string) {
    await page.goto(`${base}${path}`)
    await page.waitForSelector(ready, { timeout: 30_000 })
  }

  async function shot(name: string, target: Page = page) {
    await target.waitForLoadState('networkidle').catch(() => undefined)
    await target.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
  }

  /** The rows of a data table as {column: text}. */
  function tableRows(testId: string, target: Page = page): Promise<Record<string, string>[]> {
    return target.$$eval(`[data-testid="${testId}"] tbody tr`, (rows) =>
      rows.map((row) => Object.fromEntries([...row.querySelectorAll('td')].map((td) => [td.dataset.col ?? '', (td.textContent ?? '').trim()]))),
    )
  }

  function watchConsole(target: Page) {
    target.on('console', (message) => {
      // A 401/404 the app expects (bad key, collection missing) is logged by the browser as a failed load.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text())
    })
    target.on('pageerror', (error) => consoleErrors.push(error.message))
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    // Demo collection answers quickly, so a run started from the page finishes within the test.
    server = await startChildServer({ DATABASE_URL: 'memory://', BEACON_DEMO_LATENCY_MS: '50' }, ['--demo'], 300_000)
    base = server.url
    key = String((server.startup.demo as { key: string }).key)
    browser = await launchChromium()
    page = await browser.context.newPage()
    watchConsole(page)
  }, 320_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('signs in through the /#key= link, removes the fragment and paints the overview', async () => {
    await page.goto(`${base}/#key=${key}`)
    await page.waitForSelector('[data-testid="chart-visibility"] svg .recharts-line', { timeout: 60_000 })
    expect(new URL(page.url()).hash).toBe('')
    expect(await page.evaluate<string | null>("window.sessionStorage.getItem('beacon.apiKey')")).toBe(key)
    await shot('overview')
  })

  it('shows the dashboard table with the API’s numbers', async () => {
    const params = `start_date=${addDays(today, -30)}&end_date=${today}`
    const dashboard = await api<{
      brands: Record<string, { visibility_score: number; sentiment_avg: number; position_avg: number; mention_count: number }>
      total_mentions: number
    }>(`/dashboard?${params}`)
    await page.waitForSelector('[data-testid="dashboard-table"] tbody tr')
    const rows = await tableRows('dashboard-table')
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(dashboard.brands).sort())
    for (const row of rows) {
      const brand = dashboard.brands[row.name]
      // The visibility cell carries the rate and, under it, its 95% interval.
      expect(row.visibility_score, row.name).toMatch(new RegExp(`^${formatScore(brand.visibility_score).replace('.', '\\.')}95% CI`))
      expect(row.sentiment_avg, row.name).toBe(formatSentiment(brand.sentiment_avg))
      expect(row.position_avg, row.name).toBe(formatPosition(brand.position_avg))
      expect(row.mention_count, row.name).toBe(formatCount(brand.mention_count))
    }
    expect(await page.textContent('[data-testid="stat-mentions"] .stat-value')).toBe(formatCount(dashboard.total_mentions))
    // Sorting by a header reorders the rows by that column.
    await page.click('[data-testid="dashboard-table"] th button:has-text("Mentions")')
    const sorted = (await tableRows('dashboard-table')).map((r) => Number(r.mention_count.replace(/,/g, '')))
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a))
  })

  it('changing filters updates the URL, the table and the charts; back and forward restore them', async () => {
    const chartPath = () => page.getAttribute('[data-testid="chart-visibility"] .recharts-line path', 'd')
    const before = await chartPath()
    await page.selectOption('select[name="period"]', '7d')
    await page.waitForURL(/period=7d/)
    const week = await api<{ brands: Record<string, { visibility_score: number; mention_count: number }> }>(`/dashboard?start_date=${addDays(today, -7)}&end_date=${today}`)
    await expect
      .poll(async () => (await tableRows('dashboard-table')).map((r) => `${r.name}:${r.mention_count}`).sort(), { timeout: 20_000 })
      .toEqual(
        Object.entries(week.brands)
          .map(([name, m]) => `${name}:${formatCount(m.mention_count)}`)
          .sort(),
      )
    await expect.poll(chartPath, { timeout: 20_000 }).not.toBe(before)
    // Every date on the chart's axis is inside the new period.
    await expect
      .poll(
        async () =>
          (await page.$$eval('[data-testid="chart-visibility"] .recharts-xAxis .recharts-cartesian-axis-tick-value', (ticks) => ticks.map((t) => t.textContent ?? ''))).every(
            (d) => d >= addDays(today, -7),
          ),
        { timeout: 20_000 },
      )
      .toBe(true)
    await shot('overview-7-days')

    await page.check('input[name="providers"][value="openai"]')
    await page.waitForURL(/providers=openai/)
    const openai = await api<{ brands: Record<string, { visibility_score: number }> }>(`/dashboard?start_date=${addDays(today, -7)}&end_date=${today}&models=openai`)
    await expect
      .poll(async () => Object.fromEntries((await tableRows('dashboard-table')).map((r) => [r.name, r.visibility_score.split('95% CI')[0]])), { timeout: 20_000 })
      .toEqual(Object.fromEntries(Object.entries(openai.brands).map(([name, m]) => [name, formatScore(m.visibility_score)])))

    await page.goBack()
    await page.waitForURL((url) => !url.search.includes('providers'))
    expect(await page.isChecked('input[name="providers"][value="openai"]')).toBe(false)
    expect(page.url()).toContain('period=7d')
    await page.goBack()
    await page.waitForURL((url) => !url.search.includes('period'))
    expect(await page.inputValue('select[name="period"]')).toBe('30d')
    await page.goForward()
    await page.waitForURL(/period=7d/)
    expect(await page.inputValue('select[name="period"]')).toBe('7d')
  })

  it('shows each rate’s interval beside it and colours only the changes the API calls significant', async () => {
    const params = `start_date=${addDays(today, -30)}&end_date=${today}`
    type Tested = { delta: number; p_value: number | null; significant: boolean | null }
    const dashboard = await api<{ brands: Record<string, { visibility_ci: { low: number; high: number } | null; visibility_test: Tested }> }>(
      `/dashboard?${params}&include_uncertainty=true`,
    )
    await open('/', '[data-testid="dashboard-table"] tbody tr')
    const cells = await page.$$eval('[data-testid="dashboard-table"] tbody tr', (rows) =>
      rows.map((row) => {
        const name = row.querySelector('td[data-col="name"]')?.textContent ?? ''
        const change = row.querySelector('td[data-col="change"] .change')
        return {
          name,
          ci: row.querySelector('td[data-col="visibility_score"] .ci-range')?.textContent ?? null,
          tone: change?.className.replace('change ', '') ?? null,
          verdict: change?.getAttribute('data-verdict') ?? null,
          words: change?.querySelector('.verdict')?.textContent?.trim() ?? null,
        }
      }),
    )
    expect(cells.length).toBe(Object.keys(dashboard.brands).length)
    for (const cell of cells) {
      const brand = dashboard.brands[cell.name]
      expect(cell.ci, cell.name).toBe(formatInterval(brand.visibility_ci))
      const verdict = changeVerdict(brand.visibility_test)
      expect(cell.verdict, cell.name).toBe(verdict)
      expect(cell.words, cell.name).toBe(verdict === 'significant' ? 'significant' : verdict === 'noise' ? 'within noise' : 'too few answers')
      // Colour only for a significant change; noise and untested changes stay neutral.
      expect(cell.tone, cell.name).toBe(verdict === 'significant' ? (brand.visibility_test.delta > 0 ? 'up' : brand.visibility_test.delta < 0 ? 'down' : 'flat') : 'flat')
    }

    const filters = await api<{ brands: { id: string; is_primary: boolean }[] }>('/filters')
    const primary = filters.brands.find((b) => b.is_primary)!
    const detail = await api<{ metrics: { visibility_ci: { low: number; high: number } | null }; change: { visibility_test: Tested } }>(`/brands/${primary.id}?${params}`)
    await open(`/brands/${primary.id}`, '[data-testid="brand-visibility"] .ci-range')
    expect(await page.textContent('[data-testid="brand-visibility"] .ci-range')).toBe(formatInterval(detail.metrics.visibility_ci))
    expect(await page.getAttribute('[data-testid="brand-visibility"] .change', 'data-verdict')).toBe(changeVerdict(detail.change.visibility_test))
    await page.waitForSelector('[data-testid="brand-providers"] tbody tr .ci-range')
    await shot('brand-detail-intervals')
  })

  it('a brand’s detail shows the API’s metrics', async () => {
    const filters = await api<{ brands: { id: string; name: string; is_primary: boolean }[] }>('/filters')
    const brand = filters.brands.find((b) => b.is_primary)!
    const detail = await api<{
      metrics: { visibility_score: number; share_of_voice: number; sentiment_avg: number; position_avg: number; mention_count: number; response_count: number }
    }>(`/brands/${brand.id}?start_date=${addDays(today, -30)}&end_date=${today}`)
    await open(`/brands/${brand.id}`, '[data-testid="brand-visibility"]')
    const stat = (id: string) => page.textContent(`[data-testid="${id}"] .stat-value`)
    expect(await stat('brand-visibility')).toBe(formatScore(detail.metrics.visibility_score))
    expect(await stat('brand-sov')).toBe(formatScore(detail.metrics.share_of_voice))
    expect(await stat('brand-sentiment')).toBe(formatSentiment(detail.metrics.sentiment_avg))
    expect(await stat('brand-position')).toBe(formatPosition(detail.metrics.position_avg))
    expect(await stat('brand-mentions')).toBe(formatCount(detail.metrics.mention_count))
    expect(await stat('brand-responses')).toBe(formatCount(detail.metrics.response_count))
    await page.waitForSelector('[data-testid="chart-brand-trend"] .recharts-line')
    await shot('brand-detail')
  })

  it('sources and URLs show the API’s first page', async () => {
    const sources = await api<{
      sources: { domain: string; source_type: string; citation_count: number; authority_score: number; usage_percentage: number; last_cited: string }[]
    }>(`/sources?start_date=${addDays(today, -30)}&end_date=${today}&page=1&per_page=20`)
    await open('/sources', '[data-testid="sources-table"] tbody tr')
    const rows = await tableRows('sources-table')
    expect(rows).toEqual(
      sources.sources.map((s) => ({
        domain: s.domain,
        source_type: s.source_type,
        citation_count: formatCount(s.citation_count),
        authority_score: formatScore(s.authority_score),
        usage_percentage: formatScore(s.usage_percentage),
        last_cited: formatDateTime(s.last_cited),
      })),
    )
    await page.waitForSelector('[data-testid="urls-table"] tbody tr')
    await page.waitForSelector('[data-testid="chart-sources"] .recharts-line')
    await shot('sources')
  })

  it('an answer shows its text with each brand’s mentions highlighted where the API puts them', async () => {
    const list = await api<{ responses: { id: string }[] }>(`/responses?start_date=${addDays(today, -30)}&end_date=${today}&per_page=20`)
    type Detail = {
      content: string
      mentions: { brand_id: string; name: string; position: number; occurrences: number; sentiment: number | null; spans: { start: number; end: number }[] }[]
      citations: { url: string; source_type: string }[]
    }
    let chosen: { id: string; detail: Detail } | undefined
    for (const r of list.responses) {
      const detail = await api<Detail>(`/responses/${r.id}`)
      if (detail.mentions.length >= 2 && detail.citations.length >= 1) {
        chosen = { id: r.id, detail }
        break
      }
    }
    expect(chosen, 'a demo answer naming two brands and citing a source').toBeDefined()
    const { id, detail } = chosen!
    await open(`/answers/${id}`, '[data-testid="answer-mentions"] tbody tr')
    const rows = await tableRows('answer-mentions')
    expect(rows.map((r) => [r.name, r.position, r.occurrences, r.sentiment])).toEqual(
      detail.mentions.map((m) => [m.name, formatCount(m.position), formatCount(m.occurrences), formatSentiment(m.sentiment)]),
    )
    const marks = await page.$$eval('[data-testid="answer-text"] mark', (nodes) => nodes.map((n) => ({ text: n.textContent, brand: n.getAttribute('data-brand-id') })))
    const expected = detail.mentions
      .flatMap((m) => m.spans.map((s) => ({ start: s.start, text: detail.content.slice(s.start, s.end), brand: m.brand_id })))
      .sort((a, b) => a.start - b.start)
      .map(({ text, brand }) => ({ text, brand }))
    expect(marks).toEqual(expected)
    expect(marks.length).toBe(detail.mentions.reduce((n, m) => n + m.occurrences, 0))
    // The markdown is rendered (lists, bold), not shown as raw text.
    if (/\*\*[^*]+\*\*/.test(detail.content)) {
      expect(await page.locator('[data-testid="answer-text"] strong').count()).toBeGreaterThan(0)
      expect(await page.textContent('[data-testid="answer-text"]')).not.toContain('**')
    }
    const citations = await page.$$eval('[data-testid="answer-citations"] li', (items) => items.map((li) => li.querySelector('.badge')?.textContent))
    expect(citations).toEqual(detail.citations.map((c) => c.source_type))
    await shot('answer')
  })

  it('every page renders', async () => {
    const filters = await api<{ brands: { id: string }[] }>('/filters')
    const prompts = await api<{ prompts: { id: string }[] }>(`/prompts?brand_id=${filters.brands[0].id}&per_page=1`)
    const pages: [string, string, string][] = [
      ['/brands', '[data-testid="brands-table"] tbody tr', 'brands'],
      ['/prompts', '[data-testid="prompts-table"] tbody tr', 'prompts'],
      [`/prompts/${prompts.prompts[0].id}`, '[data-testid="prompt-brands"] tbody tr', 'prompt-detail'],
      ['/answers', '[data-testid="answers-table"] tbody tr', 'answers'],
      ['/aio', '[data-testid="chart-aio"] .recharts-line', 'ai-overviews'],
      ['/exports', '[data-testid="export-chat-responses"]', 'exports'],
      ['/collection', '[data-testid="targets-table"] tbody tr', 'collection'],
      ['/settings/brands', '[data-testid="brand-settings"] li', 'settings-brands'],
      ['/settings/prompts', '[data-testid="prompt-settings"] li', 'settings-prompts'],
    ]
    for (const [path, ready, name] of pages) {
      await open(path, ready)
      expect(await page.textContent('h1'), path).toBeTruthy()
      await shot(name)
    }
    // An unknown page path is the app's own not-found view, not the API's JSON.
    await open('/no-such-page', 'h1')
    expect(await page.textContent('h1')).toBe('Page not found')
  })

  it('is usable with the keyboard and on a phone', async () => {
    await open('/', '[data-testid="dashboard-table"]')
    await page.keyboard.press('Tab')
    expect(await page.evaluate<string | null>('document.activeElement?.textContent')).toBe('Skip to content')
    const phone = await browser.context.newPage()
    watchConsole(phone)
    await phone.setViewportSize({ width: 390, height: 844 })
    await phone.goto(`${base}/#key=${key}`)
    await phone.waitForSelector('[data-testid="chart-visibility"] .recharts-line', { timeout: 60_000 })
    expect(await phone.isVisible('#nav a[href="/sources"]')).toBe(false)
    await phone.click('button.menu')
    expect(await phone.isVisible('#nav a[href="/sources"]')).toBe(true)
    // Nothing wider than the screen but the tables' own scroll areas.
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    await shot('overview-phone', phone)
    await phone.close()
  })

  it('signs in by pasting a key, and says clearly when a key is invalid', async () => {
    const fresh = await browser.context.newPage()
    watchConsole(fresh)
    await fresh.goto(`${base}/`)
    await fresh.waitForSelector('#api-key')
    await shot('sign-in', fresh)
    await fresh.fill('#api-key', key)
    await fresh.click('button[type="submit"]')
    await fresh.waitForSelector('[data-testid="dashboard-table"] tbody tr', { timeout: 60_000 })
    await fresh.close()

    const bad = await browser.context.newPage()
    await bad.goto(`${base}/#key=bvk_notARealKey000000000000000000000000`)
    await bad.waitForSelector('[data-testid="signin-error"]', { timeout: 30_000 })
    expect(await bad.textContent('[data-testid="signin-error"]')).toContain('not accepted')
    expect(new URL(bad.url()).hash).toBe('')
    expect(await bad.evaluate<string | null>("window.sessionStorage.getItem('beacon.apiKey')")).toBeNull()
    await shot('sign-in-invalid-key', bad)
    await bad.close()
  })

  it('a brand change in settings shows the re-analysis job until it ends', async () => {
    await open('/settings/brands', '[data-testid="brand-settings"] li')
    const row = page.locator('[data-testid="brand-settings"] li').nth(1)
    await row.locator('input').nth(1).fill('Example Alias One')
    await row.locator('button[type="submit"]').click()
    await page.waitForSelector('[data-testid="job-progress"]', { timeout: 20_000 })
    await page.waitForSelector('[data-testid="job-progress"][data-state="succeeded"]', { timeout: 120_000 })
    await shot('settings-brand-saved')
  }, 180_000)

  it('settings show each brand’s aliases from the API, and discovery’s suggestions can be found, confirmed and rejected', async () => {
    const filters = await api<{ brands: { id: string; name: string }[] }>('/filters')
    const first = filters.brands[0]
    const detail = await api<{ aliases: string[] }>(`/brands/${first.id}?start_date=${today}&end_date=${today}`)
    expect(detail.aliases.length).toBeGreaterThan(0)
    await open('/settings/brands', '[data-testid="brand-settings"] li')
    const aliases = page.locator('[data-testid="brand-settings"] li', { hasText: first.name }).first().locator('[data-testid="brand-aliases"]')
    await expect.poll(() => aliases.inputValue(), { timeout: 20_000 }).toBe(detail.aliases.join(', '))

    await page.click('button:has-text("Find competitors in the answers")')
    await page.waitForSelector('[data-testid="job-progress"][data-state="succeeded"]', { timeout: 120_000 })
    await page.waitForSelector('[data-testid="brand-suggestions"] li', { timeout: 30_000 })
    const suggested = await api<{ competitors: { id: string; name: string }[] }>('/brands?discovery_status=suggested&is_active=false')
    const shown = await page.$$eval('[data-testid="brand-suggestions"] li strong', (nodes) => nodes.map((n) => n.textContent ?? ''))
    expect(shown.sort()).toEqual(suggested.competitors.map((b) => b.name).sort())
    expect(shown).toEqual(expect.arrayContaining(['Cadencia', 'Trackory']))
    await shot('settings-suggestions')
    await page.locator('[data-testid="brand-suggestions"] li', { hasText: 'Cadencia' }).locator('button:has-text("Confirm")').click()
    await page.waitForSelector('[data-testid="brand-settings"] li:has-text("Cadencia")', { timeout: 60_000 })
    await page.locator('[data-testid="brand-suggestions"] li', { hasText: 'Trackory' }).locator('button:has-text("Reject")').click()
    await expect
      .poll(async () => (await api<{ competitors: { name: string }[] }>('/brands?discovery_status=rejected&is_active=false')).competitors.map((b) => b.name), { timeout: 20_000 })
      .toContain('Trackory')
    await expect.poll(() => page.locator('[data-testid="brand-suggestions"] li', { hasText: 'Trackory' }).count(), { timeout: 20_000 }).toBe(0)
  }, 240_000)

  it('collection: the demo target is listed as the API lists it, and Run now shows the run’s progress until every answer is in', async () => {
    const targets = await api<{ id: string; provider: string; model: string; api: string }[]>('/collection/targets')
    await open('/collection', '[data-testid="targets-table"] tbody tr')
    const rows = await tableRows('targets-table')
    expect(rows.map((r) => r.target)).toEqual(targets.map((t) => `${t.provider} · ${t.model}`))
    expect(rows[0].api).toBe('demo')
    await page.click('button:has-text("Run now")')
    await page.waitForSelector('[data-testid="runs-table"] tbody tr', { timeout: 30_000 })
    // Polled while it runs: the newest run's progress reaches planned.
    const progress = page.locator('[data-testid="runs-table"] tbody tr').first().locator('[data-testid="run-progress"]')
    await expect
      .poll(
        async () => {
          const [done, planned] = [await progress.getAttribute('data-done'), await progress.getAttribute('data-planned')]
          return Number(planned) > 0 && done === planned
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(true)
    const runs = await api<{ runs: { id: string; state: string; planned: number; succeeded: number }[] }>('/collection/runs')
    const shown = (await tableRows('runs-table'))[0]
    expect(shown.progress).toContain(`${formatCount(runs.runs[0].planned)} / ${formatCount(runs.runs[0].planned)}`)
    await page.waitForSelector('[data-testid="runs-table"] tbody tr:first-child td[data-col="state"]:has-text("succeeded")', { timeout: 30_000 })
    await shot('collection-run')
  }, 180_000)

  it('logged no script errors or CSP violations', () => {
    expect(consoleErrors).toEqual([])
  })
})
