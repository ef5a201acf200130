// The AI overview adapters (SerpApi, DataForSEO) against their fakes and on recorded answers.
import { afterEach, describe, expect, it } from 'vitest'
import { parseDataForSeo } from '../../../src/collection/adapters/dataforseo-adapter.js'
import { createAioAdapter } from '../../../src/collection/adapters/index.js'
import { googleLocale, parseSerpApiOverview, parseSerpApiRaw } from '../../../src/collection/adapters/serpapi-adapter.js'
import { ProviderError } from '../../../src/collection/adapters/types.js'
import { fixture, hang, malformedJson, ok, rateLimited, unauthorized, type ProviderFake } from '../../fakes/http-fake.js'
import { startDataForSeoFake, startSerpApiFake } from '../../fakes/serp-fakes.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

const observe = { locale: 'en-US', apiKey: 'serp-key', timeoutMs: 5000 }

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

describe('SerpApi overview parsing', () => {
  it('flattens paragraphs, headings, nested lists, expandables and tables; references in order of first citation', () => {
    const parsed = parseSerpApiOverview(fixture('serpapi-ai-overview.json').ai_overview)
    expect(parsed.hasAio).toBe(true)
    expect(parsed.overviewText.split('\n')).toEqual([
      'The best project management software for small teams is usually Acme Boards, with Globex Tasks close behind.',
      'Top picks',
      '- Acme Boards: Free for up to 10 users, simple boards.',
      '- Globex Tasks: Strong reporting for growing teams.',
      '  - Gantt charts on paid plans.',
      'How to choose',
      '  Start from your team size and budget.',
      'Tool | Free plan',
      'Acme Boards | Yes',
    ])
    expect(parsed.citations.map((c) => c.url)).toEqual([
      'https://acme.example/pricing',
      'https://www.example-reviews.com/pm-tools',
      'https://globex.example/blog/why-globex',
      'https://guides.example/choose-pm',
      'https://extra.example/',
    ])
    expect(parsed.citations[0].title).toBe('Acme Boards pricing')
  })

  it('no ai_overview is no overview; a stored follow-up answer re-parses', () => {
    expect(parseSerpApiRaw(fixture('serpapi-no-overview.json'))).toEqual({ hasAio: false, overviewText: '', citations: [] })
    const raw = { search: fixture('serpapi-page-token.json'), follow_up: fixture('serpapi-ai-overview-follow-up.json') }
    expect(parseSerpApiRaw(raw)).toMatchObject({ hasAio: true, overviewText: 'Acme Boards is cheaper; Globex Tasks has better reports.' })
  })

  it('locale to Google parameters', () => {
    expect(googleLocale('en-US')).toEqual({ hl: 'en', gl: 'us' })
    expect(googleLocale('de_DE')).toEqual({ hl: 'de', gl: 'de' })
    expect(googleLocale('fr')).toEqual({ hl: 'fr' })
  })
})

