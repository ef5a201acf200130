// GET /prompts/{id} reads a partial month of its mention and domain rollups as the month
// minus the days the range leaves out when those are fewer (src/queries/prompts/
// signed-month-cover.ts). The cover itself, then the read against the facts where the
// subtraction matters: answers on the left-out days, a domain cited and a brand mentioned
// only there (their sums cancel to zero and must not show), and a range ending early in a
// month whose later days are empty (the month's row is read whole).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { resolveAnalyticsFilters } from '../../src/queries/analytics-filters.js'
import { getPromptDetail } from '../../src/queries/prompts/get-prompt-detail.js'
import { signedMonthCover, type SignedPart } from '../../src/queries/prompts/signed-month-cover.js'

const brief = (parts: SignedPart[]) => parts.map((p) => `${p.sign === 1 ? '+' : '-'}${p.tier} ${p.units.start}..${p.units.end}`)

describe('signedMonthCover', () => {
  it('reads whole months by month and short partial months by day', () => {
    expect(brief(signedMonthCover({ start: '2026-02-01', end: '2026-04-30' }))).toEqual(['+month 2026-02-01..2026-04-01'])
    const cover = signedMonthCover({ start: '2026-03-20', end: '2026-04-03' })
    expect(brief(cover)).toEqual(['+day 2026-03-20..2026-03-31', '+day 2026-04-01..2026-04-03'])
    // A partial month read by day may still be read whole when its other days are empty.
    expect(cover[1]!.month).toEqual({ unit: '2026-04-01', rest: [{ start: '2026-04-04', end: '2026-04-30' }] })
  })

  it('reads a mostly covered month as the month minus the days left out', () => {
    // The previous period of 30 days ending 2026-11-27: two days of September, October less its last three.
    expect(brief(signedMonthCover({ start: '2026-09-29', end: '2026-10-28' }))).toEqual([
      '+day 2026-09-29..2026-09-30',
      '+month 2026-10-01..2026-10-01',
      '-day 2026-10-29..2026-10-31',
    ])
    // Both ends of one month left out; a leap February.
    expect(brief(signedMonthCover({ start: '2028-02-03', end: '2028-02-27' }))).toEqual([
      '+month 2028-02-01..2028-02-01',
      '-day 2028-02-01..2028-02-02',
      '-day 2028-02-28..2028-02-29',
    ])
    // Half and half: by day (no subtraction at equal cost).
    expect(brief(signedMonthCover({ start: '2026-04-16', end: '2026-04-30' }))).toEqual(['+day 2026-04-16..2026-04-30'])
    expect(brief(signedMonthCover({ start: '2026-04-15', end: '2026-04-30' }))).toEqual(['+month 2026-04-01..2026-04-01', '-day 2026-04-01..2026-04-14'])
  })

  it('covers every day of the range once, net', () => {
    for (const [start, end] of [
      ['2025-12-30', '2026-03-02'],
      ['2026-01-02', '2026-01-30'],
      ['2026-02-14', '2026-03-16'],
      ['2026-05-31', '2026-05-31'],
    ] as const) {
      const net = new Map<string, number>()
      for (const part of signedMonthCover({ start, end })) {
        const days: string[] = []
        if (part.tier === 'day') {
          for (let d = part.units.start; d <= part.units.end; d = new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10)) days.push(d)
        } else {
          for (let m = part.units.start; m <= part.units.end; m = new Date(Date.UTC(+m.slice(0, 4), +m.slice(5, 7), 1)).toISOString().slice(0, 10)) {
            const next = Date.UTC(+m.slice(0, 4), +m.slice(5, 7), 1)
            for (let t = Date.parse(m); t < next; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10))
          }
        }
        for (const d of days) net.set(d, (net.get(d) ?? 0) + part.sign)
      }
      const covered = [...net].filter(([, n]) => n !== 0)
      expect(covered.every(([d, n]) => n === 1 && d >= start && d <= end)).toBe(true)
      expect(covered.length).toBe((Date.parse(end) - Date.parse(start)) / 86_400_000 + 1)
    }
  })
})

