// What an answer costs, in USD, for the daily budget (DESIGN §14). PLACEHOLDER: flat
// estimates until the reviewable price table (src/collection/prices.ts, another branch)
// replaces this file; collection calls only these three functions, so swapping them is a
// one-line import change. The demo provider never reaches here: it is free by definition
// (the run treats api "demo" as costing 0, since no price table knows it).
import type { AnswerTarget, ProviderAnswer } from './adapters/types.js'

// A generous flat guess per request (a few thousand tokens on a large model plus a
// search), so the budget check errs on the side of stopping early. Replace with prices.ts.
const PLACEHOLDER_ANSWER_USD = 0.02
const PLACEHOLDER_WEB_SEARCH_USD = 0.01
const PLACEHOLDER_SERP_USD = { serpapi: 0.015, dataforseo: 0.002 } as const

/** The most one request to this target is expected to cost, checked against the budget before asking. */
export function estimateAnswerCostUsd(target: AnswerTarget): number {
  return PLACEHOLDER_ANSWER_USD + (target.web_search ? PLACEHOLDER_WEB_SEARCH_USD : 0)
}

/** What an answer cost, from what the provider reported (tokens, searches). */
export function answerCostUsd(target: AnswerTarget, answer: Pick<ProviderAnswer, 'modelServed' | 'tokensIn' | 'tokensOut' | 'webSearchCalls'>): number {
  return PLACEHOLDER_ANSWER_USD + (target.web_search ? PLACEHOLDER_WEB_SEARCH_USD * Math.max(1, answer.webSearchCalls) : 0)
}

/** One AI-overview search. */
export function serpCostUsd(serp: 'serpapi' | 'dataforseo'): number {
  return PLACEHOLDER_SERP_USD[serp]
}
