// Ingestion bodies are validated by the item schemas that OpenAPI shows, and a hostile
// batch gets a small 400: at most 100 details, the rest counted in the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, post } from '../helpers/requests.js'

describe.each(testBackends)('ingestion validation answers (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  let promptId: string
  beforeAll(async () => {
    ctx = await createTestContext(backend, { bodyLimitBytes: 8 * 1024 * 1024 })
    key = (await ctx.tenant()).key
    promptId = await createPrompt(ctx, key, 'Best CRM?')
  })
  afterAll(() => ctx.close())

  it('answers 1,000 items × 600 unknown fields with at most 100 details in a small body', async () => {
    const item = { prompt_id: promptId, provider: 'openai', model: 'gpt-4o', content: 'x', created_at: '2026-05-01T10:00:00Z' }
    const unknown = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f${i}`, i]))
    const payload = JSON.stringify({ responses: Array.from({ length: 1000 }, () => ({ ...item, ...unknown })) })
    expect(payload.length).toBeGreaterThan(5_000_000)
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/responses',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload,
    })
    expect(response.statusCode).toBe(400)
    expect(response.body.length).toBeLessThan(64 * 1024)
    const error = response.json().error
    expect(error.code).toBe('invalid_parameter')
    expect(error.param).toBe('responses')
    expect(error.details).toHaveLength(100)
    expect(error.details[0]).toEqual({ index: 0, field: 'f0', message: expect.stringContaining('unknown fields "f0", "f1", "f2" and 597 more') })
    expect(error.details.map((d: { index: number }) => d.index)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    expect(error.message).toMatch(/^1,000 problem\(s\) in responses; nothing was stored\./)
    expect(error.message).toContain('error.details lists the first 100, the other 900 are not listed')
  }, 60_000)

  it('lists every bad observation of an AI-overview batch', async () => {
    const response = await post(ctx, '/api/v1/ingest/aio', key, {
      observations: [
        { prompt_id: promptId, observed_at: '2026-05-01T10:00:00Z', has_aio: true, overview_text: 'Acme' },
        { prompt_id: promptId, observed_at: '2026-05-01T10:00:00Z', has_aio: false, overview_text: 'Acme' },
        { prompt_id: 'nope', observed_at: 'today', has_aio: 1 },
      ],
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details).toEqual([
      { index: 1, field: 'overview_text', message: 'overview_text must be empty when has_aio is false' },
      { index: 2, field: 'prompt_id', message: 'prompt_id must be a UUID of a prompt of this workspace' },
      { index: 2, field: 'observed_at', message: expect.stringContaining('ISO 8601') },
      { index: 2, field: 'has_aio', message: 'has_aio must be true or false' },
    ])
  })

  it('keeps the body shape errors and unknown query parameters as before', async () => {
    const notAList = await post(ctx, '/api/v1/ingest/responses', key, { responses: 5 })
    expect(notAList.statusCode).toBe(400)
    expect(notAList.json().error).toMatchObject({ code: 'missing_parameter', param: 'responses' })
    const extra = await post(ctx, '/api/v1/ingest/aio', key, { observations: [], more: [] })
    expect(extra.json().error).toMatchObject({ code: 'invalid_parameter', param: 'more' })
    const query = await post(ctx, '/api/v1/ingest/responses?dry_run=1', key, { responses: [] })
    expect(query.statusCode).toBe(400)
    expect(query.json().error).toMatchObject({ code: 'unknown_parameter', param: 'dry_run' })
    const empty = await post(ctx, '/api/v1/ingest/responses', key, { responses: [] })
    expect(empty.json()).toEqual({ success: true, data: { accepted: 0, duplicates: 0 } })
  })

  it('shows the limits it enforces in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json()
    const body = document.paths['/api/v1/ingest/responses'].post.requestBody.content['application/json'].schema
    expect(body.properties.responses.maxItems).toBe(1000)
    const item = body.properties.responses.items
    expect(item.additionalProperties).toBe(false)
    expect(item.properties.content.maxLength).toBe(200_000)
    expect(item.properties.model).toMatchObject({ minLength: 1, maxLength: 200 })
    expect(item.properties.created_at.format).toBe('date-time')
    expect(item.properties.citations).toMatchObject({ type: ['array', 'null'], maxItems: 200 })
    const aio = document.paths['/api/v1/ingest/aio'].post.requestBody.content['application/json'].schema
    expect(aio.properties.observations.items.properties.overview_text).toMatchObject({ type: ['string', 'null'], maxLength: 200_000 })
  })
})
