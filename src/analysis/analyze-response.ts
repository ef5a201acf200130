// The single analysis entry point ingestion calls for each stored AI response.
import { extractCitations, type Citation, type CitationInput } from './citations.js'
import { BrandMatcher, compileBrandMatcher, mentionsFromMatches, type BrandTerms, type MentionMatch } from './mentions.js'
import { meanSentiment, scoreSentences, type ScoredSentence } from './sentiment.js'
import { findUrlSpans } from './urls.js'

export interface ResponseAnalysis {
  sentiment: number | null
  mentions: { brandId: string; occurrences: number; position: number; sentiment: number | null }[]
  citations: Citation[]
}

/**
 * Mentions (with positions and per-brand sentiment), response sentiment and citations of
 * one response. The text is parsed by the NLP model once; URL spans are found once and
 * shared by mention matching and citation extraction.
 */
export function analyzeResponse(
  input: { content: string; citations?: CitationInput[] | null },
  brands: readonly BrandTerms[] | BrandMatcher,
): ResponseAnalysis {
  const content = typeof input.content === 'string' ? input.content : ''
  const urlSpans = findUrlSpans(content)
  const matcher = brands instanceof BrandMatcher ? brands : compileBrandMatcher(brands)
  const blank = !/\S/u.test(content)
  const sentences = blank ? [] : scoreSentences(content)

  const mentions = mentionsFromMatches(matcher.match(content, urlSpans)).map((m) => ({
    brandId: m.brandId,
    occurrences: m.occurrences,
    position: m.position,
    sentiment: blank ? null : brandSentiment(m.matches, sentences),
  }))

  return {
    sentiment: blank ? null : meanSentiment(sentences),
    mentions,
    citations: extractCitations(content, input.citations ?? [], urlSpans),
  }
}

/**
 * Mean sentiment of the sentences that contain at least one of the brand's matches, each
 * sentence counted once however often it names the brand. Null if no sentence holds a
 * match (cannot happen for matched words, kept as the honest answer rather than 0).
 */
export function brandSentiment(matches: readonly MentionMatch[], sentences: readonly ScoredSentence[]): number | null {
  // Both lists are sorted by start, so one forward walk suffices.
  let sum = 0
  let count = 0
  let s = 0
  let lastCounted = -1
  for (const match of matches) {
    while (s < sentences.length && sentences[s].end <= match.start) s++
    // A match may straddle a sentence boundary (an abbreviation's dot); every sentence it
    // overlaps mentions the brand.
    for (let k = s; k < sentences.length && sentences[k].start < match.end; k++) {
      if (k > lastCounted) {
        sum += sentences[k].sentiment
        count++
        lastCounted = k
      }
    }
  }
  return count === 0 ? null : sum / count
}
