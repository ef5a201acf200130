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
import { asArray, asCount, asString, CitationList, isObject, MAX_OUTPUT_TOKENS, QueryList, type ParsedAnswer } from './parse-helpers.js'
import { callProvider, malformed, nonAnswer } from './provider-errors.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer, ProviderCitation } from './types.js'

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'

/** finishReason values meaning the engine blocked its own answer (FinishReason in @google/genai dist/genai.d.ts). */
const REFUSED_FINISH = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'LANGUAGE', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION'])

/**
 * Reads a generateContent answer; `modelAsked` names the model when the answer does not. Only
 * `finishReason: STOP` is an answer: a prompt blocked before any candidate
 * (`promptFeedback.blockReason`) and the blocking finish reasons are `refused`, `MAX_TOKENS` is
 * `incomplete`, any other value (OTHER, MALFORMED_FUNCTION_CALL, a missing one, …) `unexpected_stop`.
 * Citations are the grounding chunks that `groundingSupports` reference (what the answer cites);
 * chunks read but not cited stay in the raw JSON.
 */
export function parseGeminiResponse(raw: unknown, modelAsked: string, label = 'google'): ParsedAnswer {
  if (!isObject(raw)) throw malformed(label, 'the answer is not a JSON object')
  const candidates = asArray(raw.candidates)
  const usage = isObject(raw.usageMetadata) ? raw.usageMetadata : {}
  const modelServed = asString(raw.modelVersion) ?? modelAsked
  const tokensIn = asCount(usage.promptTokenCount) + asCount(usage.toolUsePromptTokenCount)
  const tokensOut = asCount(usage.candidatesTokenCount) + asCount(usage.thoughtsTokenCount)
  if (candidates.length === 0) {
    const blockReason = isObject(raw.promptFeedback) ? asString(raw.promptFeedback.blockReason) : undefined
    if (!blockReason) throw malformed(label, 'the answer has no candidates')
    throw nonAnswer(label, 'refused', { reason: `promptFeedback.blockReason: ${blockReason}`, raw, modelServed, tokensIn, tokensOut, webSearchCalls: 0 })
  }
  const first = isObject(candidates[0]) ? candidates[0] : {}
  const content = isObject(first.content) ? first.content : {}
  let text = ''
  for (const part of asArray(content.parts)) {
    // Thought summaries are the model's reasoning, not the answer users read.
    if (isObject(part) && part.thought !== true) text += asString(part.text) ?? ''
  }
  const grounding = isObject(first.groundingMetadata) ? first.groundingMetadata : {}
  const chunks = asArray(grounding.groundingChunks)
  const citations = new CitationList()
  for (const support of asArray(grounding.groundingSupports)) {
    if (!isObject(support)) continue
    for (const index of asArray(support.groundingChunkIndices)) {
      const chunk = typeof index === 'number' ? chunks[index] : undefined
      if (isObject(chunk) && isObject(chunk.web)) citations.add(chunk.web.uri, chunk.web.title)
    }
  }
  const queries = new QueryList()
  for (const query of asArray(grounding.webSearchQueries)) queries.add(query)
  const webSearchCalls = asArray(grounding.webSearchQueries).length
  const finishReason = asString(first.finishReason)
  const spent = { raw, modelServed, tokensIn, tokensOut, webSearchCalls, reason: `finishReason: ${finishReason ?? 'missing'}` }
  if (finishReason && REFUSED_FINISH.has(finishReason)) throw nonAnswer(label, 'refused', spent)
  if (finishReason === 'MAX_TOKENS') throw nonAnswer(label, 'incomplete', spent)
  if (finishReason !== 'STOP') throw nonAnswer(label, 'unexpected_stop', spent)
  return { content: text, citations: citations.list(), modelServed, tokensIn, tokensOut, webSearchCalls, searchQueries: queries.list() }
}

/** Time allowed to turn Google's grounding redirects into the pages they point to. */
const REDIRECT_BUDGET_MS = 3000
/** Google's grounding-redirect host: the only one the resolver asks, so a citation cannot make Beacon fetch anything else. */
export const GROUNDING_REDIRECT_HOST = 'vertexaisearch.cloud.google.com'

function isGroundingRedirect(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' && parsed.hostname === GROUNDING_REDIRECT_HOST && parsed.port === '' && parsed.pathname.startsWith('/grounding-api-redirect/')
  } catch {
    return false
  }
}

/**
 * Gemini cites `https://vertexaisearch.cloud.google.com/grounding-api-redirect/…` URLs, which would make
 * every Gemini source look like one Google domain. Each redirect is asked (HEAD, not followed)
 * for its Location, in parallel and within a short budget; a redirect that does not resolve is
 * kept as it is. The raw JSON keeps the redirects (they expire), the citations the pages.
 */
export async function resolveGroundingRedirects(citations: ProviderCitation[], doFetch: typeof fetch, signal: AbortSignal): Promise<ProviderCitation[]> {
  if (!citations.some((citation) => isGroundingRedirect(citation.url))) return citations
  const budget = AbortSignal.any([signal, AbortSignal.timeout(REDIRECT_BUDGET_MS)])
  const resolved = await Promise.all(
    citations.map(async (citation) => {
      if (!isGroundingRedirect(citation.url)) return citation
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
          config: { abortSignal: signal, maxOutputTokens: request.maxOutputTokens ?? MAX_OUTPUT_TOKENS, ...(target.web_search ? { tools: [{ googleSearch: {} }] } : {}) },
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
