import { describe, expect, it } from 'vitest'
import { addDays, apiParams, filtersToParams, intParam, isDate, keyFromHash, matchRoute, parseFilters, presetRange, withFilters, withParam } from '../../web/src/lib/url-state.js'

const TODAY = '2026-11-25'

describe('dashboard URL state', () => {
  it('defaults to the last 30 days, the same range the API uses without dates', () => {
    const filters = parseFilters('', TODAY)
    expect(filters).toEqual({ preset: '30d', start: '2026-10-26', end: TODAY, providers: [], models: [], tags: [] })
    expect(filtersToParams(filters).toString()).toBe('')
  })

  it('reads presets, custom ranges and comma or repeated lists (sorted, de-duplicated)', () => {
    expect(parseFilters('?period=7d', TODAY)).toMatchObject({ preset: '7d', start: '2026-11-18', end: TODAY })
    expect(parseFilters('?period=90d', TODAY).start).toBe('2026-08-27')
    expect(parseFilters('?period=custom&start=2026-01-01&end=2026-01-31', TODAY)).toMatchObject({ preset: 'custom', start: '2026-01-01', end: '2026-01-31' })
    expect(parseFilters('?providers=openai,google&providers=openai&tags=b&tags=a', TODAY)).toMatchObject({ providers: ['google', 'openai'], tags: ['a', 'b'] })
  })

  it('falls back to the default for invalid or inverted dates and unknown presets', () => {
    expect(parseFilters('?period=custom&start=2026-02-30&end=2026-03-01', TODAY).preset).toBe('30d')
    expect(parseFilters('?period=custom&start=2026-03-02&end=2026-03-01', TODAY).preset).toBe('30d')
    expect(parseFilters('?period=1y', TODAY).preset).toBe('30d')
  })

  it('round-trips filters through the URL', () => {
    const filters = { preset: 'custom' as const, start: '2026-05-01', end: '2026-05-31', providers: ['anthropic', 'openai'], models: ['gpt-4o'], tags: ['crm'] }
    const search = `?${filtersToParams(filters)}`
    expect(parseFilters(search, TODAY)).toEqual(filters)
    const preset = { ...presetRange('7d', TODAY), preset: '7d' as const, providers: [], models: [], tags: ['x'] }
    expect(parseFilters(`?${filtersToParams(preset)}`, TODAY)).toEqual(preset)
  })

  it('a filter change keeps unrelated parameters and resets the table page', () => {
    const next = withFilters('?brand=b1&page=3&upage=2&tags=a', { ...parseFilters('', TODAY), providers: ['openai'] })
    const params = new URLSearchParams(next)
    expect(params.get('providers')).toBe('openai')
    expect(params.get('brand')).toBe('b1')
    expect(params.has('page')).toBe(false)
    expect(params.has('upage')).toBe(false)
    expect(params.has('tags')).toBe(false)
  })

  it('maps filters to each API family’s parameter names', () => {
    const filters = { preset: 'custom' as const, start: '2026-05-01', end: '2026-05-31', providers: ['openai'], models: ['gpt-4o'], tags: ['crm', 'smb'] }
    expect(Object.fromEntries(apiParams(filters))).toEqual({ start_date: '2026-05-01', end_date: '2026-05-31', models: 'openai', model_ids: 'gpt-4o', tags: 'crm,smb' })
    expect(Object.fromEntries(apiParams(filters, 'aio'))).toEqual({ start_date: '2026-05-01', end_date: '2026-05-31', tags: 'crm,smb' })
    expect(Object.fromEntries(apiParams(filters, 'export'))).toEqual({ date_from: '2026-05-01', date_to: '2026-05-31', models: 'openai', tags: 'crm,smb' })
  })

  it('sets and clears single parameters, reads page numbers defensively', () => {
    expect(withParam('?a=1', 'page', 2)).toBe('?a=1&page=2')
    expect(withParam('?a=1&page=2', 'page', null)).toBe('?a=1')
    expect(withParam('?page=2', 'page', null)).toBe('')
    expect(intParam('?page=3', 'page', 1)).toBe(3)
    expect(intParam('?page=0', 'page', 1)).toBe(1)
    expect(intParam('?page=x', 'page', 1)).toBe(1)
  })

  it('takes a key from the fragment and routes paths', () => {
    expect(keyFromHash('#key=bvk_abc')).toBe('bvk_abc')
    expect(keyFromHash('#other=1')).toBeNull()
    expect(keyFromHash('')).toBeNull()
    expect(matchRoute('/')).toEqual({ page: 'overview', id: null, sub: null })
    expect(matchRoute('/brands/abc')).toEqual({ page: 'brands', id: 'abc', sub: null })
    expect(matchRoute('/settings/prompts')).toEqual({ page: 'settings', id: 'prompts', sub: null })
  })

  it('knows real calendar dates', () => {
    expect(isDate('2024-02-29')).toBe(true)
    expect(isDate('2025-02-29')).toBe(false)
    expect(isDate('2025-1-01')).toBe(false)
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  })
})
