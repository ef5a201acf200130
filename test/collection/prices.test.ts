// The price table: estimates before asking bound what answers cost; unknown models err high;
// local OpenAI-compatible servers are free unless they serve a listed model.
import { describe, expect, it } from 'vitest'
import { parseAnthropicMessage } from '../../src/collection/adapters/anthropic-adapter.js'
import { parseOpenAIResponse } from '../../src/collection/adapters/openai-adapter.js'
import type { AnswerTarget } from '../../src/collection/adapters/types.js'
import { answerCostUsd, estimateAnswerCostUsd, findModelPrice, loadPriceTable, pricesReviewed, serpCostUsd } from '../../src/collection/prices.js'
import { fixture } from '../fakes/http-fake.js'

const native = (provider: AnswerTarget['provider'], model: string, web_search = true): AnswerTarget => ({ provider, model, api: 'native', web_search })

describe('price table', () => {
  it('loads, is dated and lists every catalogue provider', () => {
    const table = loadPriceTable()
    expect(pricesReviewed()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(Object.keys(table.providers).sort()).toEqual(['anthropic', 'google', 'openai', 'perplexity'])
  })

  it('matches dated snapshots and vendor prefixes to the longest listed name', () => {
    expect(findModelPrice('openai', 'gpt-5-2025-08-07')).toEqual(findModelPrice('openai', 'gpt-5'))
    expect(findModelPrice('openai', 'gpt-5-mini-2025-08-07')).toEqual(findModelPrice('openai', 'gpt-5-mini'))
    expect(findModelPrice('openai', 'openai/gpt-4o')).toEqual(findModelPrice('openai', 'gpt-4o'))
    expect(findModelPrice('anthropic', 'claude-sonnet-4-5-20250929')?.input_per_1m).toBe(3)
    // gpt-50 is not a gpt-5 snapshot.
    expect(findModelPrice('openai', 'gpt-50')).toBeUndefined()
  })
})

describe('answerCostUsd', () => {
  it('OpenAI: tokens at the served model plus $10 per 1k search calls', () => {
    const answer = parseOpenAIResponse(fixture('openai-responses-web-search.json'))
    // gpt-5: 12840 × 1.25/1M + 612 × 10/1M + 1 × 10/1000 (the fixture's open_page action is not a billed search)
    expect(answerCostUsd(native('openai', 'gpt-5'), answer)).toBeCloseTo(0.01605 + 0.00612 + 0.01, 6)
  })

  it('Anthropic: tokens plus searches from usage', () => {
    const answer = parseAnthropicMessage(fixture('anthropic-web-search.json'))
    expect(answerCostUsd(native('anthropic', 'claude-sonnet-4-5'), answer)).toBeCloseTo((10682 * 3 + 510 * 15) / 1e6 + 0.01, 6)
  })

  it('Gemini grounding is billed once per grounded prompt, however many queries ran', () => {
    const one = answerCostUsd(native('google', 'gemini-2.5-flash'), { modelServed: 'gemini-2.5-flash', tokensIn: 0, tokensOut: 0, webSearchCalls: 1 })
    const three = answerCostUsd(native('google', 'gemini-2.5-flash'), { modelServed: 'gemini-2.5-flash', tokensIn: 0, tokensOut: 0, webSearchCalls: 3 })
    expect(one).toBeCloseTo(0.035, 6)
    expect(three).toBe(one)
  })

  it('Perplexity: a request fee per answer on top of tokens', () => {
    expect(answerCostUsd(native('perplexity', 'sonar-pro'), { modelServed: 'sonar-pro', tokensIn: 1_000_000, tokensOut: 0, webSearchCalls: 2 })).toBeCloseTo(3 + 0.006, 6)
  })

  it('an unknown model is priced at the provider’s most expensive listed model', () => {
    const usage = { tokensIn: 1_000_000, tokensOut: 1_000_000, webSearchCalls: 0 }
    const unknown = answerCostUsd(native('anthropic', 'claude-next-9'), { ...usage, modelServed: 'claude-next-9' })
    const listed = Object.keys(loadPriceTable().providers.anthropic.models).map((model) => answerCostUsd(native('anthropic', model), { ...usage, modelServed: model }))
    expect(unknown).toBe(Math.max(...listed))
    expect(unknown).toBeGreaterThan(answerCostUsd(native('anthropic', 'claude-haiku-4-5'), { ...usage, modelServed: 'claude-haiku-4-5' }))
  })

  it('openai_compatible: a local server is free unless it serves a listed model; the provider’s own host prices like native', () => {
    const usage = { tokensIn: 1000, tokensOut: 1000, webSearchCalls: 0 }
    const local: AnswerTarget = { provider: 'openai', model: 'llama3.1:8b', api: 'openai_compatible', base_url: 'http://localhost:11434/v1', web_search: false }
    expect(answerCostUsd(local, { ...usage, modelServed: 'llama3.1:8b' })).toBe(0)
    expect(estimateAnswerCostUsd(local)).toBe(0)
    const router: AnswerTarget = { ...local, model: 'openai/gpt-4o', base_url: 'https://openrouter.ai/api/v1' }
    expect(answerCostUsd(router, { ...usage, modelServed: 'openai/gpt-4o' })).toBeCloseTo((1000 * 2.5 + 1000 * 10) / 1e6, 6)
    const own: AnswerTarget = { ...local, model: 'some-new-model', base_url: 'https://api.openai.com/v1' }
    expect(answerCostUsd(own, { ...usage, modelServed: 'some-new-model' })).toBeGreaterThan(0)
  })
})

describe('estimateAnswerCostUsd', () => {
  it('is an upper bound of what the recorded answers cost', () => {
    const openai = native('openai', 'gpt-5')
    expect(estimateAnswerCostUsd(openai)).toBeGreaterThanOrEqual(answerCostUsd(openai, parseOpenAIResponse(fixture('openai-responses-web-search.json'))))
    const anthropic = native('anthropic', 'claude-sonnet-4-5')
    expect(estimateAnswerCostUsd(anthropic)).toBeGreaterThanOrEqual(answerCostUsd(anthropic, parseAnthropicMessage(fixture('anthropic-web-search.json'))))
  })

  it('searching costs more than not searching, and a pricier model more than a cheaper one', () => {
    expect(estimateAnswerCostUsd(native('openai', 'gpt-5', true))).toBeGreaterThan(estimateAnswerCostUsd(native('openai', 'gpt-5', false)))
    expect(estimateAnswerCostUsd(native('openai', 'gpt-5'))).toBeGreaterThan(estimateAnswerCostUsd(native('openai', 'gpt-5-nano')))
  })
})

describe('serpCostUsd', () => {
  it('one request per SERP API, positive', () => {
    expect(serpCostUsd('serpapi')).toBeGreaterThan(0)
    expect(serpCostUsd('dataforseo')).toBeGreaterThan(0)
    expect(serpCostUsd('serpapi')).not.toBe(serpCostUsd('dataforseo'))
  })
})
