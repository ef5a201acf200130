// /docs (Swagger UI) carries the dashboard's security headers: a strict CSP without inline
// code, no framing, nosniff, no referrer; and it still works under them in a real browser
// (Debian's chromium): the operations render and the page reports no CSP violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../src/web/dashboard.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js'

describe.each(testBackends)('/docs security headers (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  it('sends the dashboard’s CSP, X-Frame-Options, nosniff and no referrer on the page; nosniff on its files', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await ctx.app.inject({ url })
      expect(page.statusCode, url).toBe(200)
      expect(page.headers['content-type']).toMatch(/^text\/html/)
      expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/)
      expect(page.headers['x-frame-options']).toBe('DENY')
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expect(page.headers['referrer-policy']).toBe('no-referrer')
      // Nothing inline for the policy to refuse.
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
      expect(page.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/)
    }
    for (const url of ['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js', '/docs/static/swagger-ui.css', '/docs/json']) {
      const file = await ctx.app.inject({ url })
      expect(file.statusCode, url).toBe(200)
      expect(file.headers['x-content-type-options'], url).toBe('nosniff')
    }
    // The API's answers are unchanged by it.
    expect((await ctx.app.inject({ url: '/healthz' })).headers['content-security-policy']).toBeUndefined()
  })
})

describe.skipIf(!chromiumAvailable())('/docs in chromium under its CSP', () => {
  let ctx: TestContext
  let url: string
  beforeAll(async () => {
    ctx = await createTestContext('pglite')
    url = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(() => ctx.close())

  it('renders the operations with no CSP violation and cannot be framed', async () => {
    const browser = await launchChromium()
    try {
      const page = await browser.context.newPage()
      const violations: string[] = []
      await page.exposeFunction('reportViolation', (text: string) => violations.push(text))
      // A string: the test's own TypeScript has no DOM types.
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sample))",
      )
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text())
      })
      await page.goto(`${url}/docs`)
      await page.waitForSelector('.opblock', { timeout: 30_000 })
      expect(await page.locator('.opblock').count()).toBeGreaterThan(10)
      // Expanding an operation renders its parameters (more of Swagger UI's code runs).
      await page.locator('.opblock-summary').first().click()
      await page.waitForSelector('.opblock-body', { timeout: 10_000 })
      expect(violations).toEqual([])

      // Another page cannot frame it.
      const framing = await browser.context.newPage()
      await framing.setContent(`<iframe id="docs" src="${url}/docs"></iframe>`)
      await framing.waitForTimeout(1500)
      const framed = framing.frames().find((frame) => frame.url().includes('/docs'))
      const rendered = framed ? await framed.locator('.swagger-ui').count() : 0
      expect(rendered).toBe(0)
    } finally {
      await browser.close()
    }
  })
})
