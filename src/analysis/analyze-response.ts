// The single analysis entry point ingestion calls for each stored AI response.
import { extractCitations, type Citation, type CitationInput } from './citations.js'
import { BrandMatcher, compileBrandMatcher, mentionsFromMatches, type BrandTerms, type MentionMatch } from './mentions.js'
import { scoreBrandsInSentence } from './clauses.js'
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
export function analyzeResponse(input: { content: string; citations?: CitationInput[] | null }, brands: readonly BrandTerms[] | BrandMatcher): ResponseAnalysis {
  const content = typeof input.content === 'string' ? input.content : ''
  const urlSpans = findUrlSpans(content)
  const matcher = brands instanceof BrandMatcher ? brands : compileBrandMatcher(brands)
  const blank = !/\S/u.test(content)
  const sentences = blank ? [] : scoreSentences(content)

  const matches = matcher.match(content, urlSpans)
  const sentiments = blank ? null : brandSentiments(matches, sentences)
  const mentions = mentionsFromMatches(matches).map((m) => ({
    brandId: m.brandId,
    occurrences: m.occurrences,
    position: m.position,
    sentiment: sentiments === null ? null : (sentiments.get(m.brandId) ?? null),
  }))

  return {
    sentiment: blank ? null : meanSentiment(sentences),
    mentions,
    citations: extractCitations(content, input.citations ?? [], urlSpans),
  }
}

/**
 * Each brand's sentiment: the mean, over the sentences that name it (each sentence once
 * however often), of what the sentence says about that brand (scoreBrandsInSentence:
 * its own clauses, comparisons, negation scope). A brand with no sentence holding a
 * match is absent (cannot happen for matched words). `matches` sorted by start.
 */
export function brandSentiments(matches: readonly MentionMatch[], sentences: readonly ScoredSentence[]): Map<string, number> {
  const tallies = new Map<string, { sum: number; count: number }>()
  let m = 0
  for (const sentence of sentences) {
    while (m < matches.length && matches[m].end <= sentence.start) m++
    // A match may straddle a sentence boundary (an abbreviation's dot); every sentence it
    // overlaps mentions the brand.
    let k = m
    const inSentence: MentionMatch[] = []
    while (k < matches.length && matches[k].start < sentence.end) inSentence.push(matches[k++])
    if (inSentence.length === 0) continue
    for (const [brandId, score] of scoreBrandsInSentence(sentence, inSentence)) {
      const tally = tallies.get(brandId)
      if (tally) {
        tally.sum += score
        tally.count++
      } else tallies.set(brandId, { sum: score, count: 1 })
    }
  }
  const out = new Map<string, number>()
  for (const [brandId, { sum, count }] of tallies) out.set(brandId, sum / count)
  return out
}

/** One brand's sentiment over `sentences` (its matches only; see brandSentiments). Null if no sentence holds a match. */
export function brandSentiment(matches: readonly MentionMatch[], sentences: readonly ScoredSentence[]): number | null {
  if (matches.length === 0) return null
  return brandSentiments(matches, sentences).get(matches[0].brandId) ?? null
}
