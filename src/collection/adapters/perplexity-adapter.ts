// Perplexity through its Agent API (POST /v1/responses), with Perplexity's official SDK
// (@perplexity-ai/perplexity_ai: Node 20 or later per its README, no dependencies). Perplexity
// ended Sonar chat completions (their changelog, https://docs.perplexity.ai/docs/resources/changelog,
// and https://docs.perplexity.ai/docs/agent-api/openai-compatibility), so chat completions stay
// reachable only as an `openai_compatible` target (docs/collection.md).
//
// Wire format, from the SDK's own types (dist/generated/api.d.ts, `ResponsesResponseOutput`):
// `{id, object: "response", created_at, model, status, error?, output: [..], usage?}` where
// `status` is completed | failed | in_progress | queued | cancelled | requires_action; `output[]`
// holds `{type: "search_results", queries?: string[], results: [{id, title, url, snippet, date?,
// last_updated?}]}` per search the agent ran and `{type: "message", status, content: [{type:
// "output_text", text, annotations?: [{type, url, title, start_index, end_index}]}]}`; `usage` is
// `{input_tokens, output_tokens, total_tokens, tool_calls_details?: {<tool>: {invocation}},
// cost?: {currency, input_cost, output_cost, tool_calls_cost?, total_cost}}`. The API is also
// documented as compatible with OpenAI's Responses format, so an OpenAI-style `status:
// "incomplete"` with `incomplete_details.reason` and `refusal` content parts are read too.
import Perplexity, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@perplexity-ai/perplexity_ai'
import { missingKey, type SdkAdapterOptions } from './adapter-options.js'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, type JsonObject, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, kindForStatus, malformed, nonAnswer, parseRetryAfter, providerError, readJson, withoutUsage } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

export const PERPLEXITY_DEFAULT_BASE_URL = 'https://api.perplexity.ai'

const LABEL = 'perplexity'

/** What the Agent API tells us beyond the common answer: the searches it ran and what it charged. */
export interface PerplexityParsed extends ParsedAnswer {
  /** the queries of every `search_results` item, in order, deduplicated */
  searchQueries: string[]
  /** `usage.cost.total_cost` in USD, when the answer states it */
  costUsd?: number
}

export type PerplexityAnswer = ProviderAnswer & { searchQueries: string[]; costUsd?: number }

const QUOTA = /insufficient|quota|credit|balance|billing|payment/i
const SEARCH = /search|tool/i

/** A response that did not finish: `failed` with its error, or any status other than `completed`. */
function unfinished(raw: JsonObject, status: string | undefined): Error {
  const error = isObject(raw.error) ? raw.error : {}
  const detail = [asString(error.code), asString(error.type), asString(error.message)].filter(Boolean).join(' ')
  if (status === 'failed') {
    if (QUOTA.test(detail)) return nonAnswer(LABEL, 'quota_exhausted', withoutUsage(`the response failed: ${detail}`, raw))
    if (SEARCH.test(detail)) return nonAnswer(LABEL, 'search_failed', withoutUsage(`the response failed: ${detail}`, raw))
    return providerError(LABEL, 'server', `the response failed${detail ? `: ${detail}` : ''}`)
  }
  if (status === 'incomplete') {
    const reason = isObject(raw.incomplete_details) ? asString(raw.incomplete_details.reason) : undefined
    if (reason === 'content_filter') return nonAnswer(LABEL, 'refused', withoutUsage('the answer was stopped by the content filter', raw))
    return nonAnswer(LABEL, 'incomplete', withoutUsage(`the answer stopped early (${reason ?? 'no reason given'})`, raw))
  }
  // cancelled, queued, in_progress (we never ask for background), requires_action (we offer no
  // function tools) and any status Perplexity adds later: not a finished answer.
  return nonAnswer(LABEL, 'incomplete', withoutUsage(`the response ended with status "${status ?? 'missing'}"`, raw))
}

