// Perplexity (Sonar) through the OpenAI SDK at Perplexity's base URL: its chat completions are
// OpenAI-compatible (https://docs.perplexity.ai/guides/chat-completions-guide) and search the
// web by default; sources come from `search_results` (see chat-completions.ts).
import { missingKey, type SdkAdapterOptions } from './adapter-options.js'
import { createChatCompletionsAdapter } from './chat-completions.js'
import type { AnswerAdapter } from './types.js'

export const PERPLEXITY_DEFAULT_BASE_URL = 'https://api.perplexity.ai'

export function createPerplexityAdapter(options: SdkAdapterOptions): AnswerAdapter {
  const label = 'perplexity'
  return createChatCompletionsAdapter({
    kind: 'perplexity',
    label,
    baseURL: options.baseURL,
    fetch: options.fetch,
    resolveApiKey: (request) => {
      const key = request.apiKey ?? options.fallbackApiKey
      if (!key) throw missingKey(label, 'PERPLEXITY_API_KEY')
      return key
    },
    // Sonar searches unless told not to (https://docs.perplexity.ai/guides/search-control-guide);
    // a target without web_search asks the model alone. The price is the same either way.
    extraBody: (request) => (request.target.web_search ? {} : { disable_search: true }),
    // Older answers lack usage.num_search_queries; an answer with sources ran at least one search.
    parse: { searchedWhenCited: true },
  })
}
