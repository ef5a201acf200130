// GET /prompts/{id} read from the prompt's rollups (migration 0025) against the same read over
// the facts (getPromptDetail(…, 'facts')): ranges starting and ending on, before and after
// month boundaries, with responses in the rest of those months or not (the monthly rows of
// mentions and domains are read for a partial month only when it has no other responses),
// the previous period, provider and tag filters, a models filter (which reads the facts),
// more than ten cited domains with ties, and a workspace with an inactive brand (whose
// mentions the rollup of responses with a mention cannot leave out, so that count reads the
// facts). Finally the rollups are emptied to show the read really used them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'
import { resolveAnalyticsFilters, type AnalyticsQuery } from '../../src/queries/analytics-filters.js'
import { getPromptDetail } from '../../src/queries/prompts/get-prompt-detail.js'
import { addDays } from '../../src/core/date-range.js'

const DAYS = ['2025-04-29', '2025-04-30', '2025-05-01', '2025-05-16', '2025-05-31', '2025-06-01', '2025-06-02', '2025-06-20', '2025-06-30', '2025-07-01', '2025-07-03']
const MODELS = [
  ['openai', 'gpt-4o'],
  ['openai', 'gpt-4o-mini'],
  ['anthropic', 'claude-x'],
  ['google', 'gemini-x'],
  ['perplexity', 'sonar-x'],
] as const
const CONTENTS = [
  'Acme is great and fast. Globex is fine.',
  'Globex leads the market; Acme is poor and slow.',
  'Initech and Acme both work well.',
  'Nothing relevant here.',
  '',
  'Acme, Acme and Initech. Globex is terrible.',
  'Initech is popular.',
]
const DOMAINS = Array.from({ length: 14 }, (_, i) => `d${String(i + 1).padStart(2, '0')}.com`)

