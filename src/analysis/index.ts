// Public surface of the analysis module (pure functions used at ingest).
export { analyzeResponse, brandSentiment, brandSentiments, type ResponseAnalysis } from './analyze-response.js'
export { scoreBrandsInSentence } from './clauses.js'
export { findAioAppearances } from './aio.js'
export { extractCitations, type Citation, type CitationInput } from './citations.js'
export {
  BrandMatcher,
  compileBrandMatcher,
  compileBrandMatcherAsync,
  configureMatcherCache,
  matcherCache,
  matcherCacheStats,
  findMentionMatches,
  findMentions,
  mentionsFromMatches,
  positionsFromFirstIndexes,
  type BrandMention,
  type BrandTerms,
  type MentionMatch,
} from './mentions.js'
export { meanSentiment, scoreSentences, sentenceSentiment, splitSentences, textSentiment, type ScoredSentence, type Sentence } from './sentiment.js'
export { classifySource, compileSourceClassifier, hasInstitutionalSuffix, loadSourceDomains, type SourceContext, type SourceType } from './source-types.js'
export { findUrlSpans, normalizeUrl, registrableDomain, type UrlSpan } from './urls.js'