/** Reads an Agent API response (the JSON as received). Throws an outcome for every non-answer. */
export function parsePerplexityResponse(raw: unknown): PerplexityParsed {
  if (!isObject(raw) || !Array.isArray(raw.output)) throw malformed(LABEL, 'the answer has no `output` array')
  const modelServed = asString(raw.model)
  if (!modelServed) throw malformed(LABEL, 'the answer does not name its model')
  const status = asString(raw.status)
  if (status !== 'completed') throw unfinished(raw, status)

  const texts: string[] = []
  const cited = new CitationList()
  const searched = new CitationList()
  const queries = new Set<string>()
  let searchItems = 0
  for (const item of raw.output) {
    if (!isObject(item)) continue
    if (item.type === 'search_results') {
      searchItems++
      for (const query of asArray(item.queries)) if (typeof query === 'string' && query.trim() !== '') queries.add(query.trim())
      for (const result of asArray(item.results)) if (isObject(result)) searched.add(result.url, result.title)
    } else if (item.type === 'message') {
      const itemStatus = asString(item.status)
      if (itemStatus !== undefined && itemStatus !== 'completed') throw nonAnswer(LABEL, 'incomplete', withoutUsage(`the message ended with status "${itemStatus}"`, raw))
      for (const part of asArray(item.content)) {
        if (!isObject(part)) continue
        if (part.type === 'refusal') throw nonAnswer(LABEL, 'refused', withoutUsage(asString(part.refusal) ?? 'the engine refused', raw))
        if (part.type !== 'output_text') continue
        texts.push(asString(part.text) ?? '')
        for (const annotation of asArray(part.annotations)) if (isObject(annotation)) cited.add(annotation.url, annotation.title)
      }
    }
  }
  const content = texts.join('')
  if (content.trim() === '') throw nonAnswer(LABEL, 'incomplete', withoutUsage('the response completed without any answer text', raw))

  // What the text cites first, then the rest of what the searches returned (Perplexity's sources).
  for (const source of searched.list()) cited.add(source.url, source.title)
  const usage = isObject(raw.usage) ? raw.usage : {}
  const tools = isObject(usage.tool_calls_details) ? usage.tool_calls_details : {}
  const webSearch = isObject(tools.web_search) ? tools.web_search : undefined
  const cost = isObject(usage.cost) ? usage.cost : undefined
  const totalCost = cost && typeof cost.total_cost === 'number' && Number.isFinite(cost.total_cost) && cost.total_cost >= 0 ? cost.total_cost : undefined
  return {
    content,
    citations: cited.list(),
    modelServed,
    tokensIn: asCount(usage.input_tokens),
    tokensOut: asCount(usage.output_tokens),
    // The billed count when the answer states it; else one per search_results item.
    webSearchCalls: webSearch && typeof webSearch.invocation === 'number' ? asCount(webSearch.invocation) : searchItems,
    searchQueries: [...queries],
    ...(totalCost === undefined ? {} : { costUsd: totalCost }),
  }
}

/** The SDK's errors (a Stainless-style client like openai's) as ProviderErrors; aborts are left to callProvider. */
function fromSdkError(error: unknown): unknown {
  if (error instanceof APIConnectionTimeoutError) return providerError(LABEL, 'timeout', 'the request took longer than its timeout', { cause: error })
  if (error instanceof APIConnectionError) return providerError(LABEL, 'network', `connection failed: ${error.message}`, { cause: error })
  if (error instanceof APIError && typeof error.status === 'number') {
    // Out of credit: 402, or a 4xx whose error names the balance (not documented by Perplexity; read defensively).
    if (error.status === 402 || (error.status !== 401 && error.status < 500 && QUOTA.test(error.message))) {
      return nonAnswer(LABEL, 'quota_exhausted', withoutUsage(error.message, error.error), { status: error.status, cause: error })
    }
    return providerError(LABEL, kindForStatus(error.status), error.message, { status: error.status, retryAfterMs: parseRetryAfter(error.headers), cause: error })
  }
  return error
}

export function createPerplexityAdapter(options: SdkAdapterOptions): AnswerAdapter {
  return {
    kind: 'perplexity',
    async ask(request: AskRequest): Promise<PerplexityAnswer> {
      const apiKey = request.apiKey ?? options.fallbackApiKey
      if (!apiKey) throw missingKey(LABEL, 'PERPLEXITY_API_KEY')
      // logLevel off: the SDK would otherwise log failed requests itself; errors reach the run instead.
      const client = new Perplexity({ apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: request.timeoutMs, fetch: options.fetch, logLevel: 'off' })
      const { result: raw, latencyMs } = await callProvider(LABEL, request, async (signal) => {
        try {
          const response = await client.responses
            .create(
              {
                model: request.target.model,
                input: request.prompt,
                max_output_tokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
                // The Agent API searches only with the web_search tool; a target without web_search asks the model alone.
                ...(request.target.web_search ? { tools: [{ type: 'web_search' as const }] } : {}),
              },
              { signal, timeout: request.timeoutMs, maxRetries: 0 },
            )
            .asResponse()
          return await readJson(LABEL, response)
        } catch (error) {
          throw fromSdkError(error)
        }
      })
      return { ...parsePerplexityResponse(raw), latencyMs, raw }
    },
  }
}
