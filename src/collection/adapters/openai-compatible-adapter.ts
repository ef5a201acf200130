// Any OpenAI-compatible chat completions server at the target's base_url (OpenRouter, Azure
// OpenAI, vLLM, Ollama, LM Studio…) through the OpenAI SDK. Local servers need no key; the SDK
// insists on one, so a placeholder is sent. Citations are read from whichever of the known
// fields the server fills (see chat-completions.ts). web_search is not sent: there is no common
// parameter for it, so pick a model that searches on its own (e.g. OpenRouter's `:online`).
//
// base_url is a user-given address (docs/collection.md, "Outbound requests"): the fetch handed
// in by adapter-resolver.ts goes through the guarded agent, and every error this adapter throws
// is rebuilt from its kind, status and a fixed reason, so nothing the server sent (an error
// page, an internal service's answer) reaches run errors, logs or webhook events.
import { outboundRefusal } from '../../security/outbound-agent.js'
import { createChatCompletionsAdapter } from './chat-completions.js'
import { providerError } from './provider-errors.js'
import { ProviderError, type AnswerAdapter, type AskRequest, type ProviderAnswer, type ProviderErrorKind } from './types.js'

/** Sent when the target has no credential: local servers ignore the Authorization header. */
export const PLACEHOLDER_API_KEY = 'no-key'

// What is said about a failure, by kind: fixed text, never the server's.
const REASON: Record<ProviderErrorKind, string> = {
  rate_limited: 'the server is rate limiting requests',
  server: 'the server had an internal error',
  timeout: 'no complete answer within the time limit',
  network: 'the server could not be reached',
  bad_request: 'the server refused the request',
  unauthorized: 'the server refused the API key',
  forbidden: 'the API key has no access to this model',
  malformed: 'the answer is not a chat completion',
  refused: 'the model declined to answer (refusal or content filter); counted on the run, not stored',
  incomplete: 'the answer was cut short (output limit); counted on the run, not stored',
  search_failed: "the server's own search failed",
  quota_exhausted: 'the account is out of credit or quota',
  unexpected_stop: 'the answer ended with a finish reason Beacon does not know; counted on the run, not stored',
}

/** The error as it may be shown: kind, status, retry delay and a fixed reason; the original stays as `cause` (never serialised). */
function withoutServerText(label: string, error: ProviderError): ProviderError {
  const refusal = outboundRefusal(error)
  if (refusal) return providerError(label, 'bad_request', `base_url refused: ${refusal.message}`)
  const status = error.status
  if (status !== undefined && status >= 300 && status < 400) {
    return providerError(label, 'bad_request', `redirect (${status}) not followed; set base_url to the address the server redirects to`, { status })
  }
  const code = typeof error.cause === 'object' && error.cause !== null ? networkCode(error.cause) : undefined
  const reason = error.kind === 'network' && code ? `${REASON.network} (${code})` : REASON[error.kind]
  // A non-answer keeps its JSON for the audit table (like a stored answer's raw JSON), never for messages.
  return providerError(label, error.kind, reason, { status, retryAfterMs: error.retryAfterMs, nonAnswer: error.nonAnswer })
}

/** A socket error code (ECONNREFUSED, …) from the cause chain: generic, safe to show. */
function networkCode(error: object): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code
  }
  return undefined
}

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
  const label = `openai_compatible ${baseURL}`
  const chat = createChatCompletionsAdapter({
    kind: 'openai_compatible',
    label,
    baseURL,
    fetch: options.fetch,
    resolveApiKey: (request) => request.apiKey ?? PLACEHOLDER_API_KEY,
  })
  return {
    kind: 'openai_compatible',
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      try {
        return await chat.ask(request)
      } catch (error) {
        throw error instanceof ProviderError ? withoutServerText(label, error) : error
      }
    },
  }
}
