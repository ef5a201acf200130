// The read rule and the registry's invariants, as plain functions.
import { describe, expect, it } from 'vitest'
import { activeFilters, deleteOrder, FAMILIES, family, familiesAffectedByPromptTags, isRetractable, ROLLUP_TABLES, rollupServes } from '../../src/rollups/index.js'
import { defineFold } from '../../src/rollups/types.js'

const range = { range: { start: '2026-06-01', end: '2026-06-30' }, from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-07-01T00:00:00Z') }
const none = { ...range, providers: [], modelIds: [], tags: [] }

describe('read rule', () => {
  it('counts present, non-empty filters; from/to are the range', () => {
    expect(activeFilters(none)).toEqual(['range'])
    expect(activeFilters({ ...none, tags: ['a'], promptId: undefined, domains: ['x.com'] }).sort()).toEqual(['domains', 'range', 'tags'])
  })

  it('serves only when every active filter is in the allow-list', () => {
    expect(rollupServes('brand-totals', none)).toBe(true)
    expect(rollupServes('brand-totals', { ...none, providers: ['openai'], modelIds: ['gpt-4o'] })).toBe(true)
    expect(rollupServes('brand-totals', { ...none, tags: ['pricing'] })).toBe(false)
    expect(rollupServes('mention-stats', { ...none, tags: ['pricing'] })).toBe(true)
    expect(rollupServes('domain-stats', { ...none, providers: ['openai'] })).toBe(false)
    expect(rollupServes('url-stats', { ...none, domains: ['acme.com'] })).toBe(true)
    expect(rollupServes('url-stats', { ...none, urls: ['https://acme.com/'] })).toBe(false)
    expect(rollupServes('domain-stats', { ...none, promptId: 'p' })).toBe(false)
    expect(rollupServes('domain-provider-days', { ...none, tags: ['pricing'] })).toBe(false)
    expect(rollupServes('domain-tag-days', { ...none, providers: ['openai'], modelIds: ['gpt-4o'], tags: ['pricing'] })).toBe(true)
  })

  it('a filter nobody declared falls back to the facts', () => {
    for (const f of FAMILIES) expect(rollupServes(f, { ...none, sentimentBelow: 0 }), f.name).toBe(false)
    // An inactive new filter changes nothing.
    expect(rollupServes('brand-totals', { ...none, sentimentBelow: undefined })).toBe(true)
  })

  it('several families serve only what all of them serve', () => {
    expect(rollupServes(['response-totals', 'domain-stats'], { ...none, providers: ['openai'] })).toBe(false)
    expect(rollupServes(['response-totals', 'domain-stats'], none)).toBe(true)
  })
})

describe('registry', () => {
  it("a fold keeps its source's sums and only dimensions the source has, and comes after it", () => {
    const fold = family('mention-stats-by-provider')
    expect(fold.foldOf).toBe(family('mention-stats'))
    expect(fold.measures).toEqual(family('mention-stats').measures)
    const position = (name: string) => FAMILIES.findIndex((f) => f.name === name)
    for (const f of FAMILIES) if (f.foldOf) expect(position(f.foldOf.name), f.name).toBeLessThan(position(f.name))
    const base = { name: 'x', tables: { month: 'monthly_x' }, serves: ['range'] as const }
    expect(() => defineFold({ ...base, source: family('mention-stats'), dimensions: ['provider', 'domain'] })).toThrow('has no dimension domain')
    expect(() => defineFold({ ...base, source: family('domain-stats'), dimensions: ['domain'] })).toThrow('not a sum')
  })

  it('keeps every rollup table of migrations 0003, 0005, 0007, 0008, 0018, 0022 and 0023, once', () => {
    const migrated = [
      'daily_response_stats',
      'daily_mention_stats',
      'workspace_domain',
      'daily_response_totals',
      'daily_brand_totals',
      'workspace_url',
      'daily_domain_stats',
      'monthly_domain_stats',
      'daily_url_stats',
      'monthly_url_stats',
      'quarterly_url_stats',
      'yearly_url_stats',
      'daily_brand_domain_stats',
      'domain_prompt_days',
      'domain_provider_days',
      'url_provider_days',
      'prompt_days',
      'daily_prompt_stats',
      'daily_prompt_brand_stats',
      'monthly_response_stats',
      'monthly_mention_stats',
      'monthly_response_totals',
      'monthly_brand_totals',
      'monthly_response_stats_by_provider',
      'monthly_mention_stats_by_provider',
      'domain_tag_days',
      'daily_prompt_response_stats',
      'daily_prompt_mention_stats',
      'monthly_prompt_mention_stats',
      'daily_prompt_mentioned_responses',
      'daily_prompt_domain_stats',
      'monthly_prompt_domain_stats',
    ]
    expect([...ROLLUP_TABLES].sort()).toEqual(migrated.sort())
  })

  it('every mention family can be retracted (all sums); others are not', () => {
    const mentionFamilies = FAMILIES.filter((f) => f.facts === 'mention')
    expect(mentionFamilies.map((f) => f.name).sort()).toEqual([
      'brand-domain-stats',
      'brand-totals',
      'mention-stats',
      'mention-stats-by-provider',
      'prompt-brand-stats',
      'prompt-mention-stats',
      'prompt-mentioned-responses',
    ])
    for (const f of mentionFamilies) expect(isRetractable(f), f.name).toBe(true)
    expect(isRetractable(family('domain-stats'))).toBe(false)
  })

  it('the numbering tables come before the families that read their numbers', () => {
    const names = FAMILIES.map((f) => f.name)
    expect(names.indexOf('workspace-url')).toBeLessThan(names.indexOf('url-stats'))
    expect(names.indexOf('workspace-url')).toBeLessThan(names.indexOf('url-provider-days'))
  })

  it('names the families a prompt tag change affects', () => {
    expect(familiesAffectedByPromptTags().sort()).toEqual(['domain-tag-days', 'mention-stats', 'mention-stats-by-provider', 'response-stats', 'response-stats-by-provider'])
  })
})

describe('deleteOrder', () => {
  it('puts children before parents and breaks ties by name', () => {
    expect(
      deleteOrder(
        ['response', 'mention', 'prompt', 'brand'],
        [
          ['mention', 'response'],
          ['mention', 'brand'],
          ['response', 'prompt'],
        ],
      ),
    ).toEqual(['mention', 'brand', 'response', 'prompt'])
  })

  it('ignores references to tables outside the list and survives a cycle', () => {
    expect(
      deleteOrder(
        ['b', 'a'],
        [
          ['a', 'workspace'],
          ['a', 'b'],
          ['b', 'a'],
        ],
      ),
    ).toEqual(['a', 'b'])
  })
})
