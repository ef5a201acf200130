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
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, MAX_WEB_SEARCHES, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed, readJson } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'

/**
 * Reads a Messages API answer. Citations: the sources the text cites, in order of first
 * citation, then the other search results the model read (claude.ai lists those as sources
 * too), so an answer that cites nothing inline still records what grounded it.
 */
export function parseAnthropicMessage(raw: unknown, label = 'anthropic'): ParsedAnswer {
  if (!isObject(raw) || !Array.isArray(raw.content)) throw malformed(label, 'the answer has no `content` array')
  const modelServed = asString(raw.model)
  if (!modelServed) throw malformed(label, 'the answer does not name its model')
  const cited = new CitationList()
  const searched = new CitationList()
  let content = ''
  for (const block of raw.content) {
    if (!isObject(block)) continue
    if (block.type === 'text') {
      content += asString(block.text) ?? ''
      for (const citation of asArray(block.citations)) {
        if (isObject(citation) && citation.type === 'web_search_result_location') cited.add(citation.url, citation.title)
      }
    } else if (block.type === 'web_search_tool_result') {
      // An error result (`{type: "web_search_tool_result_error", error_code}`) is an object, not an array: nothing to add.
      for (const result of asArray(block.content)) {
        if (isObject(result) && result.type === 'web_search_result') searched.add(result.url, result.title)
      }
    }
  }
  for (const source of searched.list()) cited.add(source.url, source.title)
  const usage = isObject(raw.usage) ? raw.usage : {}
  const serverTools = isObject(usage.server_tool_use) ? usage.server_tool_use : {}
  return {
    content,
    citations: cited.list(),
    modelServed,
    tokensIn: asCount(usage.input_tokens) + asCount(usage.cache_creation_input_tokens) + asCount(usage.cache_read_input_tokens),
    tokensOut: asCount(usage.output_tokens),
    webSearchCalls: asCount(serverTools.web_search_requests),
  }
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
      const { result: raw, latencyMs } = await callProvider(label, request, async (signal) => {
        const response = await client.messages
          .create(
            {
              model: target.model,
              max_tokens: MAX_OUTPUT_TOKENS,
              messages: [{ role: 'user', content: request.prompt }],
              ...(target.web_search
                ? {
                    tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: MAX_WEB_SEARCHES }],
                    tool_choice: { type: 'tool' as const, name: 'web_search' },
                  }
                : {}),
            },
            { signal, timeout: request.timeoutMs, maxRetries: 0 },
          )
          .asResponse()
        return readJson(label, response)
      })
      return { ...parseAnthropicMessage(raw, label), latencyMs, raw }
    },
  }
}
