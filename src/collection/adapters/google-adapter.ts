// Google Gemini through `@google/genai` generateContent. With web_search the `googleSearch` tool
// grounds the answer in Google Search results, as the Gemini app does.
// Wire format: https://ai.google.dev/api/generate-content#generatecontentresponse and
// https://ai.google.dev/gemini-api/docs/google-search — `candidates[0].content.parts[].text`,
// sources in `candidates[0].groundingMetadata.groundingChunks[].web {uri, title}` (the uri is
// Google's grounding redirect, the title the site's domain), the queries run in
// `groundingMetadata.webSearchQueries`, usage in `usageMetadata` (`thoughtsTokenCount` is billed
// as output, `toolUsePromptTokenCount` as input), the model served in `modelVersion`.
import { GoogleGenAI } from '@google/genai'
import { missingKey, type SdkAdapterOptions } from './adapter-options.js'
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer, ProviderCitation } from './types.js'

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'

/** Reads a generateContent answer; `modelAsked` names the model when the answer does not. */
export function parseGeminiResponse(raw: unknown, modelAsked: string, label = 'google'): ParsedAnswer {
  if (!isObject(raw)) throw malformed(label, 'the answer is not a JSON object')
  const candidates = asArray(raw.candidates)
  // A prompt blocked by safety filters has no candidates, only promptFeedback: an answer (empty), not a failure to retry.
  if (candidates.length === 0 && !isObject(raw.promptFeedback)) throw malformed(label, 'the answer has no candidates')
  const first = isObject(candidates[0]) ? candidates[0] : {}
  const content = isObject(first.content) ? first.content : {}
  let text = ''
  for (const part of asArray(content.parts)) {
    // Thought summaries are the model's reasoning, not the answer users read.
    if (isObject(part) && part.thought !== true) text += asString(part.text) ?? ''
  }
  const grounding = isObject(first.groundingMetadata) ? first.groundingMetadata : {}
  const citations = new CitationList()
  for (const chunk of asArray(grounding.groundingChunks)) {
    if (isObject(chunk) && isObject(chunk.web)) citations.add(chunk.web.uri, chunk.web.title)
  }
  const usage = isObject(raw.usageMetadata) ? raw.usageMetadata : {}
  return {
    content: text,
    citations: citations.list(),
    modelServed: asString(raw.modelVersion) ?? modelAsked,
    tokensIn: asCount(usage.promptTokenCount) + asCount(usage.toolUsePromptTokenCount),
    tokensOut: asCount(usage.candidatesTokenCount) + asCount(usage.thoughtsTokenCount),
    webSearchCalls: asArray(grounding.webSearchQueries).length,
  }
}

/** Time allowed to turn Google's grounding redirects into the pages they point to. */
const REDIRECT_BUDGET_MS = 3000
const GROUNDING_REDIRECT = /\/grounding-api-redirect\//

/**
 * Gemini cites `vertexaisearch.cloud.google.com/grounding-api-redirect/…` URLs, which would make
 * every Gemini source look like one Google domain. Each redirect is asked (HEAD, not followed)
 * for its Location, in parallel and within a short budget; a redirect that does not resolve is
 * kept as it is. The raw JSON keeps the redirects (they expire), the citations the pages.
 */
export async function resolveGroundingRedirects(citations: ProviderCitation[], doFetch: typeof fetch, signal: AbortSignal): Promise<ProviderCitation[]> {
  if (!citations.some((citation) => GROUNDING_REDIRECT.test(citation.url))) return citations
  const budget = AbortSignal.any([signal, AbortSignal.timeout(REDIRECT_BUDGET_MS)])
  const resolved = await Promise.all(
    citations.map(async (citation) => {
      if (!GROUNDING_REDIRECT.test(citation.url)) return citation
      try {
        const response = await doFetch(citation.url, { method: 'HEAD', redirect: 'manual', signal: budget })
        const location = response.headers.get('location')
        return location && /^https?:\/\//i.test(location) ? { ...citation, url: location } : citation
      } catch {
        return citation
      }
    }),
  )
  const list = new CitationList()
  for (const citation of resolved) list.add(citation.url, citation.title)
  return list.list()
}

export function createGoogleAdapter(options: SdkAdapterOptions): AnswerAdapter {
  const label = 'google'
  const baseFetch = options.fetch ?? fetch
  return {
    kind: 'google',
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      const apiKey = request.apiKey ?? options.fallbackApiKey
      if (!apiKey) throw missingKey(label, 'GEMINI_API_KEY')
      const { target } = request
      let rawText: string | undefined
      const { result: raw, latencyMs } = await callProvider(label, request, async (signal, context) => {
        // The SDK's ApiError drops the response headers (Retry-After) and its result is a converted
        // copy of the JSON: this fetch keeps both, and reads the body under our deadline.
        const capturingFetch: typeof fetch = async (input, init) => {
          const response = await baseFetch(input, init)
          context.lastHeaders = response.headers
          if (!response.ok) return response
          rawText = await response.text()
          return new Response(rawText, { status: response.status, statusText: response.statusText, headers: response.headers })
        }
        // No retryOptions: without them the SDK makes exactly one attempt.
        // vertexai false: the SDK would otherwise switch to Vertex AI when GOOGLE_GENAI_USE_VERTEXAI is set.
        const client = new GoogleGenAI({ apiKey, vertexai: false, httpOptions: { baseUrl: options.baseURL, timeout: request.timeoutMs, fetch: capturingFetch } })
        await client.models.generateContent({
          model: target.model,
          contents: request.prompt,
          config: { abortSignal: signal, maxOutputTokens: MAX_OUTPUT_TOKENS, ...(target.web_search ? { tools: [{ googleSearch: {} }] } : {}) },
        })
        if (rawText === undefined) throw malformed(label, 'the answer body could not be read')
        return JSON.parse(rawText) as unknown
      })
      const parsed = parseGeminiResponse(raw, target.model, label)
      const citations = await resolveGroundingRedirects(parsed.citations, baseFetch, request.signal ?? new AbortController().signal)
      if (request.signal?.aborted) throw request.signal.reason
      return { ...parsed, citations, latencyMs, raw }
    },
  }
}
