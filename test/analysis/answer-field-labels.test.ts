// A leading bold field label ("**Why It's Great:** …") and the brand named in its text: wink
// reads the label's colon and bold marker as one emoticon token (":*"), so the label ran
// into the first clause of the text and the brand named there lost what the text says of it
// (AI Product Bench, issue 30: "**Why It’s Great:** The Beats Solo Pro offers solid noise
// cancellation, a snappy design, and seamless integration with Apple products." → Beats 0).
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = ['Beats', 'Sony'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))

const text = 'The Beats Solo Pro offers solid noise cancellation, a snappy design, and seamless integration.'

describe('a brand named after a leading bold field label', () => {
  it('is scored on the label’s text alone, as without the label', () => {
    for (const label of ['**Why It’s Great:** ', "**Why it's great**: ", '__Highlights:__ ']) expect(sentiments(label + text).Beats, label).toBeCloseTo(sentiments(text).Beats, 6)
    expect(sentiments(text).Beats).toBeGreaterThan(0.05)
  })

  it('keeps a complaint in the text a complaint', () => {
    expect(sentiments('**Why It’s Not for Everyone:** Sony headphones are heavy and uncomfortable.').Sony).toBeLessThan(-0.05)
  })

  it('leaves a brand named in the label itself to the item rules', () => {
    // "**Sony WH-1000XM5:** …" names its item: the blurb is what the answer says of it.
    expect(sentiments('**Sony WH-1000XM5:** Industry-leading noise cancellation and excellent sound.').Sony).toBeGreaterThan(0.05)
  })
})
