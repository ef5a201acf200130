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
  const url = normalizeUrl(raw)
  if (url === null) return null
  let citation = byUrl.get(url)
  if (!citation) {
    // normalizeUrl only accepts hosts that have a registrable domain.
    citation = { url, domain: registrableDomain(url) as string, title: '' }
    byUrl.set(url, citation)
  }
  return citation
}
