// Any OpenAI-compatible chat completions server at the target's base_url (OpenRouter, Azure
// OpenAI, vLLM, Ollama, LM Studio…) through the OpenAI SDK. Local servers need no key; the SDK
// insists on one, so a placeholder is sent. Citations are read from whichever of the known
// fields the server fills (see chat-completions.ts). web_search is not sent: there is no common
// parameter for it, so pick a model that searches on its own (e.g. OpenRouter's `:online`).
import { createChatCompletionsAdapter } from './chat-completions.js'
import { providerError } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from './types.js'

/** Sent when the target has no credential: local servers ignore the Authorization header. */
export const PLACEHOLDER_API_KEY = 'no-key'

export function createOpenAICompatibleAdapter(options: { baseURL?: string | null; fetch?: typeof fetch }): AnswerAdapter {
  const baseURL = options.baseURL?.trim()
  if (!baseURL) {
    return {
      kind: 'openai_compatible',
      async ask(_request: AskRequest): Promise<ProviderAnswer> {
        throw providerError('openai_compatible', 'bad_request', 'the target has no base_url: set it to the server, e.g. http://localhost:11434/v1')
      },
    }
  }
  return createChatCompletionsAdapter({
    kind: 'openai_compatible',
    label: `openai_compatible ${baseURL}`,
    baseURL,
    fetch: options.fetch,
    resolveApiKey: (request) => request.apiKey ?? PLACEHOLDER_API_KEY,
  })
}
