// Query fan-out (docs/collection.md): the web searches an engine ran itself for one answer.
// Stored per answer in the engine's order, one row per distinct search; the grouping key
// makes "Best CRM 2026" and "best  crm 2026" one query in the ranking (GET /api/v1/search-queries).

/** Longest query kept, in characters: engines' searches are short, and a key must fit a btree entry. */
export const MAX_SEARCH_QUERY_CHARS = 400
/** Searches kept per answer: agentic search runs dozens at most. */
export const MAX_SEARCH_QUERIES_PER_ANSWER = 100

/** The form queries are grouped by: NFKC (full-width and ligature forms fold), lower case, inner white space collapsed. */
export function searchQueryKey(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

/**
 * What an adapter reported, as stored: trimmed, blank ones dropped, cut to
 * MAX_SEARCH_QUERY_CHARS (a provider's long query must not cost the answer), the first of
 * each key kept, at most MAX_SEARCH_QUERIES_PER_ANSWER. Undefined when there is none.
 */
export function cleanSearchQueries(queries: readonly string[] | null | undefined): string[] | undefined {
  if (!queries?.length) return undefined
  const seen = new Set<string>()
  const kept: string[] = []
  for (const raw of queries) {
    if (typeof raw !== 'string') continue
    const query = Array.from(raw.replace(/\s+/g, ' ').trim()).slice(0, MAX_SEARCH_QUERY_CHARS).join('')
    const key = searchQueryKey(query)
    if (!key || seen.has(key)) continue
    seen.add(key)
    kept.push(query)
    if (kept.length === MAX_SEARCH_QUERIES_PER_ANSWER) break
  }
  return kept.length ? kept : undefined
}