describe('SerpApi adapter', () => {
  async function setUp(script?: Parameters<typeof startSerpApiFake>[0]) {
    const fake = await startSerpApiFake(script)
    fakes.push(fake)
    return { fake, adapter: createAioAdapter('serpapi', { baseUrlOverride: fake.url, env: {} }) }
  }

  it('one search with the query, locale and key; the overview parsed', async () => {
    const { fake, adapter } = await setUp()
    const answer = await adapter.observe({ ...observe, query: 'best project management software for small teams' })
    expect(answer.hasAio).toBe(true)
    expect(answer.citations).toHaveLength(5)
    expect(answer.requests).toBe(1)
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0].query).toMatchObject({ engine: 'google', q: 'best project management software for small teams', hl: 'en', gl: 'us', api_key: 'serp-key' })
  })

  it('a lazy-loaded overview (page_token only) is fetched with the google_ai_overview engine', async () => {
    const { fake, adapter } = await setUp()
    const answer = await adapter.observe({ ...observe, query: 'lazy: acme boards vs globex tasks' })
    expect(fake.requests.map((r) => r.query.engine)).toEqual(['google', 'google_ai_overview'])
    expect(fake.requests[1].query.page_token).toBe('KIVu-nictZPdjqM2FMdv5SlYtR')
    expect(answer).toMatchObject({ hasAio: true, requests: 2, citations: [{ url: 'https://compare.example/acme-vs-globex', title: 'Acme vs Globex' }] })
    expect(answer.raw).toHaveProperty('follow_up')
  })

  it("no overview, and SerpApi's 200 'no results' error, are observations without an overview", async () => {
    const { adapter } = await setUp({
      script: [ok(fixture('serpapi-no-overview.json')), ok({ search_metadata: { status: 'Success' }, error: "Google hasn't returned any results for this query." })],
    })
    expect(await adapter.observe({ ...observe, query: 'acme boards login' })).toMatchObject({ hasAio: false, overviewText: '', citations: [] })
    expect(await adapter.observe({ ...observe, query: 'zzzz' })).toMatchObject({ hasAio: false })
  })

  it('429 with Retry-After, 401, malformed JSON and a hang map to their kinds', async () => {
    const { adapter } = await setUp({ script: [rateLimited('3'), unauthorized(), malformedJson(), hang()] })
    expect(await failure(adapter.observe({ ...observe, query: 'q' }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3000, status: 429 })
    const denied = await failure(adapter.observe({ ...observe, query: 'q' }))
    expect(denied).toMatchObject({ kind: 'unauthorized', flagsTarget: true })
    expect(denied.message).toContain('Incorrect API key provided: [redacted key]')
    expect(await failure(adapter.observe({ ...observe, query: 'q' }))).toMatchObject({ kind: 'malformed' })
    expect(await failure(adapter.observe({ ...observe, query: 'q', timeoutMs: 200 }))).toMatchObject({ kind: 'timeout' })
  })

  it("a cancelled run rejects with the signal's reason, before or during the request", async () => {
    const { fake, adapter } = await setUp({ script: [hang()] })
    const reason = new Error('run cancelled')
    await expect(adapter.observe({ ...observe, query: 'q', signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    expect(fake.requests).toHaveLength(0)
    const controller = new AbortController()
    setTimeout(() => controller.abort(reason), 50)
    await expect(adapter.observe({ ...observe, query: 'q', signal: controller.signal })).rejects.toBe(reason)
    expect(fake.requests).toHaveLength(1)
  })

  it('no key anywhere is unauthorized before any request', async () => {
    const { fake, adapter } = await setUp()
    expect(await failure(adapter.observe({ query: 'q', locale: 'en-US', timeoutMs: 1000 }))).toMatchObject({ kind: 'unauthorized' })
    expect(fake.requests).toHaveLength(0)
  })
})

describe('DataForSEO', () => {
  it('parses ai_overview elements and references', () => {
    const parsed = parseDataForSeo(fixture('dataforseo-ai-overview.json'))
    expect(parsed.hasAio).toBe(true)
    expect(parsed.overviewText).toBe('Acme Boards is the most common pick for small teams.\nAlternatives\nGlobex Tasks suits growing teams.')
    expect(parsed.citations.map((c) => c.url)).toEqual(['https://acme.example/pricing', 'https://www.example-reviews.com/pm-tools'])
  })

  it('posts the task with Basic auth and location, and maps task errors', async () => {
    const fake = await startDataForSeoFake({
      script: [ok(), ok({ status_code: 20000, tasks: [{ status_code: 40501, status_message: 'Invalid Field: location_code.' }] })],
    })
    fakes.push(fake)
    const adapter = createAioAdapter('dataforseo', { baseUrlOverride: fake.url, env: { DATAFORSEO_LOGIN: 'me@example.com', DATAFORSEO_PASSWORD: 'pw' } })
    const answer = await adapter.observe({ query: 'best pm software', locale: 'en-GB', timeoutMs: 5000 })
    expect(answer.hasAio).toBe(true)
    expect(fake.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('me@example.com:pw').toString('base64')}`)
    expect(fake.requests[0].body).toEqual([{ keyword: 'best pm software', language_code: 'en', location_code: 2826, device: 'desktop', load_async_ai_overview: true }])
    expect(await failure(adapter.observe({ query: 'x', locale: 'en-US', timeoutMs: 5000 }))).toMatchObject({ kind: 'bad_request' })
  })
})
