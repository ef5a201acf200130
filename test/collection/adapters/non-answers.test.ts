// What each native parser and adapter makes of the providers' non-answers (docs/collection.md,
// "outcomes"): every shape from test/fakes/non-answers.ts (SDK type definitions or provider
// docs), through the parsers and, for the request-level ones, through the real SDKs by base URL.
import { afterEach, describe, expect, it } from 'vitest'
import { parseAnthropicMessage } from '../../../src/collection/adapters/anthropic-adapter.js'
import { parseGeminiResponse } from '../../../src/collection/adapters/google-adapter.js'
import { parseOpenAIResponse } from '../../../src/collection/adapters/openai-adapter.js'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import { loadConfig } from '../../../src/config.js'
import { RETRY_OUTPUT_TOKENS } from '../../../src/collection/adapters/parse-helpers.js'
import { ProviderError, type AnswerTarget } from '../../../src/collection/adapters/types.js'
import {
  anthropicMaxTokens,
  anthropicPaused,
  anthropicRefusal,
  anthropicSearchError,
  fixture,
  geminiBlockedPrompt,
  geminiMaxTokens,
  geminiQuotaError,
  geminiSafety,
  OPENAI_INSUFFICIENT_QUOTA,
  openAIIncomplete,
  openAIRefusal,
  startAnthropicFake,
  startGoogleFake,
  startOpenAIFake,
  type ProviderFake,
} from '../../fakes/index.js'

function thrown(fn: () => unknown): ProviderError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError)
    return error as ProviderError
  }
  throw new Error('expected a ProviderError, got an answer')
}

describe('OpenAI Responses non-answers', () => {
  it('a refusal content part is refused, with its raw JSON and usage kept', () => {
    const raw = openAIRefusal()
    const error = thrown(() => parseOpenAIResponse(raw))
    expect(error.kind).toBe('refused')
    expect(error.retryable).toBe(false)
    expect(error.nonAnswer).toMatchObject({ reason: expect.stringContaining('refusal'), raw, modelServed: 'gpt-5-2025-08-07', tokensIn: 40, tokensOut: 25 })
  })

  it('status incomplete: max_output_tokens is incomplete, content_filter is refused', () => {
    expect(thrown(() => parseOpenAIResponse(openAIIncomplete('max_output_tokens'))).kind).toBe('incomplete')
    expect(thrown(() => parseOpenAIResponse(openAIIncomplete('content_filter'))).kind).toBe('refused')
  })

  it('a status it does not know, or none, is unexpected_stop, never an answer', () => {
    const raw = fixture('openai-responses-web-search.json')
    expect(thrown(() => parseOpenAIResponse({ ...raw, status: 'in_progress' })).kind).toBe('unexpected_stop')
    expect(thrown(() => parseOpenAIResponse({ ...raw, status: undefined })).kind).toBe('unexpected_stop')
    expect(thrown(() => parseOpenAIResponse({ ...raw, status: 'incomplete', incomplete_details: { reason: 'something_new' } })).kind).toBe('unexpected_stop')
  })

  it('search queries from `search` actions (queries and the deprecated query); only those are billed; a failed search call is search_failed', () => {
    const raw = fixture('openai-responses-web-search.json')
    const output = raw.output as Array<Record<string, unknown>>
    // ResponseFunctionWebSearch.Search: `queries` (current) and `query` (deprecated); Find is not billed.
    output.unshift(
      { id: 'ws_2', type: 'web_search_call', status: 'completed', action: { type: 'search', queries: ['acme boards pricing', 'acme vs globex'] } },
      { id: 'ws_3', type: 'web_search_call', status: 'completed', action: { type: 'find_in_page', pattern: 'price', url: 'https://acme.example/pricing' } },
    )
    const parsed = parseOpenAIResponse(raw)
    expect(parsed.webSearchCalls).toBe(2)
    expect(parsed.searchQueries).toEqual(['acme boards pricing', 'acme vs globex', 'best project management software for small teams 2026'])
    output.push({ id: 'ws_4', type: 'web_search_call', status: 'failed', action: { type: 'search', query: 'x' } })
    expect(thrown(() => parseOpenAIResponse(raw)).kind).toBe('search_failed')
  })
})

