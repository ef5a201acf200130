// Small readers for provider JSON. Parsing works on `unknown` (the raw JSON we store), not on the
// SDKs' types, so a stored answer can be re-parsed later without the SDK that fetched it.
import type { ProviderCitation } from './types.js'

export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** A non-negative count; providers omit usage on some answers, which counts as 0. */
export function asCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0
}

/** Cited sources in order of first citation, one per URL; a later mention may supply a missing title. */
export class CitationList {
  private readonly byUrl = new Map<string, ProviderCitation>()

  add(url: unknown, title?: unknown): void {
    if (typeof url !== 'string') return
    const trimmed = url.trim()
    if (!/^https?:\/\//i.test(trimmed)) return
    const cleanTitle = typeof title === 'string' && title.trim() !== '' ? title.trim() : null
    const existing = this.byUrl.get(trimmed)
    if (existing) {
      if (!existing.title && cleanTitle) existing.title = cleanTitle
      return
    }
    this.byUrl.set(trimmed, { url: trimmed, title: cleanTitle })
  }

  get size(): number {
    return this.byUrl.size
  }

  list(): ProviderCitation[] {
    return [...this.byUrl.values()]
  }
}

/** The engine's own search queries, in order of first use, one per text. */
export class QueryList {
  private readonly seen = new Set<string>()

  add(query: unknown): void {
    if (typeof query !== 'string') return
    const trimmed = query.trim()
    if (trimmed !== '') this.seen.add(trimmed)
  }

  list(): string[] {
    return [...this.seen]
  }
}

/** What each adapter's pure parser returns; the adapter adds latency and the raw JSON. */
export interface ParsedAnswer {
  content: string
  citations: ProviderCitation[]
  modelServed: string
  tokensIn: number
  tokensOut: number
  webSearchCalls: number
  /** the queries the engine searched (ProviderAnswer.searchQueries) */
  searchQueries?: string[]
}

/**
 * The most output tokens asked for in one answer. Sent as each API's output cap, so the price
 * table's pre-request estimate (src/collection/prices.ts) is a true upper bound on output.
 * Reasoning models spend part of it thinking (OpenAI counts reasoning in max_output_tokens,
 * Gemini's thoughts count too), so it leaves room beyond a typical 500–1,500-token answer.
 */
export const MAX_OUTPUT_TOKENS = 8192

/** The cap of the one retry of an answer cut by the output limit (docs/collection.md, `incomplete`). */
export const RETRY_OUTPUT_TOKENS = 2 * MAX_OUTPUT_TOKENS

/** Most searches one Anthropic answer may run (the tool's max_uses), bounding the search cost. */
export const MAX_WEB_SEARCHES = 5
