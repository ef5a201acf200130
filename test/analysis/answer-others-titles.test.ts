// "Other …" titles name the kind of product they list ("Other Notable Luxury EVs:", "Other
// outdoor retailers:", "### Other Highly-Rated Sets"): they open an "other options" section
// whatever that kind is, when written as a title, unless the section is about the product
// itself ("Other Perks:", "Other Considerations:"). Issue 30, AI Product Bench.
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { isOthersTitle } from '../../src/analysis/answer-structure.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = ['Lucid', 'Rivian', 'Tesla'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))

describe('"Other <kind of product>" titles', () => {
  it('are "other options" titles whatever kind of product they name', () => {
    for (const title of [
      'Other Notable Luxury EVs:',
      'Other outdoor retailers:',
      '### Other Highly-Rated Sets',
      '**Other Carriers with Senior Discounts:**',
      'Others Worth a Look:',
    ])
      expect(isOthersTitle(title), title).toBe(true)
  })

  it('are not when they name more about the product or the choice, or are not written as titles', () => {
    for (const title of [
      'Other Perks:',
      'Other Considerations:',
      '### Other features',
      'Additional Features:',
      'Other factors to keep in mind:',
      'Other features include Wi-Fi',
      'Other:',
      'Other brands are fine too.',
    ])
      expect(isOthersTitle(title), title).toBe(false)
  })

  it('make the products listed under them neutral, in their own lines or run into one line', () => {
    const lines = [
      '### 1. Tesla Model S',
      '',
      '- Excellent range and a superb charging network',
      '',
      '### Other Notable Luxury EVs',
      '',
      '- Lucid Air: excellent range and a gorgeous cabin',
    ]
    const s = sentiments(lines.join('\n'))
    expect(s.Tesla).toBeGreaterThan(0.05)
    expect(s.Lucid).toBe(0)
    const runOn = sentiments('Tesla Model S: Excellent range and a superb charging network. Other Notable Luxury EVs: Rivian R1S: A superb, capable SUV with excellent range.')
    expect(runOn.Tesla).toBeGreaterThan(0.05)
    expect(runOn.Rivian).toBe(0)
  })

  it('end at a no-break space as well as a colon in answers whose line breaks were lost', () => {
    const text = 'Tesla Model S: Excellent range and a superb charging network.\u00a0Other Highly-Rated EVs\u00a0Rivian R1S: A superb, capable SUV with excellent range.'
    const s = sentiments(text)
    expect(s.Tesla).toBeGreaterThan(0.05)
    expect(s.Rivian).toBe(0)
    // A no-break space after ordinary words opens nothing.
    expect(sentiments('Tesla Model S: Excellent range.\u00a0Rivian R1S\u00a0Excellent range and a superb cabin.').Rivian).toBeGreaterThan(0.05)
  })
})
