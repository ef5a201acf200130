import { describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { normalizeParams } from '../../src/http/normalize-params.js'
import { AnalyticsFilters, Page, PerPage, UuidParam } from '../../src/http/schemas.js'
import { AppError } from '../../src/core/errors.js'

const schema = Type.Object(
  { ...AnalyticsFilters, page: Page, per_page: PerPage(20), has_content: Type.Optional(Type.Boolean()), brand_id: UuidParam('brand') },
  { additionalProperties: false },
)

function failure(raw: Record<string, unknown>): AppError {
  try {
    normalizeParams(raw, schema as never, 'query')
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a failure')
}

describe('normalizeParams', () => {
  const brand = '0190a5b0-0000-7000-8000-000000000001'
  it('types values from the schema', () => {
    expect(
      normalizeParams(
        { page: '2', per_page: '100', has_content: '0', models: 'openai,google', tags: ['a', 'b'], brand_id: brand, start_date: '2026-01-01' },
        schema as never,
        'query',
      ),
    ).toEqual({
      page: 2,
      per_page: 100,
      has_content: false,
      models: ['openai', 'google'],
      tags: ['a', 'b'],
      brand_id: brand,
      start_date: '2026-01-01',
    })
  })

  it('names unknown parameters', () => {
    const error = failure({ brand_id: brand, modles: 'openai' })
    expect(error.code).toBe('unknown_parameter')
    expect(error.param).toBe('modles')
    expect(error.message).toContain('modles')
  })

  it('names unknown parameters that are also names of Object.prototype members', () => {
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
      const raw: Record<string, unknown> = Object.create(null)
      raw.brand_id = brand
      raw[name] = '1'
      const error = failure(raw)
      expect(error.code, name).toBe('unknown_parameter')
      expect(error.param, name).toBe(name)
    }
  })

  it('gives range messages that say what to send', () => {
    expect(failure({ brand_id: brand, per_page: '101' }).message).toBe('per_page must be between 1 and 100')
    expect(failure({ brand_id: brand, per_page: '0' }).message).toBe('per_page must be between 1 and 100')
    expect(failure({ brand_id: brand, page: 'x' }).param).toBe('page')
  })

  it('rejects bad dates, booleans, uuids and providers', () => {
    expect(failure({ brand_id: brand, start_date: '2026-02-30' }).param).toBe('start_date')
    expect(failure({ brand_id: brand, has_content: 'yes' }).param).toBe('has_content')
    expect(failure({ brand_id: 'nope' }).param).toBe('brand_id')
    const provider = failure({ brand_id: brand, models: 'openai,chatgpt' })
    expect(provider.message).toContain('openai, anthropic, google, perplexity')
  })

  it('rejects a scalar given twice and reports missing required ones', () => {
    expect(failure({ brand_id: brand, page: ['1', '2'] }).message).toContain('give it once')
    const missing = failure({})
    expect(missing.code).toBe('missing_parameter')
    expect(missing.param).toBe('brand_id')
  })
})