describe('Anthropic Messages non-answers', () => {
  it('stop_reason refusal is refused; max_tokens and model_context_window_exceeded are incomplete; an unknown one is unexpected_stop', () => {
    expect(thrown(() => parseAnthropicMessage(anthropicRefusal())).kind).toBe('refused')
    expect(thrown(() => parseAnthropicMessage(anthropicMaxTokens())).kind).toBe('incomplete')
    expect(thrown(() => parseAnthropicMessage({ ...anthropicMaxTokens(), stop_reason: 'model_context_window_exceeded' })).kind).toBe('incomplete')
    expect(thrown(() => parseAnthropicMessage({ ...anthropicMaxTokens(), stop_reason: 'tool_use' })).kind).toBe('unexpected_stop')
    expect(thrown(() => parseAnthropicMessage({ ...anthropicMaxTokens(), stop_reason: null })).kind).toBe('unexpected_stop')
  })

  it('a web_search_tool_result_error is search_failed (retried); the search query is read from server_tool_use', () => {
    const error = thrown(() => parseAnthropicMessage(anthropicSearchError('best kanban tool')))
    expect(error.kind).toBe('search_failed')
    expect(error.retryable).toBe(true)
    expect(error.nonAnswer?.reason).toContain('unavailable')
    expect(parseAnthropicMessage(fixture('anthropic-web-search.json')).searchQueries).toEqual(['best project management software small teams'])
  })

  it('the turns of a continued answer are read as one: content, sources, queries and usage summed', () => {
    const done = fixture('anthropic-web-search.json')
    const parsed = parseAnthropicMessage([anthropicPaused('first query'), done])
    expect(parsed.content).toContain('Acme Boards is the top pick')
    expect(parsed.searchQueries).toEqual(['first query', 'best project management software small teams'])
    expect(parsed.tokensIn).toBe(30 + parseAnthropicMessage(done).tokensIn)
    expect(parsed.webSearchCalls).toBe(1 + parseAnthropicMessage(done).webSearchCalls)
    // Still paused after the last continuation: not an answer.
    expect(thrown(() => parseAnthropicMessage([anthropicPaused('a'), anthropicPaused('b')])).kind).toBe('incomplete')
  })
})

describe('Gemini generateContent non-answers', () => {
  it('finishReason SAFETY and a blocked prompt are refused; MAX_TOKENS incomplete; OTHER or none unexpected_stop', () => {
    expect(thrown(() => parseGeminiResponse(geminiSafety(), 'gemini-2.5-flash')).kind).toBe('refused')
    for (const reason of ['PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION']) {
      expect(thrown(() => parseGeminiResponse({ candidates: [{ finishReason: reason, index: 0 }] }, 'gemini-2.5-flash')).kind).toBe('refused')
    }
    const blocked = thrown(() => parseGeminiResponse(geminiBlockedPrompt(), 'gemini-2.5-flash'))
    expect(blocked.kind).toBe('refused')
    expect(blocked.nonAnswer?.reason).toBe('promptFeedback.blockReason: PROHIBITED_CONTENT')
    expect(thrown(() => parseGeminiResponse(geminiMaxTokens(), 'gemini-2.5-flash')).kind).toBe('incomplete')
    expect(thrown(() => parseGeminiResponse({ candidates: [{ finishReason: 'OTHER', index: 0 }] }, 'gemini-2.5-flash')).kind).toBe('unexpected_stop')
    const raw = fixture('gemini-grounded.json')
    delete (raw.candidates as Array<Record<string, unknown>>)[0].finishReason
    expect(thrown(() => parseGeminiResponse(raw, 'gemini-2.5-flash')).kind).toBe('unexpected_stop')
  })

  it('citations are only the chunks groundingSupports reference', () => {
    const raw = fixture('gemini-grounded.json')
    const grounding = (raw.candidates as Array<{ groundingMetadata: { groundingSupports: Array<{ groundingChunkIndices: number[] }> } }>)[0].groundingMetadata
    grounding.groundingSupports = [{ ...grounding.groundingSupports[0], groundingChunkIndices: [1] }]
    expect(parseGeminiResponse(raw, 'gemini-2.5-flash').citations.map((c) => c.title)).toEqual(['acme.example'])
    grounding.groundingSupports = []
    expect(parseGeminiResponse(raw, 'gemini-2.5-flash').citations).toEqual([])
  })
})

