import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { ResponseCache } from '../../src/http/response-cache.js'

describe('ResponseCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new ResponseCache(2)
    cache.set('a', '1')
    cache.set('b', '2')
    expect(cache.get('a')).toBe('1')
    cache.set('c', '3')
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('1')
    expect(cache.size).toBe(2)
  })
})

describe.each(testBackends)('analytics response cache (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  it('serves repeats from cache and never an answer older than the data', async () => {
    const t = await ctx.tenant()
    const prompt = await createPrompt(ctx, t.key, 'Which tool?')
    await createBrand(ctx, t.key, { name: 'Acme' })
    const item = (id: string) => ({ external_id: id, prompt_id: prompt, provider: 'openai', model: 'gpt-4o', content: 'Acme is great.', created_at: new Date().toISOString() })
    await ingest(ctx, t.key, [item('1')])
    const first = await ctx.get('/api/v1/dashboard', t.key)
    expect(first.headers['x-cache']).toBeUndefined()
    const second = await ctx.get('/api/v1/dashboard', t.key)
    expect(second.headers['x-cache']).toBe('hit')
    expect(second.body).toBe(first.body)
    expect(second.headers['content-type']).toMatch(/^application\/json/)
    const fresh = await ctx.get('/api/v1/dashboard', t.key, { headers: { 'cache-control': 'no-cache' } })
    expect(fresh.headers['x-cache']).toBeUndefined()
    expect(fresh.body).toBe(first.body)
    await ingest(ctx, t.key, [item('2')])
    const third = await ctx.get('/api/v1/dashboard', t.key)
    expect(third.headers['x-cache']).toBeUndefined()
    expect(third.json().data.brands.Acme.mention_count).toBe(2)
    // Another workspace never gets this workspace's cached answer for the same URL.
    const other = await ctx.tenant()
    expect((await ctx.get('/api/v1/dashboard', other.key)).json().data.total_mentions).toBe(0)
  })
})
