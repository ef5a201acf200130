import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'

// One answer naming Acme (by name, by alias, in lower case) and Globex, after an astral
// character so UTF-16 offsets differ from code point offsets, with a URL holding "acme"
// that must not count, and citations of the primary brand's site and a forum.
const EMOJI = '\u{1F680}'
const CONTENT = `${EMOJI} **Acme** beats Globex for startups. Many teams like ACME Inc, and acme is cheap. See https://acme.com/pricing for details.`

interface Detail {
  id: string
  prompt_id: string
  prompt: string
  provider: string
  model: string
  content: string
  created_at: string
  sentiment: number | null
  mentions: { brand_id: string; name: string; occurrences: number; position: number; sentiment: number | null; spans: { start: number; end: number }[] }[]
  citations: { url: string; domain: string; title: string; source_type: string }[]
}

describe.each(testBackends)('GET /api/v1/responses/{id} (%s)', (backend) => {
  let ctx: TestContext
  let a: { key: string; workspaceId: string }
  let b: { key: string; workspaceId: string }
  let acme: string
  let globex: string
  let prompt: string
  let responseId: string

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    a = await ctx.tenant({ name: 'A' })
    b = await ctx.tenant({ name: 'B' })
    acme = await createBrand(ctx, a.key, { name: 'Acme', aliases: ['ACME Inc'], domain: 'acme.com', is_primary: true })
    globex = await createBrand(ctx, a.key, { name: 'Globex', domain: 'globex.com' })
    await createBrand(ctx, a.key, { name: 'Initech' })
    prompt = await createPrompt(ctx, a.key, 'Best CRM for startups?', ['crm'])
    await ingest(ctx, a.key, [
      {
        prompt_id: prompt,
        provider: 'openai',
        model: 'gpt-4o',
        content: CONTENT,
        created_at: '2026-05-01T10:00:00Z',
        citations: [
          { url: 'https://acme.com/pricing', title: 'Acme pricing' },
          { url: 'https://www.reddit.com/r/crm/comments/1', title: 'CRM thread' },
        ],
      },
    ])
    const list = await ctx.get('/api/v1/responses?start_date=2026-05-01&end_date=2026-05-01', a.key)
    responseId = list.json().data.responses[0].id
  })
  afterAll(() => ctx.close())

  it('returns the full answer, its prompt, and each mentioned brand with spans on the brand names', async () => {
    const response = await ctx.get(`/api/v1/responses/${responseId}`, a.key)
    expect(response.statusCode).toBe(200)
    const data: Detail = response.json().data
    expect(data).toMatchObject({ id: responseId, prompt_id: prompt, prompt: 'Best CRM for startups?', provider: 'openai', model: 'gpt-4o', content: CONTENT })
    expect(new Date(data.created_at).toISOString()).toBe('2026-05-01T10:00:00.000Z')
    expect(data.mentions.map((m) => m.name)).toEqual(['Acme', 'Globex'])
    const [acmeMention, globexMention] = data.mentions
    expect(acmeMention).toMatchObject({ brand_id: acme, occurrences: 3, position: 1 })
    expect(globexMention).toMatchObject({ brand_id: globex, occurrences: 1, position: 2 })
    // Spans count UTF-16 code units: the rocket is two of them.
    expect(acmeMention.spans.map((s) => data.content.slice(s.start, s.end))).toEqual(['Acme', 'ACME Inc', 'acme'])
    expect(acmeMention.spans[0].start).toBe(CONTENT.indexOf('Acme'))
    expect(globexMention.spans.map((s) => data.content.slice(s.start, s.end))).toEqual(['Globex'])
    // As many spans as the stored occurrences: the same matcher as analysis, the URL skipped.
    for (const mention of data.mentions) expect(mention.spans).toHaveLength(mention.occurrences)
    expect(typeof data.sentiment).toBe('number')
  })

  it('lists citations with their source types', async () => {
    const data: Detail = (await ctx.get(`/api/v1/responses/${responseId}`, a.key)).json().data
    expect(data.citations).toHaveLength(2)
    const byDomain = Object.fromEntries(data.citations.map((c) => [c.domain, c]))
    expect(byDomain['acme.com']).toMatchObject({ url: 'https://acme.com/pricing', title: 'Acme pricing', source_type: 'owned' })
    expect(byDomain['reddit.com']).toMatchObject({ title: 'CRM thread', source_type: 'ugc' })
  })

  it('is 404 for another workspace and for an unknown id, 400 for a malformed one', async () => {
    const other = await ctx.get(`/api/v1/responses/${responseId}`, b.key)
    expect(other.statusCode).toBe(404)
    expect(other.json().error.code).toBe('not_found')
    expect(other.body).not.toContain('Acme')
    expect((await ctx.get('/api/v1/responses/00000000-0000-4000-8000-000000000000', a.key)).statusCode).toBe(404)
    const malformed = await ctx.get('/api/v1/responses/not-a-uuid', a.key)
    expect(malformed.statusCode).toBe(400)
  })

  it('needs read:analytics', async () => {
    const writer = await ctx.tenant({ scopes: ['write:data'] })
    const response = await ctx.get(`/api/v1/responses/${responseId}`, writer.key)
    expect(response.statusCode).toBe(403)
  })
})
