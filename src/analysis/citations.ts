// The sources an answer cites: the provider's own citation list plus links written in
// the answer text, one entry per normalized URL.
import { findUrlSpans, normalizeUrl, registrableDomain, type UrlSpan } from './urls.js'

export interface CitationInput {
  url: string
  title?: string | null
}

export interface Citation {
  url: string
  /** Registrable domain of `url` (public suffix list). */
  domain: string
  /** Last non-empty provider title for this URL, else "". */
  title: string
}

/**
 * Citations of one response, de-duplicated by normalized URL in first-seen order
 * (provider list first, then the content). Only provider titles are used: markdown
 * link text is the model's wording, often "[1]" or "here", not the page's title.
 * URLs that do not normalize (other schemes, no registrable domain) are skipped.
 */
export function extractCitations(content: string, provided: readonly CitationInput[], contentUrlSpans: readonly UrlSpan[] = findUrlSpans(content ?? '')): Citation[] {
  const byUrl = new Map<string, Citation>()
  for (const input of provided ?? []) {
    if (!input || typeof input.url !== 'string') continue
    const citation = addUrl(byUrl, input.url)
    const title = typeof input.title === 'string' ? input.title.trim() : ''
    if (citation && title !== '') citation.title = title
  }
  for (const span of contentUrlSpans) addUrl(byUrl, span.url)
  return [...byUrl.values()]
}

function addUrl(byUrl: Map<string, Citation>, raw: string): Citation | null {
  const normalized = normalizeCitationUrl(raw)
  if (normalized === null) return null
  let citation = byUrl.get(normalized.url)
  if (!citation) {
    citation = { url: normalized.url, domain: normalized.domain, title: '' }
    byUrl.set(normalized.url, citation)
  }
  return citation
}

// Answers cite the same pages again and again, and each URL was parsed twice (to
// normalize it, then for its domain): ~5% of analysing an answer. Both are pure functions
// of the raw text, so they are kept per raw URL; bounded, cleared when full.
const normalizedUrls = new Map<string, { url: string; domain: string } | null>()
const NORMALIZED_URLS_LIMIT = 10_000

function normalizeCitationUrl(raw: string): { url: string; domain: string } | null {
  let normalized = normalizedUrls.get(raw)
  if (normalized === undefined) {
    const url = normalizeUrl(raw)
    // normalizeUrl only accepts hosts that have a registrable domain.
    normalized = url === null ? null : { url, domain: registrableDomain(url) as string }
    if (normalizedUrls.size >= NORMALIZED_URLS_LIMIT) normalizedUrls.clear()
    normalizedUrls.set(raw, normalized)
  }
  return normalized
}
