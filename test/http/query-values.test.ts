import { describe, expect, it } from 'vitest'
import { isCalendarDate, parseArrayValues, parseBooleanValue, parseIntegerValue, parseQueryString } from '../../src/http/query-values.js'

describe('query string parsing', () => {
  it('collects repeated keys and [] keys', () => {
    expect(parseQueryString('models=openai&models=google&tags[]=a&tags[]=b&page=2')).toEqual({ models: ['openai', 'google'], tags: ['a', 'b'], page: '2' })
    expect(parseQueryString('models[]=openai')).toEqual({ models: ['openai'] })
    expect(parseQueryString('q=a%20b&r=%E2%9C%93')).toEqual({ q: 'a b', r: '✓' })
  })

  it('accepts all three array encodings alike', () => {
    expect(parseArrayValues(['openai', 'google'])).toEqual(['openai', 'google'])
    expect(parseArrayValues('openai,google')).toEqual(['openai', 'google'])
    expect(parseArrayValues(['openai,google', 'perplexity'])).toEqual(['openai', 'google', 'perplexity'])
    expect(parseArrayValues(' a , ,b,a ')).toEqual(['a', 'b'])
    expect(parseArrayValues('')).toEqual([])
  })
})

describe('booleans', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('%s -> %s', (raw, expected) => expect(parseBooleanValue(raw)).toBe(expected))
  it.each(['yes', 'no', '', '2', 'truee', 'null'])('%s is rejected', (raw) => expect(parseBooleanValue(raw)).toBeUndefined())
})

describe('integers', () => {
  it('parses plain whole numbers only', () => {
    expect(parseIntegerValue('42')).toBe(42)
    expect(parseIntegerValue('-3')).toBe(-3)
    for (const bad of ['', '1.5', '1e3', '0x10', 'abc', '12abc', '9'.repeat(20)]) expect(parseIntegerValue(bad), bad).toBeUndefined()
  })
})

describe('dates', () => {
  it('accepts real calendar dates', () => {
    for (const good of ['2026-01-31', '2024-02-29', '2000-02-29', '1999-12-31']) expect(isCalendarDate(good), good).toBe(true)
  })
  it('rejects impossible or malformed dates', () => {
    for (const bad of ['2026-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-1-01', '20260101', '2026-01-01T00:00:00Z', '']) {
      expect(isCalendarDate(bad), bad).toBe(false)
    }
  })
})
