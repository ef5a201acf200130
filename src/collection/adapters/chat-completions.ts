// Chat completions through the OpenAI SDK, for every OpenAI-compatible server (OpenRouter, Azure,
// vLLM, Ollama…, and Perplexity's retired Sonar chat completions, reachable only as
// `openai_compatible`: docs/collection.md). Each of them extends the same response with its own
// citation fields; this reads all of them:
// - OpenAI search models and OpenRouter: `choices[0].message.annotations[]` of
//   `{type: "url_citation", url_citation: {url, title}}`
//   (https://platform.openai.com/docs/api-reference/chat/object)
// - Perplexity: top-level `search_results[]` of `{title, url, date, last_updated, snippet}`, and
//   the older `citations[]` of URL strings it still sends beside it; `usage.num_search_queries`
//   (https://docs.perplexity.ai/api-reference/chat-completions-post,
//   https://docs.perplexity.ai/guides/chat-completions-guide)
// An answer counts only when `choices[0].finish_reason` says the model stopped on its own
// (`"stop"`); the SDK's type (openai, resources/chat/completions: ChatCompletion.Choice) lists
// `stop | length | tool_calls | content_filter | function_call`, and `message.refusal` carries
// a refusal. OpenRouter normalizes every model to the same values, as an open enum
// (https://openrouter.ai/docs/client-sdks/python/components/finishreason).
import OpenAI from 'openai'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed, nonAnswer, readJson, withoutUsage } from './provider-errors.js'
import type { AdapterKind, AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

/** Every finish_reason but `stop` is a non-answer; an unknown one included, never a silent success. */
function unfinished(label: string, finish: string | undefined, raw: unknown): Error {
  if (finish === 'length') return nonAnswer(label, 'incomplete', withoutUsage('the answer was cut at the output limit (finish_reason "length")', raw))
  if (finish === 'content_filter') return nonAnswer(label, 'refused', withoutUsage('the answer was stopped by the content filter (finish_reason "content_filter")', raw))
  // tool_calls / function_call: the model wanted a tool we never offered, so it gave no answer.
  return nonAnswer(label, 'incomplete', withoutUsage(finish ? `the model stopped with finish_reason "${finish}"` : 'the answer has no finish_reason', raw))
}

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
  const refusal = asString(message.refusal)
  if (refusal) throw nonAnswer(label, 'refused', withoutUsage(`the model refused: ${refusal.slice(0, 200)}`, raw))
  const finish = asString(choice.finish_reason)
  if (finish !== 'stop') throw unfinished(label, finish, raw)
  if (!content || content.trim() === '') throw nonAnswer(label, 'incomplete', withoutUsage('the model stopped without any answer text', raw))
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
          // max_completion_tokens, the field OpenAI documents: its reasoning models refuse the
          // deprecated max_tokens. A server that ignores it answers with its own cap; a cut answer
          // still shows as finish_reason "length".
          max_completion_tokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
          ...options.extraBody?.(request),
        }
        const response = await client.chat.completions.create(body, { signal, timeout: request.timeoutMs, maxRetries: 0 }).asResponse()
        return readJson(label, response)
      })
      return { ...parseChatCompletion(raw, { ...options.parse, label }), latencyMs, raw }
    },
  }
}
