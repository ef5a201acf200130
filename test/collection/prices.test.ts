// The price table: every row traceable (source and date checked); estimates before asking bound
// what answers cost; unknown models cost a fixed ceiling above every listed model; searches are
// billed as each provider bills them; local OpenAI-compatible servers are free unless they serve
// a listed model.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseAnthropicMessage } from '../../src/collection/adapters/anthropic-adapter.js'
import { parseOpenAIResponse } from '../../src/collection/adapters/openai-adapter.js'
import type { AnswerTarget } from '../../src/collection/adapters/types.js'
import {
  answerCostUsd,
  billedSearchCount,
  estimateAnswerCostUsd,
  findModelPrice,
  loadPriceTable,
  pricesReviewed,
  serpCostUsd,
  type PriceTable,
} from '../../src/collection/prices.js'
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

  it('lists the current models: gpt-5.4 and 5.5, Claude 4.x, Gemini 3.x, Perplexity Sonar on the Agent API', () => {
    expect(findModelPrice('openai', 'gpt-5.5')).toMatchObject({ input_per_1m: 5, output_per_1m: 30 })
    expect(findModelPrice('openai', 'gpt-5.4-mini')).toMatchObject({ input_per_1m: 0.75, output_per_1m: 4.5 })
    // gpt-5.4-mini is not priced as gpt-5.4, nor gpt-5.4 as gpt-5.
    expect(findModelPrice('openai', 'gpt-5.4')).toMatchObject({ input_per_1m: 2.5 })
    expect(findModelPrice('anthropic', 'claude-opus-4-8')).toMatchObject({ input_per_1m: 5, output_per_1m: 25 })
    expect(findModelPrice('google', 'gemini-3.1-pro-preview')).toMatchObject({ input_per_1m: 2, output_per_1m: 12 })
    expect(findModelPrice('perplexity', 'perplexity/sonar')).toMatchObject({ input_per_1m: 0.25, output_per_1m: 2.5 })
  })

  it('every row names its source page and the date it was checked', () => {
    const table = loadPriceTable()
    for (const provider of Object.values(table.providers)) {
      for (const [model, row] of Object.entries(provider.models)) {
        expect(row.source, model).toMatch(/^https:\/\//)
        expect(row.checked, model).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      }
    }
    for (const row of Object.values(table.serp)) expect(row).toMatchObject({ source: expect.stringMatching(/^https:/), checked: expect.stringMatching(/^\d{4}-/) })
  })

  function editedTable(edit: (table: PriceTable) => void): URL {
    const table = JSON.parse(readFileSync(new URL('../../src/collection/data/prices.json', import.meta.url), 'utf8')) as PriceTable
    edit(table)
    const file = join(mkdtempSync(join(tmpdir(), 'beacon-prices-')), 'prices.json')
    writeFileSync(file, JSON.stringify(table))
    return pathToFileURL(file)
  }

  it('refuses a row without its source, and a listed model dearer than the unknown-model ceiling', () => {
    expect(() =>
      loadPriceTable(
        editedTable((table) => {
          delete table.providers.openai.models['gpt-5.5'].source
        }),
      ),
    ).toThrow(/gpt-5\.5 needs "source"/)
    expect(() => loadPriceTable(editedTable((table) => (table.providers.anthropic.models['claude-opus-4'].output_per_1m = 10_000)))).toThrow(/unknown_model_ceiling/)
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

  it('Gemini 2.x grounding is billed once per grounded prompt; Gemini 3 per search query', () => {
    const usage = (model: string, webSearchCalls: number) => ({ modelServed: model, tokensIn: 0, tokensOut: 0, webSearchCalls })
    const one = answerCostUsd(native('google', 'gemini-2.5-flash'), usage('gemini-2.5-flash', 1))
    expect(one).toBeCloseTo(0.035, 6)
    expect(answerCostUsd(native('google', 'gemini-2.5-flash'), usage('gemini-2.5-flash', 3))).toBe(one)
    expect(answerCostUsd(native('google', 'gemini-3-flash-preview'), usage('gemini-3-flash-preview', 1))).toBeCloseTo(0.014, 6)
    expect(answerCostUsd(native('google', 'gemini-3-flash-preview'), usage('gemini-3-flash-preview', 3))).toBeCloseTo(0.042, 6)
  })

  it('OpenAI bills search actions only, not opening or finding in a page', () => {
    expect(billedSearchCount('openai', ['search', 'open_page', 'find_in_page', 'search', undefined])).toBe(2)
    // A provider without billed_actions bills every search it reports.
    expect(billedSearchCount('anthropic', ['a', 'b'])).toBe(2)
  })

  it('Perplexity Agent API: tokens plus $5 per 1k web_search invocations; third-party models at their provider’s rates', () => {
    const sonar = answerCostUsd(native('perplexity', 'perplexity/sonar'), { modelServed: 'perplexity/sonar', tokensIn: 1_000_000, tokensOut: 0, webSearchCalls: 2 })
    expect(sonar).toBeCloseTo(0.25 + 0.01, 6)
    const gpt = answerCostUsd(native('perplexity', 'openai/gpt-5.5'), { modelServed: 'openai/gpt-5.5', tokensIn: 1_000_000, tokensOut: 0, webSearchCalls: 1 })
    expect(gpt).toBeCloseTo(5 + 0.005, 6)
  })

  it('an unknown model is priced at the fixed ceiling, above every listed model of every provider', () => {
    const table = loadPriceTable()
    const usage = { tokensIn: 1_000_000, tokensOut: 1_000_000, webSearchCalls: 0 }
    const unknown = answerCostUsd(native('anthropic', 'claude-next-9'), { ...usage, modelServed: 'claude-next-9' })
    expect(unknown).toBeCloseTo(table.unknown_model_ceiling.input_per_1m + table.unknown_model_ceiling.output_per_1m, 6)
    for (const provider of ['openai', 'anthropic', 'google', 'perplexity'] as const) {
      for (const model of Object.keys(table.providers[provider].models)) {
        expect(answerCostUsd(native(provider, model), { ...usage, modelServed: model }), `${provider} ${model}`).toBeLessThan(unknown)
      }
    }
    // Its searches too: an unknown Gemini costs at least what a Gemini 3 running five queries does.
    const unknownGemini = estimateAnswerCostUsd(native('google', 'gemini-9-ultra'))
    expect(unknownGemini).toBeGreaterThan(estimateAnswerCostUsd(native('google', 'gemini-3.1-pro-preview')))
    expect(unknownGemini).toBeGreaterThan(estimateAnswerCostUsd(native('google', 'gemini-2.5-pro')))
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
  it('per billed request: SerpApi’s page_token follow-up costs a second search; the estimate covers both', () => {
    const one = serpCostUsd('serpapi', 1)
    expect(one).toBeGreaterThan(0)
    expect(serpCostUsd('serpapi', 2)).toBeCloseTo(2 * one, 6)
    expect(serpCostUsd('serpapi')).toBeCloseTo(2 * one, 6)
    expect(serpCostUsd('dataforseo')).toBe(serpCostUsd('dataforseo', 1))
    expect(serpCostUsd('dataforseo', 1)).not.toBe(one)
  })
})
