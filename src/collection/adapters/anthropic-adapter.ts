// Anthropic through the Messages API (`@anthropic-ai/sdk`). With web_search the server-side web
// search tool (`web_search_20250305`) is given and forced with tool_choice, so every answer is
// grounded the way claude.ai answers with search on.
// Wire format: https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool —
// `content[]` holds `server_tool_use`, `web_search_tool_result` (its `content` is an array of
// `{type: "web_search_result", url, title, page_age, encrypted_content}` or an error object) and
// `text` blocks whose optional `citations[]` are `{type: "web_search_result_location", url,
// title, cited_text}`. Searches run are `usage.server_tool_use.web_search_requests`.
import Anthropic from '@anthropic-ai/sdk'
import { missingKey, type SdkAdapterOptions } from './adapter-options.js'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, MAX_WEB_SEARCHES, QueryList, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed, nonAnswer, readJson } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'

/** How many times a turn paused by the server (`stop_reason: pause_turn`) is continued (docs/collection.md). */
export const MAX_PAUSE_CONTINUATIONS = 3

/**
 * Search errors that mean the engine's search failed (`search_failed`, retried). `max_uses_exceeded`
 * is the cap Beacon set (MAX_WEB_SEARCHES): the answer stays grounded in the searches that ran.
 * Codes: WebSearchToolResultErrorCode in @anthropic-ai/sdk/resources/messages/messages.d.ts.
 */
const SEARCH_ERRORS_OF_OUR_OWN = new Set(['max_uses_exceeded'])

/**
 * Reads a Messages API answer: one message, or the turns of one answer continued after
 * `pause_turn` (each turn's `content` continues the previous one). Citations: the sources the
 * text cites, in order of first citation, then the other search results the model read
 * (claude.ai lists those as sources too), so an answer that cites nothing inline still records
 * what grounded it. `stop_reason` decides whether it is an answer (StopReason in
 * @anthropic-ai/sdk/resources/messages/messages.d.ts): `end_turn`/`stop_sequence` are;
 * `refusal` is `refused`, `max_tokens`/`model_context_window_exceeded` (and a turn still
 * paused after the continuations) `incomplete`, anything else `unexpected_stop`; a
 * `web_search_tool_result_error` is `search_failed`.
 */