describe('non-answers through the SDKs', () => {
  const fakes: ProviderFake[] = []
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()))
  })
  const ask = { prompt: 'best kanban tool', apiKey: 'sk-test-123', timeoutMs: 5000 }

  it('OpenAI 429 insufficient_quota is quota_exhausted: not retried, flags the target; a 429 rate limit stays rate_limited', async () => {
    const fake = await startOpenAIFake({ script: [{ type: 'error', status: 429, body: OPENAI_INSUFFICIENT_QUOTA }] })
    fakes.push(fake)
    const target: AnswerTarget = { provider: 'openai', model: 'gpt-5', api: 'native', web_search: false }
    const error = await createAnswerAdapter(target, { baseUrlOverride: `${fake.url}/v1`, env: {} })
      .ask({ ...ask, target })
      .catch((e: unknown) => e as ProviderError)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'quota_exhausted', retryable: false, flagsTarget: true })
    expect((error as ProviderError).nonAnswer?.raw).toEqual(OPENAI_INSUFFICIENT_QUOTA)
  })

  it("Gemini: a daily RESOURCE_EXHAUSTED quota flags the target; a per-minute one is rate_limited with RetryInfo's delay", async () => {
    const fake = await startGoogleFake({
      script: [
        { type: 'error', status: 429, body: geminiQuotaError('PerDay') },
        { type: 'error', status: 429, body: geminiQuotaError('PerMinute', '7.5s') },
      ],
    })
    fakes.push(fake)
    const target: AnswerTarget = { provider: 'google', model: 'gemini-2.5-flash', api: 'native', web_search: false }
    const adapter = createAnswerAdapter(target, { baseUrlOverride: fake.url, env: {} })
    const daily = await adapter.ask({ ...ask, target }).catch((e: unknown) => e as ProviderError)
    expect(daily).toMatchObject({ kind: 'quota_exhausted', retryable: false, flagsTarget: true })
    const perMinute = await adapter.ask({ ...ask, target }).catch((e: unknown) => e as ProviderError)
    expect(perMinute).toMatchObject({ kind: 'rate_limited', retryable: true, flagsTarget: false, retryAfterMs: 7500 })
  })

  it('Anthropic pause_turn is continued with the turn so far, up to 3 times, and read as one answer', async () => {
    const fake = await startAnthropicFake({ script: (_request, index) => (index < 2 ? { type: 'ok', body: anthropicPaused(`query ${index}`) } : undefined) })
    fakes.push(fake)
    const target: AnswerTarget = { provider: 'anthropic', model: 'claude-sonnet-4-6', api: 'native', web_search: true }
    const answer = await createAnswerAdapter(target, { baseUrlOverride: fake.url, env: {} }).ask({ ...ask, target })
    expect(fake.requests).toHaveLength(3)
    const third = fake.requests[2].body as { messages: Array<{ role: string; content: unknown }> }
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    // The assistant turn is everything the model produced so far: both paused turns' blocks.
    expect(third.messages[1].content).toHaveLength(4)
    expect(answer.content).toContain('Answer to: best kanban tool')
    expect(answer.searchQueries).toEqual(['query 0', 'query 1', 'best project management software small teams'])
    expect(Array.isArray(answer.raw) && answer.raw).toHaveLength(3)

    const stuck = await startAnthropicFake({ script: () => ({ type: 'ok', body: anthropicPaused('again') }) })
    fakes.push(stuck)
    const error = await createAnswerAdapter(target, { baseUrlOverride: stuck.url, env: {} })
      .ask({ ...ask, target })
      .catch((e: unknown) => e as ProviderError)
    expect(error).toMatchObject({ kind: 'incomplete' })
    // The first request and 3 continuations.
    expect(stuck.requests).toHaveLength(4)
  })

  it('the output cap asked for reaches each provider (the retry of an incomplete answer)', async () => {
    const [openai, anthropic, google] = await Promise.all([startOpenAIFake(), startAnthropicFake(), startGoogleFake()])
    fakes.push(openai, anthropic, google)
    const targets: Array<[AnswerTarget, string]> = [
      [{ provider: 'openai', model: 'gpt-5', api: 'native', web_search: false }, `${openai.url}/v1`],
      [{ provider: 'anthropic', model: 'claude-sonnet-4-6', api: 'native', web_search: false }, anthropic.url],
      [{ provider: 'google', model: 'gemini-2.5-flash', api: 'native', web_search: false }, google.url],
    ]
    for (const [target, url] of targets) await createAnswerAdapter(target, { baseUrlOverride: url, env: {} }).ask({ ...ask, target, maxOutputTokens: RETRY_OUTPUT_TOKENS })
    expect((openai.requests[0].body as { max_output_tokens: number }).max_output_tokens).toBe(RETRY_OUTPUT_TOKENS)
    expect((anthropic.requests[0].body as { max_tokens: number }).max_tokens).toBe(RETRY_OUTPUT_TOKENS)
    expect((google.requests[0].body as { generationConfig: { maxOutputTokens: number } }).generationConfig.maxOutputTokens).toBe(RETRY_OUTPUT_TOKENS)
  })
})

it('the default provider timeout leaves agentic search its minutes (300 s)', () => {
  expect(loadConfig({}).collectionTimeoutMs).toBe(300_000)
  expect(loadConfig({ COLLECTION_TIMEOUT_SECONDS: '90' }).collectionTimeoutMs).toBe(90_000)
})
