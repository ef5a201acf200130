import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher } from '../../src/analysis/mentions.js'

// File name: sentiment-*.test.ts (sixth-round lexicon entries for review sentences).

/** Sign of the sentiment of `term` in `text`, with only that term configured (as the public evaluation has it). */
function sign(text: string, term: string): number {
  const analysis = analyzeResponse({ content: text }, compileBrandMatcher([{ id: 'target', name: term, aliases: [], domain: null }]))
  const score = analysis.mentions.find((m) => m.brandId === 'target')?.sentiment ?? 0
  return Math.abs(score) <= 0.05 ? 0 : Math.sign(score)
}

describe('review words wink leaves neutral (sixth round lexicon)', () => {
  it('scores dry food, prompt service and authentic dishes', () => {
    expect(sign('The chicken was dry.', 'chicken')).toBe(-1)
    expect(sign('Service was prompt.', 'Service')).toBe(1)
    expect(sign('The tacos taste authentic.', 'tacos')).toBe(1)
  })

  it('reads a lexicon word opening a compound as a kind, not a verdict', () => {
    expect(sign('The menu lists a dry-aged steak.', 'steak')).toBe(0)
  })

  it('scores late arrival, not a late hour', () => {
    expect(sign('Our order arrived late.', 'order')).toBe(-1)
    expect(sign('The delivery was late again.', 'delivery')).toBe(-1)
    expect(sign('We had a late dinner at the bistro.', 'dinner')).toBe(0)
  })
})

describe('"as well" meaning "too" (sixth round)', () => {
  it('does not praise what the writer also had', () => {
    expect(sign('I got a coke and a dessert as well.', 'dessert')).toBe(0)
  })

  it('keeps "well" as praise elsewhere', () => {
    expect(sign('The blender works well.', 'blender')).toBe(1)
  })
})
