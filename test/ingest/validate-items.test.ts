// Pure validation of ingestion items: the TypeBox item schemas decide, problems are
// mapped to (index, field, why), and the report stays bounded for hostile batches.
import { describe, expect, it } from 'vitest'
import { Settings } from 'typebox/system'
import { AppError } from '../../src/core/errors.js'
import {
  AioItemSchema,
  MAX_DETAILS,
  ResponseItemSchema,
  describeProblems,
  problemsError,
  validateAioItems,
  validateBatchBody,
  validateResponseItems,
} from '../../src/ingest/validate-items.js'

const PROMPT = '5f0c6a5e-8a43-4d3e-9a1e-1c2b3d4e5f60'
const NOW = new Date('2026-05-10T00:00:00Z')
const response = (overrides: Record<string, unknown> = {}) => ({
  prompt_id: PROMPT,
  provider: 'openai',
  model: 'gpt-4o',
  content: 'Acme is great',
  created_at: '2026-05-01T10:00:00Z',
  ...overrides,
})
const observation = (overrides: Record<string, unknown> = {}) => ({ prompt_id: PROMPT, observed_at: '2026-05-01T10:00:00Z', has_aio: true, overview_text: 'Acme', ...overrides })
const pairs = (problems: { index: number; field: string }[]) => problems.map((p) => [p.index, p.field])
const withUnknownFields = (item: Record<string, unknown>, count: number) => ({ ...item, ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`field_${i}`, i])) })

describe('validateResponseItems', () => {
  it('accepts valid items, with null meaning absent for external_id, citations and titles', () => {
    const items = [
      response(),
      response({ external_id: null, citations: null }),
      response({ external_id: 'x', citations: [{ url: 'https://a.example/x', title: null, start_index: 3 }] }),
    ]
    const report = validateResponseItems(items, NOW)
    expect(report).toEqual({ items, problems: [], total: 0 })
  })

  it('reports each bad field of each item with a reason taken from the schema', () => {
    const report = validateResponseItems(
      [
        response(),
        response({ provider: 'chatgpt' }),
        response({ created_at: 'yesterday' }),
        response({ content: 5 }),
        response({ model: '   ', external_id: '' }),
        response({ content: 'x'.repeat(200_001) }),
        response({ citations: [{ title: 3 }] }),
        response({ prompt_id: 'not-a-uuid' }),
        7,
        {},
      ],
      NOW,
    )
    expect(report.items).toEqual([])
    expect(report.total).toBe(report.problems.length)
    expect(pairs(report.problems)).toEqual([
      [1, 'provider'],
      [2, 'created_at'],
      [3, 'content'],
      [4, 'external_id'],
      [4, 'model'],
      [5, 'content'],
      [6, 'citations[0].url'],
      [6, 'citations[0].title'],
      [7, 'prompt_id'],
      [8, ''],
      [9, 'prompt_id'],
      [9, 'provider'],
      [9, 'model'],
      [9, 'content'],
      [9, 'created_at'],
    ])
    const message = (index: number, field: string) => report.problems.find((p) => p.index === index && p.field === field)?.message
    expect(message(1, 'provider')).toBe('provider must be one of: openai, anthropic, google, perplexity')
    expect(message(2, 'created_at')).toContain('ISO 8601 date-time with a time zone')
    expect(message(3, 'content')).toBe('content must be a string')
    expect(message(4, 'model')).toBe('model must not be empty or blank')
    expect(message(5, 'content')).toBe('content must be at most 200000 characters')
    expect(message(6, 'citations[0].url')).toBe('citations[0].url is required')
    expect(message(6, 'citations[0].title')).toBe('citations[0].title must be a string or null')
    expect(message(7, 'prompt_id')).toBe('prompt_id must be a UUID of a prompt of this workspace')
    expect(message(8, '')).toBe('each item must be a JSON object')
    expect(message(9, 'created_at')).toBe('created_at is required')
  })

  it('takes its limits from the schema that OpenAPI shows', () => {
    const { content, citations } = ResponseItemSchema.properties
    expect(content).toMatchObject({ type: 'string', maxLength: 200_000 })
    expect(citations).toMatchObject({ type: ['array', 'null'], maxItems: 200 })
    const tooMany = Array.from({ length: 201 }, () => ({ url: 'https://a.example' }))
    expect(validateResponseItems([response({ citations: tooMany })], NOW).problems).toEqual([{ index: 0, field: 'citations', message: 'citations must hold at most 200 items' }])
  })

  it('refuses a time more than a day ahead, and only when the time itself is valid', () => {
    const report = validateResponseItems(
      [response({ created_at: '2026-05-10T23:00:00Z' }), response({ created_at: '2026-05-12T00:00:00Z' }), response({ created_at: '2026-02-30T00:00:00Z' })],
      NOW,
    )
    expect(report.problems).toEqual([
      { index: 1, field: 'created_at', message: 'created_at is in the future' },
      { index: 2, field: 'created_at', message: expect.stringContaining('ISO 8601') },
    ])
  })

  it('names a few unknown fields and counts the rest in one problem per item', () => {
    const report = validateResponseItems([withUnknownFields(response(), 600)], NOW)
    expect(report.total).toBe(1)
    expect(report.problems[0].field).toBe('field_0')
    expect(report.problems[0].message).toBe(
      'unknown fields "field_0", "field_1", "field_2" and 597 more; allowed: external_id, prompt_id, provider, model, content, created_at, citations, search_queries',
    )
  })

  it('keeps at most MAX_DETAILS problems but counts them all', () => {
    const items = Array.from({ length: 1000 }, () => withUnknownFields({}, 600))
    const report = validateResponseItems(items, NOW)
    expect(report.problems).toHaveLength(MAX_DETAILS)
    // Per item: the unknown fields, and the five required fields missing.
    expect(report.total).toBe(6000)
    expect(report.items).toEqual([])
  })

  it('leaves TypeBox’s global error limit as it found it', () => {
    const before = Settings.Get().maxErrors
    validateResponseItems([response({ citations: Array.from({ length: 50 }, () => ({})) })], NOW)
    expect(Settings.Get().maxErrors).toBe(before)
  })
})

