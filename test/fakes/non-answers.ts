// What the providers send when they do not answer (docs/collection.md, "outcomes"). Every shape
// is taken from the SDK type definitions installed in node_modules (openai 6, @anthropic-ai/sdk
// 1.x, @google/genai 2) or the provider's documentation; the comment beside each says which.
// None of the partial texts names a brand: stored as answers, they would dilute visibility.

// --- OpenAI Responses API -------------------------------------------------------------------

/** openai/resources/responses/responses.d.ts: Response (status, incomplete_details, output, usage). */
function openAIResponse(model: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'resp_non_answer',
    object: 'response',
    created_at: 1764050000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model,
    output: [],
    usage: { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 25, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 65 },
    ...fields,
  }
}

/** ResponseOutputRefusal (`{type: "refusal", refusal}`) as the message's only content part. */
export function openAIRefusal(model = 'gpt-5-2025-08-07') {
  return openAIResponse(model, {
    output: [{ id: 'msg_refusal', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: "I'm sorry, but I can't help with that." }] }],
  })
}

/** Response.IncompleteDetails.reason: 'max_output_tokens' | 'content_filter', with status 'incomplete' and the text so far. */
export function openAIIncomplete(reason: 'max_output_tokens' | 'content_filter', model = 'gpt-5-2025-08-07') {
  return openAIResponse(model, {
    status: 'incomplete',
    incomplete_details: { reason },
    output: [
      {
        id: 'msg_partial',
        type: 'message',
        status: 'incomplete',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'There are several options worth comparing, starting with', annotations: [], logprobs: [] }],
      },
    ],
    usage: { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 8192, output_tokens_details: { reasoning_tokens: 8000 }, total_tokens: 8232 },
  })
}

/** 429 `insufficient_quota` error JSON (https://platform.openai.com/docs/guides/error-codes, "You exceeded your current quota"). */
export const OPENAI_INSUFFICIENT_QUOTA = {
  error: {
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    type: 'insufficient_quota',
    param: null,
    code: 'insufficient_quota',
  },
}

// --- Anthropic Messages API -----------------------------------------------------------------

/** @anthropic-ai/sdk/resources/messages/messages.d.ts: Message (stop_reason: StopReason, stop_details: RefusalStopDetails | null). */
function anthropicMessage(model: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'msg_non_answer',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: 'end_turn',
    stop_sequence: null,
    stop_details: null,
    usage: { input_tokens: 30, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 0 } },
    ...fields,
  }
}

/** stop_reason `refusal` with RefusalStopDetails `{type: "refusal", category, explanation}`. */
export function anthropicRefusal(model = 'claude-sonnet-4-5-20250929') {
  return anthropicMessage(model, { stop_reason: 'refusal', stop_details: { type: 'refusal', category: null, explanation: null }, content: [] })
}

/** stop_reason `max_tokens`: the text so far. */
export function anthropicMaxTokens(model = 'claude-sonnet-4-5-20250929') {
  return anthropicMessage(model, {
    stop_reason: 'max_tokens',
    content: [{ type: 'text', text: 'There are several options worth comparing, starting with', citations: null }],
    usage: { input_tokens: 30, output_tokens: 8192, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: null },
  })
}

/**
 * A search that errored: WebSearchToolResultBlock whose content is WebSearchToolResultErrorObject
 * (`{type: "web_search_tool_result_error", error_code: "unavailable"}`), then text, stop_reason end_turn.
 */
export function anthropicSearchError(query: string, model = 'claude-sonnet-4-5-20250929') {
  return anthropicMessage(model, {
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_err', name: 'web_search', input: { query } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_err', content: { type: 'web_search_tool_result_error', error_code: 'unavailable' } },
      { type: 'text', text: 'I could not search right now, but generally speaking there are many tools.', citations: null },
    ],
    usage: { input_tokens: 30, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 1 } },
  })
}

/**
 * stop_reason `pause_turn` ("we paused a long-running turn. You may provide the response back as-is
 * in a subsequent request to let the model continue", StopReason docs in messages.d.ts): a search
 * ran, no text yet.
 */
export function anthropicPaused(query: string, model = 'claude-sonnet-4-5-20250929') {
  return anthropicMessage(model, {
    stop_reason: 'pause_turn',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_paused', name: 'web_search', input: { query } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_paused',
        content: [{ type: 'web_search_result', url: 'https://www.example-reviews.com/pm-tools', title: 'The 10 best PM tools', encrypted_content: 'Eq', page_age: null }],
      },
    ],
    usage: { input_tokens: 30, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 1 } },
  })
}

// --- Gemini generateContent -----------------------------------------------------------------

/** @google/genai dist/genai.d.ts: GenerateContentResponse (candidates: Candidate[], promptFeedback, usageMetadata, modelVersion). */
function geminiResponse(model: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 0, totalTokenCount: 9 }, modelVersion: model, responseId: 'non_answer', ...fields }
}

/** Candidate.finishReason SAFETY (FinishReason enum) with its safetyRatings and no content. */
export function geminiSafety(model = 'gemini-2.5-flash') {
  return geminiResponse(model, {
    candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }],
  })
}

/** Candidate.finishReason MAX_TOKENS with the text so far. */
export function geminiMaxTokens(model = 'gemini-2.5-flash') {
  return geminiResponse(model, {
    candidates: [{ content: { parts: [{ text: 'There are several options worth comparing, starting with' }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 8192, totalTokenCount: 8201 },
  })
}

/** No candidates; GenerateContentResponsePromptFeedback.blockReason (BlockedReason enum). */
export function geminiBlockedPrompt(blockReason = 'PROHIBITED_CONTENT', model = 'gemini-2.5-flash') {
  return geminiResponse(model, { promptFeedback: { blockReason } })
}

/**
 * 429 RESOURCE_EXHAUSTED as google.rpc.Status with QuotaFailure, Help and RetryInfo details
 * (https://ai.google.dev/gemini-api/docs/rate-limits; google/rpc/error_details.proto). `PerDay`
 * quotas reset at midnight Pacific time; `PerMinute` ones are rate limits.
 */
export function geminiQuotaError(window: 'PerDay' | 'PerMinute', retryDelay = '43s') {
  return {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: `GenerateRequests${window}PerProjectPerModel-FreeTier`,
              quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
              quotaValue: window === 'PerDay' ? '250' : '10',
            },
          ],
        },
        {
          '@type': 'type.googleapis.com/google.rpc.Help',
          links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  }
}
