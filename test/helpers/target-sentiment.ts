import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher } from '../../src/analysis/mentions.js'

/** Sign of the sentiment of `term` in `text`, with only that term configured (as the public evaluation has it). */
export function sign(text: string, term: string): number {
  const analysis = analyzeResponse({ content: text }, compileBrandMatcher([{ id: 'target', name: term, aliases: [], domain: null }]))
  const score = analysis.mentions.find((m) => m.brandId === 'target')?.sentiment ?? 0
  return Math.abs(score) <= 0.05 ? 0 : Math.sign(score)
}
