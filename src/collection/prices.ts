// What an answer costs, from the reviewable price table in data/prices.json (DESIGN §14: the
// workspace's daily budget is checked before each request). Two numbers per answer: an upper
// estimate before asking (the budget check) and the cost of what the provider reports it used.
import { readFileSync } from 'node:fs'
import { MAX_OUTPUT_TOKENS, MAX_WEB_SEARCHES } from './adapters/parse-helpers.js'
import type { AnswerTarget, CatalogueProvider, ProviderAnswer } from './adapters/types.js'

interface ModelPrice {
  input_per_1m: number
  output_per_1m: number
  request_fee_per_1k?: number
}

interface ProviderPrices {
  hosts: string[]
  web_search: { billing: 'per_call' | 'per_request'; per_1k: number }
  request_fee_per_1k: number
  models: Record<string, ModelPrice>
}

export interface PriceTable {
  reviewed: string
  estimate: { input_tokens: number; input_tokens_with_web_search: number }
  providers: Record<CatalogueProvider, ProviderPrices>
  serp: Record<'serpapi' | 'dataforseo', { per_request: number }>
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0

/** Reads and checks the table, so a bad edit fails at start-up with the place to fix. */
export function loadPriceTable(url: URL = new URL('./data/prices.json', import.meta.url)): PriceTable {
  const table = JSON.parse(readFileSync(url, 'utf8')) as PriceTable
  const where = `price table ${url.pathname}`
  if (typeof table.reviewed !== 'string' || !isNumber(table.estimate?.input_tokens) || !isNumber(table.estimate?.input_tokens_with_web_search)) {
    throw new Error(`${where}: needs "reviewed" (a date) and "estimate" {input_tokens, input_tokens_with_web_search}`)
  }
  for (const provider of ['openai', 'anthropic', 'google', 'perplexity'] as const) {
    const prices = table.providers?.[provider]
    if (!prices || !isNumber(prices.web_search?.per_1k) || !isNumber(prices.request_fee_per_1k) || Object.keys(prices.models ?? {}).length === 0) {
      throw new Error(`${where}: providers.${provider} needs web_search.per_1k, request_fee_per_1k and at least one model`)
    }
    for (const [model, price] of Object.entries(prices.models)) {
      if (!isNumber(price.input_per_1m) || !isNumber(price.output_per_1m)) throw new Error(`${where}: providers.${provider}.models.${model} needs input_per_1m and output_per_1m`)
    }
  }
  for (const serp of ['serpapi', 'dataforseo'] as const) {
    if (!isNumber(table.serp?.[serp]?.per_request)) throw new Error(`${where}: serp.${serp}.per_request must be a number`)
  }
  return table
}

let cached: PriceTable | undefined
const table = (): PriceTable => (cached ??= loadPriceTable())

/** Exact name, else the longest listed name the model starts with (dated snapshots, `-latest`). A `vendor/` prefix (OpenRouter) is ignored. */
export function findModelPrice(provider: CatalogueProvider, model: string, prices: PriceTable = table()): ModelPrice | undefined {
  const models = prices.providers[provider].models
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9_-]+\//, '')
  if (models[name]) return models[name]
  let best: string | undefined
  for (const key of Object.keys(models)) {
    if (/^[-@:]/.test(name.slice(key.length)) && name.startsWith(key) && (!best || key.length > best.length)) best = key
  }
  return best ? models[best] : undefined
}

/** Unknown models are priced at the provider's most expensive listed model, so the budget errs on the safe side. */
function priciestModel(provider: CatalogueProvider, prices: PriceTable): ModelPrice {
  const all = Object.values(prices.providers[provider].models)
  return all.reduce((max, price) => (price.input_per_1m + price.output_per_1m > max.input_per_1m + max.output_per_1m ? price : max))
}

/**
 * The price that applies to a target's model, or undefined for a model we cannot price: an
 * openai_compatible server that is not the provider's own API (a local vLLM, Ollama…) costs
 * nothing we know of unless it serves a listed model.
 */
function priceFor(target: AnswerTarget, model: string, prices: PriceTable): ModelPrice | undefined {
  const known = findModelPrice(target.provider, model, prices) ?? findModelPrice(target.provider, target.model, prices)
  if (known) return known
  if (target.api === 'openai_compatible' && !isProviderHost(target, prices)) return undefined
  return priciestModel(target.provider, prices)
}

function isProviderHost(target: AnswerTarget, prices: PriceTable): boolean {
  if (!target.base_url) return false
  try {
    return prices.providers[target.provider].hosts.includes(new URL(target.base_url).hostname)
  } catch {
    return false
  }
}

function cost(target: AnswerTarget, price: ModelPrice, tokensIn: number, tokensOut: number, webSearchCalls: number, prices: PriceTable): number {
  const provider = prices.providers[target.provider]
  const tokens = (tokensIn * price.input_per_1m + tokensOut * price.output_per_1m) / 1_000_000
  const searchCount = provider.web_search.billing === 'per_request' ? Math.min(webSearchCalls, 1) : webSearchCalls
  const searches = (searchCount * provider.web_search.per_1k) / 1000
  const requestFee = (price.request_fee_per_1k ?? provider.request_fee_per_1k) / 1000
  return round(tokens + searches + requestFee)
}

/** Micro-dollar precision: sums of many answers stay exact enough and print cleanly. */
const round = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000

/** Upper estimate of one answer before it is asked, for the budget check. */
export function estimateAnswerCostUsd(target: AnswerTarget, prices: PriceTable = table()): number {
  const price = priceFor(target, target.model, prices)
  if (!price) return 0
  const tokensIn = target.web_search ? prices.estimate.input_tokens_with_web_search : prices.estimate.input_tokens
  return cost(target, price, tokensIn, MAX_OUTPUT_TOKENS, target.web_search ? MAX_WEB_SEARCHES : 0, prices)
}

/**
 * What one answer cost: what the answer itself says it was charged (Perplexity's Agent API states
 * `usage.cost.total_cost`), else the price table applied to the model served and the usage reported.
 */
export function answerCostUsd(
  target: AnswerTarget,
  answer: Pick<ProviderAnswer, 'modelServed' | 'tokensIn' | 'tokensOut' | 'webSearchCalls'> & { costUsd?: number },
  prices: PriceTable = table(),
): number {
  if (typeof answer.costUsd === 'number' && Number.isFinite(answer.costUsd) && answer.costUsd >= 0) return round(answer.costUsd)
  const price = priceFor(target, answer.modelServed || target.model, prices)
  if (!price) return 0
  return cost(target, price, answer.tokensIn, answer.tokensOut, answer.webSearchCalls, prices)
}

/** One SERP request (SerpApi's page_token follow-up is a second one: multiply by AioAnswer.requests). */
export function serpCostUsd(serp: 'serpapi' | 'dataforseo', prices: PriceTable = table()): number {
  return prices.serp[serp].per_request
}

/** The date the table was last reviewed, for display beside a cost. */
export function pricesReviewed(prices: PriceTable = table()): string {
  return prices.reviewed
}