export function parseAnthropicMessage(raw: unknown, label = 'anthropic'): ParsedAnswer {
  const turns = Array.isArray(raw) ? raw : [raw]
  const cited = new CitationList()
  const searched = new CitationList()
  const queries = new QueryList()
  const searchErrors: string[] = []
  let content = ''
  let modelServed: string | undefined
  let stopReason: unknown
  let stopDetails: unknown
  let tokensIn = 0
  let tokensOut = 0
  let webSearchCalls = 0
  if (turns.length === 0) throw malformed(label, 'the answer has no message')
  for (const turn of turns) {
    if (!isObject(turn) || !Array.isArray(turn.content)) throw malformed(label, 'the answer has no `content` array')
    modelServed = asString(turn.model)
    if (!modelServed) throw malformed(label, 'the answer does not name its model')
    stopReason = turn.stop_reason
    stopDetails = turn.stop_details
    for (const block of turn.content) {
      if (!isObject(block)) continue
      if (block.type === 'text') {
        content += asString(block.text) ?? ''
        for (const citation of asArray(block.citations)) {
          if (isObject(citation) && citation.type === 'web_search_result_location') cited.add(citation.url, citation.title)
        }
      } else if (block.type === 'server_tool_use' && block.name === 'web_search' && isObject(block.input)) {
        queries.add(block.input.query)
      } else if (block.type === 'web_search_tool_result') {
        // An error result (`{type: "web_search_tool_result_error", error_code}`) is an object, not an array.
        if (isObject(block.content) && block.content.type === 'web_search_tool_result_error') {
          const code = asString(block.content.error_code) ?? 'unknown'
          if (!SEARCH_ERRORS_OF_OUR_OWN.has(code)) searchErrors.push(code)
        }
        for (const result of asArray(block.content)) {
          if (isObject(result) && result.type === 'web_search_result') searched.add(result.url, result.title)
        }
      }
    }
    const usage = isObject(turn.usage) ? turn.usage : {}
    const serverTools = isObject(usage.server_tool_use) ? usage.server_tool_use : {}
    tokensIn += asCount(usage.input_tokens) + asCount(usage.cache_creation_input_tokens) + asCount(usage.cache_read_input_tokens)
    tokensOut += asCount(usage.output_tokens)
    webSearchCalls += asCount(serverTools.web_search_requests)
  }
  for (const source of searched.list()) cited.add(source.url, source.title)
  const spent = { raw, modelServed, tokensIn, tokensOut, webSearchCalls }
  const stop = `stop_reason: ${String(stopReason ?? 'missing')}`
  if (stopReason === 'refusal') {
    const category = isObject(stopDetails) ? asString(stopDetails.category) : undefined
    throw nonAnswer(label, 'refused', { ...spent, reason: category ? `${stop} (${category})` : stop })
  }
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') throw nonAnswer(label, 'incomplete', { ...spent, reason: stop })
  if (stopReason === 'pause_turn') throw nonAnswer(label, 'incomplete', { ...spent, reason: `${stop} after ${turns.length - 1} continuations` })
  if (stopReason !== 'end_turn' && stopReason !== 'stop_sequence') throw nonAnswer(label, 'unexpected_stop', { ...spent, reason: stop })
  if (searchErrors.length > 0) throw nonAnswer(label, 'search_failed', { ...spent, reason: `web_search_tool_result_error: ${searchErrors.join(', ')}` })
  return { content, citations: cited.list(), modelServed: modelServed as string, tokensIn, tokensOut, webSearchCalls, searchQueries: queries.list() }
}

export function createAnthropicAdapter(options: SdkAdapterOptions): AnswerAdapter {
  const label = 'anthropic'
  return {
    kind: 'anthropic',
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      const apiKey = request.apiKey ?? options.fallbackApiKey
      if (!apiKey) throw missingKey(label, 'ANTHROPIC_API_KEY')
      // authToken null: the SDK would otherwise also send ANTHROPIC_AUTH_TOKEN from the environment.
      const client = new Anthropic({ apiKey, authToken: null, baseURL: options.baseURL, maxRetries: 0, timeout: request.timeoutMs, fetch: options.fetch })
      const { target } = request
      // A paused turn is sent back as it is, its content so far as the assistant's turn, to let the model go on
      // (https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools, "pause_turn").
      const turns: unknown[] = []
      const sofar: unknown[] = []
      let latencyMs = 0
      for (;;) {
        const messages = [
          { role: 'user' as const, content: request.prompt },
          ...(sofar.length ? [{ role: 'assistant' as const, content: sofar as Anthropic.ContentBlockParam[] }] : []),
        ]
        const call = await callProvider(label, request, async (signal) => {
          const response = await client.messages
            .create(
              {
                model: target.model,
                max_tokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
                messages,
                ...(target.web_search
                  ? {
                      tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: MAX_WEB_SEARCHES }],
                      // A continued turn has searched already: forcing the tool again would make it search once more.
                      tool_choice: sofar.length ? { type: 'auto' as const } : { type: 'tool' as const, name: 'web_search' },
                    }
                  : {}),
              },
              { signal, timeout: request.timeoutMs, maxRetries: 0 },
            )
            .asResponse()
          return readJson(label, response)
        })
        turns.push(call.result)
        latencyMs += call.latencyMs
        const paused = isObject(call.result) && call.result.stop_reason === 'pause_turn' && Array.isArray(call.result.content)
        if (!paused || turns.length > MAX_PAUSE_CONTINUATIONS) break
        sofar.push(...(call.result as { content: unknown[] }).content)
      }
      const raw = turns.length === 1 ? turns[0] : turns
      return { ...parseAnthropicMessage(raw, label), latencyMs, raw }
    },
  }
}
