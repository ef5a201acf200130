// Chat completions through the OpenAI SDK, shared by Perplexity and every OpenAI-compatible server
// (OpenRouter, Azure, vLLM, Ollama…). Each of them extends the same response with its own
// citation fields; this reads all of them:
// - OpenAI search models and OpenRouter: `choices[0].message.annotations[]` of
//   `{type: "url_citation", url_citation: {url, title}}`
//   (https://platform.openai.com/docs/api-reference/chat/object)
// - Perplexity: top-level `search_results[]` of `{title, url, date, last_updated, snippet}`, and
//   the older `citations[]` of URL strings it still sends beside it; `usage.num_search_queries`
//   (https://docs.perplexity.ai/api-reference/chat-completions-post,
//   https://docs.perplexity.ai/guides/chat-completions-guide)
import OpenAI from 'openai'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed, readJson } from './provider-errors.js'
import type { AdapterKind, AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

export interface ChatParseOptions {
  label?: string
  /** searches to count when the answer has sources but does not say how many searches ran */
  searchedWhenCited?: boolean
}

/** Reads a chat completion (the JSON as received). Throws `malformed` when it is not one. */
export function parseChatCompletion(raw: unknown, options: ChatParseOptions = {}): ParsedAnswer {
  const label = options.label ?? 'chat completions'
  if (!isObject(raw) || !Array.isArray(raw.choices)) throw malformed(label, 'the answer has no `choices` array')
  const choice = raw.choices[0]
  if (!isObject(choice) || !isObject(choice.message)) throw malformed(label, 'the answer has no message')
  const message = choice.message
  const modelServed = asString(raw.model)
  if (!modelServed) throw malformed(label, 'the answer does not name its model')
  let content = asString(message.content)
  if (content === undefined && Array.isArray(message.content)) {
    // A few servers send content as parts ([{type: "text", text}]) rather than a string.
    content = message.content.map((part) => (isObject(part) ? (asString(part.text) ?? '') : '')).join('')
  }
  const citations = new CitationList()
  for (const annotation of asArray(message.annotations)) {
    if (!isObject(annotation) || annotation.type !== 'url_citation') continue
    const cited = isObject(annotation.url_citation) ? annotation.url_citation : annotation
    citations.add(cited.url, cited.title)
  }
  for (const result of asArray(raw.search_results)) {
    if (isObject(result)) citations.add(result.url, result.title)
  }
  for (const url of asArray(raw.citations)) citations.add(isObject(url) ? url.url : url, isObject(url) ? url.title : undefined)
  const usage = isObject(raw.usage) ? raw.usage : {}
  const searches = typeof usage.num_search_queries === 'number' ? asCount(usage.num_search_queries) : options.searchedWhenCited && citations.size > 0 ? 1 : 0
  return {
    content: content ?? '',
    citations: citations.list(),
    modelServed,
    tokensIn: asCount(usage.prompt_tokens),
    tokensOut: asCount(usage.completion_tokens),
    webSearchCalls: searches,
  }
}

export interface ChatAdapterOptions {
  kind: AdapterKind
  label: string
  baseURL: string
  fetch?: typeof fetch
  /** the key to send when the request has none; undefined means a key is required */
  resolveApiKey: (request: AskRequest) => string
  /** provider-specific body fields (e.g. Perplexity's disable_search) */
  extraBody?: (request: AskRequest) => Record<string, unknown>
  parse?: ChatParseOptions
}

export function createChatCompletionsAdapter(options: ChatAdapterOptions): AnswerAdapter {
  const { label } = options
  return {
    kind: options.kind,
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      const apiKey = options.resolveApiKey(request)
      const client = new OpenAI({ apiKey, baseURL: options.baseURL, organization: null, project: null, maxRetries: 0, timeout: request.timeoutMs, fetch: options.fetch })
      const { result: raw, latencyMs } = await callProvider(label, request, async (signal) => {
        const body = {
          model: request.target.model,
          messages: [{ role: 'user' as const, content: request.prompt }],
          // max_tokens rather than max_completion_tokens: the one every compatible server reads.
          max_tokens: MAX_OUTPUT_TOKENS,
          ...options.extraBody?.(request),
        }
        const response = await client.chat.completions.create(body, { signal, timeout: request.timeoutMs, maxRetries: 0 }).asResponse()
        return readJson(label, response)
      })
      return { ...parseChatCompletion(raw, { ...options.parse, label }), latencyMs, raw }
    },
  }
}
