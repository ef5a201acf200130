// What an answer costs, from the reviewable price table in data/prices.json (docs/collection.md:
// the workspace's daily budget is checked before each request). Two numbers per answer: an upper
// estimate before asking (the budget check) and the cost of what the provider reports it used.
// Every row names its source and the date it was checked; a model no row knows is priced at the
// table's fixed ceiling, which the loader checks is above every listed model, so the estimate
// stays an upper bound whatever model a target names.
import { readFileSync } from 'node:fs'
import { MAX_OUTPUT_TOKENS, MAX_WEB_SEARCHES } from './adapters/parse-helpers.js'
import type { AnswerTarget, CatalogueProvider, ProviderAnswer } from './adapters/types.js'

interface WebSearchPrice {
  /** per_call: every billed search counts; per_request: one charge per answer that searched at all */
  billing: 'per_call' | 'per_request'
  per_1k: number
  /** the action kinds the provider bills (OpenAI: `search`, not `open_page`/`find_in_page`); absent: every action */
  billed_actions?: string[]
}

interface ModelPrice {
  input_per_1m: number
  output_per_1m: number
  request_fee_per_1k?: number
  /** overrides the provider's search billing for this model (Gemini 3 bills per query, 2.x per prompt) */
  web_search?: WebSearchPrice
  source?: string
  checked?: string
}

interface ProviderPrices {
  hosts: string[]
  web_search: WebSearchPrice & { source?: string; checked?: string }
  request_fee_per_1k: number
  models: Record<string, ModelPrice>
}

export interface PriceTable {
  reviewed: string
  estimate: { input_tokens: number; input_tokens_with_web_search: number }
  unknown_model_ceiling: { input_per_1m: number; output_per_1m: number; request_fee_per_1k: number }
  providers: Record<CatalogueProvider, ProviderPrices>
  serp: Record<'serpapi' | 'dataforseo', { per_request: number; max_requests_per_observation: number; source?: string; checked?: string }>
}

const CATALOGUE: readonly CatalogueProvider[] = ['openai', 'anthropic', 'google', 'perplexity']
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0
const isDate = (value: unknown): boolean => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
const isUrl = (value: unknown): boolean => typeof value === 'string' && /^https:\/\/\S+$/.test(value)

function checkSearch(where: string, search: WebSearchPrice | undefined): void {
  if (!search || (search.billing !== 'per_call' && search.billing !== 'per_request') || !isNumber(search.per_1k)) {
    throw new Error(`${where} needs billing ("per_call" or "per_request") and per_1k`)
  }
  if (search.billed_actions !== undefined && (!Array.isArray(search.billed_actions) || search.billed_actions.some((kind) => typeof kind !== 'string'))) {
    throw new Error(`${where}.billed_actions must be a list of action kinds`)
  }
}

/** Reads and checks the table, so a bad edit fails at start-up with the place to fix. */
export function loadPriceTable(url: URL = new URL('./data/prices.json', import.meta.url)): PriceTable {
  const table = JSON.parse(readFileSync(url, 'utf8')) as PriceTable
  const where = `price table ${url.pathname}`
  if (!isDate(table.reviewed) || !isNumber(table.estimate?.input_tokens) || !isNumber(table.estimate?.input_tokens_with_web_search)) {
    throw new Error(`${where}: needs "reviewed" (a date) and "estimate" {input_tokens, input_tokens_with_web_search}`)
  }
  const ceiling = table.unknown_model_ceiling
  if (!ceiling || !isNumber(ceiling.input_per_1m) || !isNumber(ceiling.output_per_1m) || !isNumber(ceiling.request_fee_per_1k)) {
    throw new Error(`${where}: needs "unknown_model_ceiling" {input_per_1m, output_per_1m, request_fee_per_1k}`)
  }
  for (const provider of CATALOGUE) {
    const prices = table.providers?.[provider]
    if (!prices || !isNumber(prices.request_fee_per_1k) || Object.keys(prices.models ?? {}).length === 0) {
      throw new Error(`${where}: providers.${provider} needs web_search, request_fee_per_1k and at least one model`)
    }
    checkSearch(`${where}: providers.${provider}.web_search`, prices.web_search)
    for (const [model, price] of Object.entries(prices.models)) {
      const at = `${where}: providers.${provider}.models.${model}`
      if (!isNumber(price.input_per_1m) || !isNumber(price.output_per_1m)) throw new Error(`${at} needs input_per_1m and output_per_1m`)
      // Reviewable means traceable: each price says where it came from and when it was looked at.
      if (!isUrl(price.source) || !isDate(price.checked)) throw new Error(`${at} needs "source" (the pricing page URL) and "checked" (YYYY-MM-DD)`)
      if (price.web_search) checkSearch(`${at}.web_search`, price.web_search)
      const fee = price.request_fee_per_1k ?? prices.request_fee_per_1k
      if (price.input_per_1m > ceiling.input_per_1m || price.output_per_1m > ceiling.output_per_1m || fee > ceiling.request_fee_per_1k) {
        throw new Error(`${at} costs more than unknown_model_ceiling; raise the ceiling so unknown models stay priced above every listed one`)
      }
    }
  }
  for (const serp of ['serpapi', 'dataforseo'] as const) {
    const row = table.serp?.[serp]
    if (!row || !isNumber(row.per_request) || !isNumber(row.max_requests_per_observation) || row.max_requests_per_observation < 1) {
      throw new Error(`${where}: serp.${serp} needs per_request and max_requests_per_observation (at least 1)`)
    }
    if (!isUrl(row.source) || !isDate(row.checked)) throw new Error(`${where}: serp.${serp} needs "source" and "checked"`)
  }
  return table
}