describe.each(testBackends)('GET /prompts/{id} with a month minus its left-out days equals the facts (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { key: string; workspaceId: string }
  let target: string

  beforeAll(async () => {
    ctx = await createTestContext(backend)
    tenant = await ctx.tenant()
    await createBrand(ctx, tenant.key, { name: 'Acme', is_primary: true })
    await createBrand(ctx, tenant.key, { name: 'Globex' })
    await createBrand(ctx, tenant.key, { name: 'Initech' })
    target = await createPrompt(ctx, tenant.key, 'best crm', ['crm'])
    const answer = (day: string, i: number, content: string, domains: string[]) => ({
      prompt_id: target,
      provider: ['openai', 'anthropic', 'google'][i % 3],
      model: ['gpt-4o', 'claude-x', 'gemini-x'][i % 3],
      created_at: `${day}T${String(3 + i).padStart(2, '0')}:00:00Z`,
      content,
      citations: domains.map((domain) => ({ url: `https://${domain}/a${i}` })),
    })
    const responses = [
      // Only on the first and last days of July: Initech and only-edge.com.
      ...[0, 1].map((i) => answer('2025-07-01', i, 'Initech beats Acme.', ['only-edge.com', 'both.com'])),
      ...[0, 1, 2].map((i) => answer('2025-07-31', i, 'Initech is good.', ['only-edge.com'])),
      // The middle of July, and June (the previous period of a July range).
      ...['2025-07-02', '2025-07-10', '2025-07-20', '2025-07-30'].flatMap((day, d) =>
        [0, 1, 2].map((i) => answer(day, i + d, i === 0 ? 'Acme and Globex.' : 'Globex only.', ['both.com', `mid${(i + d) % 4}.com`])),
      ),
      ...['2025-06-05', '2025-06-28'].flatMap((day) => [0, 1].map((i) => answer(day, i, 'Acme, then Initech.', ['june.com']))),
      // August: only its first days, so a range ending there reads August's month row whole.
      ...[0, 1].map((i) => answer('2025-08-02', i, 'Globex leads.', ['august.com'])),
    ]
    await ingest(ctx, tenant.key, responses)
  }, 120_000)
  afterAll(() => ctx.close())

  const compare = async (start: string, end: string) => {
    const db = ctx.database.db
    const filters = await resolveAnalyticsFilters(db, tenant.workspaceId, { start_date: start, end_date: end })
    const fast = await getPromptDetail(db, tenant.workspaceId, target, filters)
    expect(fast, `${start}..${end}`).toEqual(await getPromptDetail(db, tenant.workspaceId, target, filters, 'facts'))
    return fast
  }

  it('drops the keys whose month and left-out days cancel', async () => {
    // July less its first and last days: July's row minus those two days.
    const detail = await compare('2025-07-02', '2025-07-30')
    expect(detail.top_sources.map((s) => s.domain)).not.toContain('only-edge.com')
    expect(detail.brands.find((b) => b.name === 'Initech')!.mention_count).toBe(0)
    expect(detail.metrics.brands_mentioned).toBe(2)
    // Its previous period (June 3 - July 1) is June less two days plus July 1.
    expect(detail.previous_period.metrics.response_count).toBe(6)
    for (const [start, end] of [
      ['2025-07-03', '2025-07-31'],
      ['2025-06-04', '2025-07-30'],
      ['2025-07-01', '2025-07-29'],
      ['2025-07-02', '2025-08-03'],
      ['2025-08-01', '2025-08-03'],
    ] as const) {
      await compare(start, end)
    }
  }, 120_000)

  it('reads the month rows: without them the subtracted answer changes', async () => {
    const db = ctx.database.db
    await sql`delete from monthly_prompt_domain_stats where workspace_id = ${tenant.workspaceId} and month = '2025-07-01'`.execute(db)
    const filters = await resolveAnalyticsFilters(db, tenant.workspaceId, { start_date: '2025-07-02', end_date: '2025-07-30' })
    const detail = await getPromptDetail(db, tenant.workspaceId, target, filters)
    // Only the subtracted days remain, all negative: no domain is left to rank.
    expect(detail.top_sources).toEqual([])
  })
})
