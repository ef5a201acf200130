// Lexicon entries for AI answers' layout words (issue 30): each entry is data with its reason
// in data/sentiment-lexicon.json; these cases show what each one is for.
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { LEXICON } from '../../src/analysis/sentiment-lexicon.js'

const brands: BrandTerms[] = ['Vitamix', 'Ninja'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))

describe('answer layout words in the lexicon', () => {
  it('reads "Yes" in a comparison table as a value, not praise', () => {
    expect(LEXICON.neutral.has('yes')).toBe(true)
    const table = ['| Blender | Watts | Self-cleaning | Price |', '| --- | --- | --- | --- |', '| Vitamix A3500 | 1500 | Yes | $550 |', '| Ninja BN701 | 1400 | No | $140 |'].join(
      '\n',
    )
    const s = sentiments(table)
    expect(s.Vitamix).toBe(0)
    expect(s.Ninja).toBe(0)
  })
  it('reads the recommendation words of product answers as praise', () => {
    for (const [line, word] of [
      ['Ninja BN701: Ideal for bass lovers and smoothie fans.', 'ideal'],
      ['Ninja BN701: It excels in crushing ice.', 'excels'],
      ['Ninja BN701: Stands out with its unique design.', 'stands out'],
      ['Ninja BN701: A standout for the price, with a sleek, stylish jar.', 'standout'],
    ]) {
      expect(LEXICON.scores.has(word) || LEXICON.phrases.has(word.split(' ')[0]), word).toBe(true)
      expect(sentiments(line).Ninja, line).toBeGreaterThan(0.05)
    }
  })
})
