// Which adapter a target gets, where it sends the request (base URL from the override, the
// environment or the provider's default), and what each request asks the provider for.
import { afterEach, describe, expect, it } from 'vitest'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import type { AnswerTarget } from '../../../src/collection/adapters/types.js'
import { startAnthropicFake } from '../../fakes/anthropic-fake.js'
import { startGoogleFake } from '../../fakes/google-fake.js'
import type { ProviderFake } from '../../fakes/http-fake.js'
import { startOpenAIFake } from '../../fakes/openai-fake.js'
import { startOpenAICompatibleFake, startPerplexityFake } from '../../fakes/perplexity-fake.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})
const track = (fake: ProviderFake) => (fakes.push(fake), fake)

const target = (provider: AnswerTarget['provider'], model: string, web_search: boolean): AnswerTarget => ({ provider, model, api: 'native', web_search })

describe('createAnswerAdapter', () => {
  it('chooses by api, then provider', () => {
    expect(createAnswerAdapter(target('openai', 'gpt-5', true)).kind).toBe('openai')
    expect(createAnswerAdapter(target('anthropic', 'claude-sonnet-4-6', true)).kind).toBe('anthropic')
    expect(createAnswerAdapter(target('google', 'gemini-2.5-flash', true)).kind).toBe('google')
    expect(createAnswerAdapter(target('perplexity', 'sonar', true)).kind).toBe('perplexity')
    expect(createAnswerAdapter({ ...target('anthropic', 'claude', false), api: 'openai_compatible', base_url: 'http://localhost:1/v1' }).kind).toBe('openai_compatible')
  })

  it('base URL and key from the environment when the request has none', async () => {
    const fake = track(await startOpenAIFake())
    const adapter = createAnswerAdapter(target('openai', 'gpt-5', false), { env: { OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: 'sk-env' } })
    await adapter.ask({ target: target('openai', 'gpt-5', false), prompt: 'hi', timeoutMs: 3000 })
    expect(fake.requests[0].path).toBe('/v1/responses')
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-env')
  })

  it('no key for a native provider is unauthorized before any request', async () => {
    const fake = track(await startOpenAIFake())
    const adapter = createAnswerAdapter(target('openai', 'gpt-5', false), { baseUrlOverride: fake.url, env: {} })
    await expect(adapter.ask({ target: target('openai', 'gpt-5', false), prompt: 'hi', timeoutMs: 3000 })).rejects.toMatchObject({ kind: 'unauthorized', flagsTarget: true })
    expect(fake.requests).toHaveLength(0)
  })

  it('an openai_compatible target without a key sends a placeholder; without base_url it is a bad request', async () => {
    const fake = track(await startOpenAICompatibleFake())
    const local: AnswerTarget = { provider: 'openai', model: 'llama3.1:8b', api: 'openai_compatible', base_url: `${fake.url}/v1`, web_search: false }
    const answer = await createAnswerAdapter(local, { env: {} }).ask({ target: local, prompt: 'hi', timeoutMs: 3000 })
    expect(answer.content).toContain('Acme Boards')
    expect(fake.requests[0].path).toBe('/v1/chat/completions')
    expect(fake.requests[0].headers.authorization).toBe('Bearer no-key')
    const missing = { ...local, base_url: null }
    await expect(createAnswerAdapter(missing, { env: {} }).ask({ target: missing, prompt: 'hi', timeoutMs: 3000 })).rejects.toMatchObject({ kind: 'bad_request' })
  })
})

describe('what each request asks for', () => {
  const ask = { prompt: 'best crm', apiKey: 'k', timeoutMs: 3000 }

  it('OpenAI: the web_search tool only when the target searches, output capped, nothing stored', async () => {
    const fake = track(await startOpenAIFake())
    for (const webSearch of [true, false]) {
      const t = target('openai', 'gpt-5', webSearch)
      await createAnswerAdapter(t, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target: t })
    }
    expect(fake.requests[0].body).toMatchObject({ model: 'gpt-5', input: 'best crm', tools: [{ type: 'web_search' }], store: false, max_output_tokens: expect.any(Number) })
    expect(fake.requests[1].body).not.toHaveProperty('tools')
  })

  it('Anthropic: the server web search tool, forced with tool_choice', async () => {
    const fake = track(await startAnthropicFake())
    const t = target('anthropic', 'claude-sonnet-4-6', true)
    await createAnswerAdapter(t, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target: t })
    expect(fake.requests[0].path).toBe('/v1/messages')
    expect(fake.requests[0].body).toMatchObject({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'best crm' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      tool_choice: { type: 'tool', name: 'web_search' },
    })
  })

  it('Gemini: the googleSearch tool at models/{model}:generateContent', async () => {
    const fake = track(await startGoogleFake())
    const t = target('google', 'gemini-2.5-flash', true)
    const answer = await createAnswerAdapter(t, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target: t })
    expect(fake.requests[0].path).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(fake.requests[0].body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'best crm' }] }], tools: [{ googleSearch: {} }] })
    expect(answer.citations).toHaveLength(2)
    const plain = target('google', 'gemini-2.5-flash', false)
    const ungrounded = await createAnswerAdapter(plain, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target: plain })
    expect(fake.requests[1].body).not.toHaveProperty('tools')
    expect(ungrounded.citations).toEqual([])
  })

  it('Perplexity: the Agent API at /v1/responses, the web_search tool only when the target searches, output capped', async () => {
    const fake = track(await startPerplexityFake())
    for (const webSearch of [true, false]) {
      const t = target('perplexity', 'perplexity/sonar', webSearch)
      await createAnswerAdapter(t, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target: t })
    }
    expect(fake.requests[0].path).toBe('/v1/responses')
    expect(fake.requests[0].headers.authorization).toBe('Bearer k')
    expect(fake.requests[0].body).toMatchObject({ model: 'perplexity/sonar', input: 'best crm', tools: [{ type: 'web_search' }], max_output_tokens: expect.any(Number) })
    expect(fake.requests[1].body).not.toHaveProperty('tools')
  })
})