let cached: PriceTable | undefined
const table = (): PriceTable => (cached ??= loadPriceTable())

function lookUp(models: Record<string, ModelPrice>, name: string): ModelPrice | undefined {
  if (models[name]) return models[name]
  let best: string | undefined
  for (const key of Object.keys(models)) {
    if (/^[-@:]/.test(name.slice(key.length)) && name.startsWith(key) && (!best || key.length > best.length)) best = key
  }
  return best ? models[best] : undefined
}

const isCatalogue = (vendor: string): vendor is CatalogueProvider => (CATALOGUE as readonly string[]).includes(vendor)

/**
 * Exact name, else the longest listed name the model starts with (dated snapshots, `-latest`).
 * A `vendor/` prefix naming a catalogue provider is priced from that provider's rows (Perplexity's
 * Agent API bills third-party models at their provider's rates, docs.perplexity.ai/docs/agent-api/models);
 * any other prefix (OpenRouter's `meta-llama/…`) is dropped.
 */
export function findModelPrice(provider: CatalogueProvider, model: string, prices: PriceTable = table()): ModelPrice | undefined {
  const lower = model.trim().toLowerCase()
  const prefixed = /^([a-z0-9_-]+)\/(.+)$/.exec(lower)
  if (prefixed) {
    const [, vendor, name] = prefixed
    if (isCatalogue(vendor)) return lookUp(prices.providers[vendor].models, name)
    return lookUp(prices.providers[provider].models, name)
  }
  return lookUp(prices.providers[provider].models, lower)
}

/**
 * What a model no row knows is charged: the fixed ceiling above every listed model, and every
 * search at the provider's dearest search price, billed per call (so above per-answer billing too).
 */
function ceilingPrice(provider: CatalogueProvider, prices: PriceTable): ModelPrice {
  const rows = prices.providers[provider]
  const dearestSearch = Math.max(rows.web_search.per_1k, ...Object.values(rows.models).map((model) => model.web_search?.per_1k ?? 0))
  return { ...prices.unknown_model_ceiling, web_search: { billing: 'per_call', per_1k: dearestSearch } }
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
  return ceilingPrice(target.provider, prices)
}

function isProviderHost(target: AnswerTarget, prices: PriceTable): boolean {
  if (!target.base_url) return false
  try {
    return prices.providers[target.provider].hosts.includes(new URL(target.base_url).hostname)
  } catch {
    return false
  }
}

/** The search billing for a model: its own row's when it has one (Gemini 3), else its provider's. */
function searchPrice(target: AnswerTarget, price: ModelPrice, prices: PriceTable): WebSearchPrice {
  return price.web_search ?? prices.providers[target.provider].web_search
}

/**
 * How many of an answer's search actions the provider bills, by the table's `billed_actions`
 * (OpenAI bills `search`, not `open_page` or `find_in_page`). Adapters count webSearchCalls with it.
 */
export function billedSearchCount(provider: CatalogueProvider, actionKinds: readonly (string | undefined)[], model?: string, prices: PriceTable = table()): number {
  const search = (model ? findModelPrice(provider, model, prices)?.web_search : undefined) ?? prices.providers[provider].web_search
  if (!search.billed_actions) return actionKinds.length
  const billed = new Set(search.billed_actions)
  return actionKinds.filter((kind) => kind !== undefined && billed.has(kind)).length
}

function cost(target: AnswerTarget, price: ModelPrice, tokensIn: number, tokensOut: number, webSearchCalls: number, prices: PriceTable): number {
  const provider = prices.providers[target.provider]
  const tokens = (tokensIn * price.input_per_1m + tokensOut * price.output_per_1m) / 1_000_000
  const search = searchPrice(target, price, prices)
  const searchCount = search.billing === 'per_request' ? Math.min(webSearchCalls, 1) : webSearchCalls
  const searches = (searchCount * search.per_1k) / 1000
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

/**
 * What one AI-overview observation costs: `requests` billed SERP requests (AioAnswer.requests;
 * SerpApi's page_token follow-up is a second one). Without it, the most one observation can cost
 * (max_requests_per_observation), for the budget check before asking.
 */
export function serpCostUsd(serp: 'serpapi' | 'dataforseo', requests?: number, prices: PriceTable = table()): number {
  const row = prices.serp[serp]
  const count = requests === undefined ? row.max_requests_per_observation : Math.max(1, Math.round(requests))
  return round(row.per_request * count)
}

/** The date the table was last reviewed, for display beside a cost. */
export function pricesReviewed(prices: PriceTable = table()): string {
  return prices.reviewed
}