describe.each(testBackends)('GET /prompts/{id} from rollups equals the facts (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { key: string; workspaceId: string }
  let target: string
  let initech: string

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    tenant = await ctx.tenant()
    await createBrand(ctx, tenant.key, { name: 'Acme', is_primary: true })
    await createBrand(ctx, tenant.key, { name: 'Globex' })
    initech = await createBrand(ctx, tenant.key, { name: 'Initech' })
    target = await createPrompt(ctx, tenant.key, 'best crm for startups', ['crm', 'smb'])
    const other = await createPrompt(ctx, tenant.key, 'crm for enterprise', ['enterprise'])
    // Per day a varying number of answers per prompt, models, contents and cited domains, so
    // that counts differ by day, provider, brand and domain (and domains tie now and then).
    const responses = DAYS.flatMap((day, d) =>
      [target, other].flatMap((prompt, p) =>
        Array.from({ length: 2 + ((d + p) % 4) }, (_, i) => {
          const [provider, model] = MODELS[(d + 2 * i + p) % MODELS.length]!
          return {
            prompt_id: prompt,
            provider,
            model,
            created_at: `${day}T${String((5 * i + d) % 24).padStart(2, '0')}:${String(7 * i).padStart(2, '0')}:00Z`,
            content: CONTENTS[(d * 3 + i + p) % CONTENTS.length],
            citations: DOMAINS.filter((_, k) => (k * (i + 1) + d) % 4 !== 0 && k < 4 + ((d + i) % 11)).map((domain, k) => ({ url: `https://${domain}/p${(k + i) % 3}` })),
          }
        }),
      ),
    )
    await ingest(ctx, tenant.key, responses)
  }, 120_000)
  afterAll(() => ctx.close())

  const FILTERS: AnalyticsQuery[] = [
    {},
    { models: ['openai'] },
    { models: ['anthropic', 'google'] },
    { tags: ['crm'] },
    { tags: ['enterprise'] },
    { tags: ['smb'], models: ['openai', 'perplexity'] },
  ]
  const edges = [...new Set(DAYS.flatMap((day) => [addDays(day, -1), day, addDays(day, 1)]))].sort()

  const compare = async (start: string, end: string, query: AnalyticsQuery) => {
    const db = ctx.database.db
    const filters = await resolveAnalyticsFilters(db, tenant.workspaceId, { ...query, start_date: start, end_date: end })
    const fast = await getPromptDetail(db, tenant.workspaceId, target, filters)
    expect(fast, `${start}..${end} ${JSON.stringify(query)}`).toEqual(await getPromptDetail(db, tenant.workspaceId, target, filters, 'facts'))
    return fast
  }

  it('equals the facts for ranges across month edges, with and without filters', async () => {
    let compared = 0
    let nonEmpty = 0
    for (let i = 0; i < edges.length; i += 2) {
      for (let j = i; j < edges.length; j += 5) {
        for (const query of FILTERS) {
          const detail = await compare(edges[i]!, edges[j]!, query)
          compared++
          if (detail.metrics.response_count > 0 && detail.previous_period.metrics.response_count > 0 && detail.top_sources.length > 0) nonEmpty++
        }
      }
    }
    expect(compared).toBeGreaterThan(100)
    // Most comparisons have answers in both periods and cited domains: not a comparison of empty reads.
    expect(nonEmpty).toBeGreaterThan(compared / 3)
    // A read with more than ten cited domains and mentions: the top ten cut and the brand rows are compared too.
    const whole = await compare('2025-04-01', '2025-07-31', {})
    expect(whole.top_sources).toHaveLength(10)
    expect(whole.brands.every((b) => b.mention_count > 0)).toBe(true)
    // A models filter is not kept by the rollups: it reads the facts, and still answers.
    expect((await compare('2025-05-01', '2025-06-30', { model_ids: ['gpt-4o'] })).metrics.response_count).toBeGreaterThan(0)
  }, 300_000)

  it('equals the facts while a brand is inactive', async () => {
    const whole = async () => (await compare('2025-04-01', '2025-07-31', {})).metrics.responses_with_mentions
    const allActive = await whole()
    const response = await post(ctx, `/api/v1/brands/${initech}`, tenant.key, { is_active: false }, 'PATCH')
    expect(response.statusCode, response.body).toBe(200)
    // Answers that mention Initech alone no longer count as mentioning a brand.
    expect(await whole()).toBeLessThan(allActive)
    for (const [start, end] of [
      ['2025-05-01', '2025-05-31'],
      ['2025-06-01', '2025-06-30'],
      ['2025-04-30', '2025-07-01'],
      ['2025-06-02', '2025-07-03'],
    ] as const) {
      for (const query of FILTERS) await compare(start, end, query)
    }
    const back = await post(ctx, `/api/v1/brands/${initech}`, tenant.key, { is_active: true }, 'PATCH')
    expect(back.statusCode, back.body).toBe(200)
    expect(await whole()).toBe(allActive)
  }, 120_000)

  it('reads the rollups: without their rows the answer changes', async () => {
    const db = ctx.database.db
    const filters = await resolveAnalyticsFilters(db, tenant.workspaceId, { start_date: '2025-05-01', end_date: '2025-06-30' })
    const before = await getPromptDetail(db, tenant.workspaceId, target, filters)
    expect(before.metrics.response_count).toBeGreaterThan(0)
    for (const table of [
      'daily_prompt_response_stats',
      'daily_prompt_mention_stats',
      'monthly_prompt_mention_stats',
      'daily_prompt_mentioned_responses',
      'daily_prompt_domain_stats',
      'monthly_prompt_domain_stats',
    ]) {
      await sql`delete from ${sql.table(table)} where workspace_id = ${tenant.workspaceId}`.execute(db)
    }
    const after = await getPromptDetail(db, tenant.workspaceId, target, filters)
    expect(after.metrics).toEqual({ response_count: 0, responses_with_mentions: 0, brands_mentioned: 0, avg_sentiment: 0 })
    expect(after.top_sources).toEqual([])
    expect(await getPromptDetail(db, tenant.workspaceId, target, filters, 'facts')).toEqual(before)
  })
})