describe('validateAioItems', () => {
  it('checks the schema and the rule that links has_aio and overview_text', () => {
    const report = validateAioItems(
      [
        observation(),
        observation({ has_aio: false, overview_text: 'text' }),
        observation({ has_aio: false, overview_text: ' ' }),
        observation({ has_aio: 'yes', overview_text: 5 }),
        observation({ observed_at: '2030-01-01T00:00:00Z' }),
      ],
      NOW,
    )
    expect(report.problems).toEqual([
      { index: 1, field: 'overview_text', message: 'overview_text must be empty when has_aio is false' },
      { index: 3, field: 'has_aio', message: 'has_aio must be true or false' },
      { index: 3, field: 'overview_text', message: 'overview_text must be a string or null' },
      { index: 4, field: 'observed_at', message: 'observed_at is in the future' },
    ])
    expect(Object.keys(AioItemSchema.properties)).toEqual(['external_id', 'prompt_id', 'observed_at', 'has_aio', 'overview_text'])
  })
})

describe('messages and the batch body', () => {
  it('says how many problems were not listed', () => {
    const problems = Array.from({ length: MAX_DETAILS }, (_, index) => ({ index, field: 'model', message: 'model must not be empty or blank' }))
    const message = describeProblems(problems, 'responses', 605_000)
    expect(message).toMatch(/^605,000 problem\(s\) in responses; nothing was stored\. responses\[0\]\.model: /)
    expect(message).toContain('and 604,980 more: error.details lists the first 100, the other 604,900 are not listed')
    const error = problemsError([...problems, ...problems], 'responses', 605_000)
    expect((error.details as unknown[]).length).toBe(MAX_DETAILS)
  })

  it('checks the list before its items', () => {
    const refuse = (body: unknown) => {
      try {
        validateBatchBody(body, 'responses', validateResponseItems)
      } catch (error) {
        if (error instanceof AppError) return [error.code, error.param, error.message]
        throw error
      }
      return undefined
    }
    expect(refuse(null)).toEqual(['missing_parameter', 'responses', 'The body must be a JSON object {"responses": [...]}'])
    expect(refuse({ responses: 5 })?.[0]).toBe('missing_parameter')
    expect(refuse({ responses: [], extra: 1 })).toEqual(['invalid_parameter', 'extra', 'Unknown field "extra"; the body holds only "responses"'])
    expect(refuse({ responses: Array.from({ length: 1001 }, () => ({})) })).toEqual(['invalid_parameter', 'responses', 'responses holds 1001 items; send at most 1000 per request'])
    expect(refuse({ responses: [response(), { provider: 'x' }] })?.[2]).toMatch(
      /^5 problem\(s\) in responses; nothing was stored\. responses\[1\]\.prompt_id: prompt_id is required/,
    )
    expect(validateBatchBody({ responses: [response()] }, 'responses', validateResponseItems)).toEqual([response()])
  })
})
