// Google's AI overview through SerpApi's Google Search API (plain fetch, no SDK).
// Wire format: https://serpapi.com/ai-overview and https://serpapi.com/google-ai-overview-api —
// `ai_overview.text_blocks[]` are `{type: "paragraph" | "heading", snippet, reference_indexes}`,
// `{type: "list", list: [{title?, snippet, reference_indexes, list?}]}`, `{type: "expandable",
// title, text_blocks}` or `{type: "table", table: [[cells]]}`; `ai_overview.references[]` are
// `{title, link, snippet, source, index}`. When Google lazy-loads the overview, the search
// answer only has `ai_overview.page_token` (valid ~4 minutes) and a second request with
// `engine=google_ai_overview` fetches it. Errors come as `{error: "..."}`, with HTTP 401/429
// or, for "no results", with 200; an account out of searches answers 429 `{"error": "Your account
// has run out of searches."}` (https://serpapi.com/api-status-and-error-codes). The first request
// sends `no_cache=true`: SerpApi serves an identical search from its cache for an hour, and a
// cached answer's page_token (valid ~4 minutes) has expired (https://serpapi.com/google-ai-overview-api,
// `no_cache`). Each uncached request is a billed search, the follow-up too (`requests: 2`).
import { asArray, asString, CitationList, isObject, type JsonObject } from './parse-helpers.js'
import { callProvider, kindForStatus, malformed, nonAnswer, parseRetryAfter, providerError, readJson, withoutUsage } from './provider-errors.js'
import type { AioAdapter, AioAnswer, AioRequest } from './types.js'

export const SERPAPI_DEFAULT_BASE_URL = 'https://serpapi.com'

/** `en-US` → hl=en, gl=us (Google's language and country parameters). */
export function googleLocale(locale: string): { hl: string; gl?: string } {
  const [language, country] = locale.trim().split(/[-_]/)
  return { hl: (language || 'en').toLowerCase(), ...(country ? { gl: country.toLowerCase() } : {}) }
}

function flattenBlocks(blocks: unknown, depth: number, lines: string[], referenceOrder: number[]): void {
  const noteReferences = (item: JsonObject) => {
    for (const index of asArray(item.reference_indexes)) if (typeof index === 'number') referenceOrder.push(index)
  }
  for (const block of asArray(blocks)) {
    if (!isObject(block)) continue
    noteReferences(block)
    const indent = '  '.repeat(depth)
    if (Array.isArray(block.list)) {
      const title = asString(block.title)
      if (title) lines.push(indent + title)
      flattenList(block.list, depth, lines, referenceOrder)
    } else if (Array.isArray(block.table)) {
      for (const row of block.table)
        lines.push(
          indent +
            asArray(row)
              .map((cell) => (typeof cell === 'string' ? cell : ''))
              .join(' | '),
        )
    } else {
      const text = asString(block.snippet) ?? asString(block.title)
      if (text) lines.push(indent + text)
      if (Array.isArray(block.text_blocks)) flattenBlocks(block.text_blocks, depth + 1, lines, referenceOrder)
    }
  }
}

function flattenList(items: unknown[], depth: number, lines: string[], referenceOrder: number[]): void {
  const indent = '  '.repeat(depth)
  for (const item of items) {
    if (!isObject(item)) continue
    for (const index of asArray(item.reference_indexes)) if (typeof index === 'number') referenceOrder.push(index)
    const title = asString(item.title)
    const snippet = asString(item.snippet)
    const text = title && snippet ? `${title}: ${snippet}` : (title ?? snippet)
    if (text) lines.push(`${indent}- ${text}`)
    if (Array.isArray(item.list)) flattenList(item.list, depth + 1, lines, referenceOrder)
    if (Array.isArray(item.text_blocks)) flattenBlocks(item.text_blocks, depth + 1, lines, referenceOrder)
  }
}

