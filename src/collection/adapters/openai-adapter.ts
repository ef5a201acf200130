// OpenAI through the Responses API (official `openai` SDK). With web_search the model gets the
// hosted `web_search` tool and decides itself whether to search, as ChatGPT users see it.
// Wire format: https://platform.openai.com/docs/api-reference/responses/object and
// https://platform.openai.com/docs/guides/tools-web-search — the answer is `output[]` items of
// type `message` whose `content[]` parts of type `output_text` carry `annotations[]`; web
// sources are `{type: "url_citation", url, title, start_index, end_index}`. Each search is an
// output item of type `web_search_call`; only its `search` actions are billed. Usage is `usage.input_tokens` /
// `usage.output_tokens`.
import OpenAI from 'openai'
import { missingKey, type SdkAdapterOptions } from './adapter-options.js'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, MAX_WEB_SEARCHES, QueryList, type ParsedAnswer } from './parse-helpers.js'
import { billedSearchCount } from '../prices.js'
import { callProvider, malformed, nonAnswer, providerError, readJson } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

/**
 * Reads a Responses API answer (the JSON as received). Throws `malformed` when it is not one, and
 * a non-answer ProviderError when the engine did not complete it (docs/collection.md): `status`
 * other than `completed` (`incomplete` with `incomplete_details.reason` `max_output_tokens` or
 * `content_filter`), a `refusal` content part, or a `web_search_call` whose status is `failed`.
 * Shapes: openai/resources/responses/responses.d.ts (Response, ResponseOutputRefusal,
 * ResponseFunctionWebSearch).
 */
export function parseOpenAIResponse(raw: unknown, label = 'openai'): ParsedAnswer {
  if (!isObject(raw) || !Array.isArray(raw.output)) throw malformed(label, 'the answer has no `output` array')
  const modelServed = asString(raw.model)
  if (!modelServed) throw malformed(label, 'the answer does not name its model')
  if (raw.status === 'failed') {
    const error = isObject(raw.error) ? raw.error : {}
    throw providerError(label, 'server', `the response failed: ${asString(error.message) ?? asString(error.code) ?? 'no reason given'}`)
  }
  const citations = new CitationList()
  const queries = new QueryList()
  const messages: string[] = []
  const refusals: string[] = []
  let webSearchCalls = 0
  let failedSearch = false
  for (const item of raw.output) {
    if (!isObject(item)) continue
    if (item.type === 'web_search_call') {
      if (item.status === 'failed') failedSearch = true
      // Only `search` actions are billed; `open_page` and `find_in_page` are free (an item without an action counts, to stay an upper bound).
      const action = isObject(item.action) ? item.action : undefined
      webSearchCalls += billedSearchCount('openai', [action ? asString(action.type) : 'search'])
      if (action?.type === 'search') {
        for (const query of asArray(action.queries)) queries.add(query)
        queries.add(action.query)
      }
    }
    if (item.type !== 'message') continue
    let text = ''
    for (const part of asArray(item.content)) {
      if (isObject(part) && part.type === 'refusal') refusals.push(asString(part.refusal) ?? '')
      if (!isObject(part) || part.type !== 'output_text') continue
      text += asString(part.text) ?? ''
      for (const annotation of asArray(part.annotations)) {
        if (isObject(annotation) && annotation.type === 'url_citation') citations.add(annotation.url, annotation.title)
      }
    }
    if (text !== '') messages.push(text)
  }
  const usage = isObject(raw.usage) ? raw.usage : {}
  const spent = { raw, modelServed, tokensIn: asCount(usage.input_tokens), tokensOut: asCount(usage.output_tokens), webSearchCalls }
  if (raw.status === 'incomplete') {
    const reason = isObject(raw.incomplete_details) ? asString(raw.incomplete_details.reason) : undefined
    const kind = reason === 'max_output_tokens' ? 'incomplete' : reason === 'content_filter' ? 'refused' : 'unexpected_stop'
    throw nonAnswer(label, kind, { ...spent, reason: `status: incomplete, incomplete_details.reason: ${reason ?? 'none'}` })
  }
  if (raw.status !== 'completed') throw nonAnswer(label, 'unexpected_stop', { ...spent, reason: `status: ${String(raw.status ?? 'missing')}` })
  if (refusals.length > 0) throw nonAnswer(label, 'refused', { ...spent, reason: `content part: refusal (${refusals.join(' ').slice(0, 200)})` })
  if (failedSearch) throw nonAnswer(label, 'search_failed', { ...spent, reason: 'web_search_call.status: failed' })
  return {
    content: messages.join('\n\n'),
    citations: citations.list(),
    modelServed,
    tokensIn: spent.tokensIn,
    tokensOut: spent.tokensOut,
    webSearchCalls,
    searchQueries: queries.list(),
  }
}

export function createOpenAIAdapter(options: SdkAdapterOptions): AnswerAdapter {
  const label = 'openai'
  return {
    kind: 'openai',
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      const apiKey = request.apiKey ?? options.fallbackApiKey
      if (!apiKey) throw missingKey(label, 'OPENAI_API_KEY')
      // organization/project null: the SDK would otherwise read OPENAI_ORG_ID/OPENAI_PROJECT_ID from the environment.
      const client = new OpenAI({ apiKey, baseURL: options.baseURL, organization: null, project: null, maxRetries: 0, timeout: request.timeoutMs, fetch: options.fetch })
      const { target } = request
      const { result: raw, latencyMs } = await callProvider(label, request, async (signal) => {
        const response = await client.responses
          .create(
            {
              model: target.model,
              input: request.prompt,
              max_output_tokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
              store: false,
              ...(target.web_search ? { tools: [{ type: 'web_search' as const }], max_tool_calls: MAX_WEB_SEARCHES } : {}),
            },
            { signal, timeout: request.timeoutMs, maxRetries: 0 },
          )
          .asResponse()
        return readJson(label, response)
      })
      return { ...parseOpenAIResponse(raw, label), latencyMs, raw }
    },
  }
}
