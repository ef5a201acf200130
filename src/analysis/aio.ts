// Brands in a search engine's AI overview (AIO): which appear and in what order.
import { findMentions, type BrandMatcher, type BrandTerms } from './mentions.js'

/**
 * Brands appearing in an AI overview with their position (same rule as in answers:
 * 1 + brands mentioned earlier), sorted by position. No overview, no appearances.
 */
export function findAioAppearances(overviewText: string | null | undefined, brands: readonly BrandTerms[] | BrandMatcher): { brandId: string; position: number }[] {
  if (!overviewText) return []
  return findMentions(overviewText, brands).map(({ brandId, position }) => ({ brandId, position }))
}