/** Reads an `ai_overview` object: its text (blocks and lists flattened to lines) and its references, in order of first citation. */
export function parseSerpApiOverview(overview: unknown): Pick<AioAnswer, 'hasAio' | 'overviewText' | 'citations'> {
  if (!isObject(overview)) return { hasAio: false, overviewText: '', citations: [] }
  const lines: string[] = []
  const referenceOrder: number[] = []
  flattenBlocks(overview.text_blocks, 0, lines, referenceOrder)
  const references = asArray(overview.references).filter(isObject)
  const byIndex = new Map<number, JsonObject>()
  references.forEach((reference, position) => byIndex.set(typeof reference.index === 'number' ? reference.index : position, reference))
  const citations = new CitationList()
  for (const index of referenceOrder) {
    const reference = byIndex.get(index)
    if (reference) citations.add(reference.link, reference.title)
  }
  for (const reference of references) citations.add(reference.link, reference.title)
  const overviewText = lines.join('\n')
  return { hasAio: overviewText !== '' || citations.size > 0, overviewText, citations: citations.list() }
}

/**
 * Reads what the adapter stored as `raw`: the search JSON, or `{search, follow_up}` when the
 * overview needed the page_token request.
 */
export function parseSerpApiRaw(raw: unknown): Pick<AioAnswer, 'hasAio' | 'overviewText' | 'citations'> {
  if (isObject(raw) && isObject(raw.search) && 'follow_up' in raw) return parseSerpApiOverview(isObject(raw.follow_up) ? raw.follow_up.ai_overview : undefined)
  return parseSerpApiOverview(isObject(raw) ? raw.ai_overview : undefined)
}

const NO_RESULTS = /hasn't returned any results|no results/i
/** SerpApi's words when the plan's searches are used up; the same 429 otherwise means the hourly throughput limit. */
const OUT_OF_SEARCHES = /run out of searches|no searches (left|remaining)|plan.{0,40}(limit|searches).{0,20}(reached|exceeded)/i

export function createSerpApiAdapter(options: { baseURL: string; fetch?: typeof fetch; fallbackApiKey?: string }): AioAdapter {
  const label = 'serpapi'
  const doFetch = options.fetch ?? fetch
  const base = options.baseURL.replace(/\/+$/, '')

  async function get(params: Record<string, string>, signal: AbortSignal): Promise<JsonObject> {
    const url = `${base}/search.json?${new URLSearchParams(params).toString()}`
    const response = await doFetch(url, { signal, headers: { accept: 'application/json' } })
    if (!response.ok) {
      const body = await response.text()
      let message = body
      try {
        const parsed: unknown = JSON.parse(body)
        if (isObject(parsed) && typeof parsed.error === 'string') message = parsed.error
      } catch {
        // not JSON: keep the text
      }
      if (OUT_OF_SEARCHES.test(message)) throw nonAnswer(label, 'quota_exhausted', withoutUsage(message), { status: response.status })
      throw providerError(label, kindForStatus(response.status), message || response.statusText, { status: response.status, retryAfterMs: parseRetryAfter(response.headers) })
    }
    const json = await readJson(label, response)
    if (!isObject(json)) throw malformed(label, 'the answer is not a JSON object')
    if (typeof json.error === 'string' && OUT_OF_SEARCHES.test(json.error)) throw nonAnswer(label, 'quota_exhausted', withoutUsage(json.error, json))
    if (typeof json.error === 'string' && !NO_RESULTS.test(json.error)) throw providerError(label, 'bad_request', json.error)
    return json
  }

  return {
    serp: 'serpapi',
    async observe(request: AioRequest): Promise<AioAnswer> {
      const apiKey = request.apiKey ?? options.fallbackApiKey
      if (!apiKey) throw providerError(label, 'unauthorized', 'no API key: store a credential for serpapi or set SERPAPI_API_KEY')
      const { result, latencyMs } = await callProvider(label, request, async (signal) => {
        const search = await get({ engine: 'google', q: request.query, ...googleLocale(request.locale), no_cache: 'true', api_key: apiKey }, signal)
        const overview = isObject(search.ai_overview) ? search.ai_overview : undefined
        const pageToken = overview && !Array.isArray(overview.text_blocks) ? asString(overview.page_token) : undefined
        if (!pageToken) return { raw: search as unknown, requests: 1 }
        const followUp = await get({ engine: 'google_ai_overview', page_token: pageToken, api_key: apiKey }, signal)
        return { raw: { search, follow_up: followUp } as unknown, requests: 2 }
      })
      return { ...parseSerpApiRaw(result.raw), latencyMs, raw: result.raw, requests: result.requests }
    },
  }
}
