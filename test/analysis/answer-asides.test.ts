// A brand named in an aside in parentheses in another product's line ("Spatial audio (Apple
// ecosystem bonus)", "(e.g., Jabra Elite 4 Active, Beats Fit Pro)") is named in passing: the
// line judges its item's product. A parenthesis holding only a name is the product's maker
// ("Eero Pro 6E (Amazon)") and keeps counting (AI Product Bench, issue 30).
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = ['Apple', 'Jabra', 'Amazon', 'Netgear'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))

describe('a brand in an aside in parentheses under another product', () => {
  it('is named in passing: neutral there', () => {
    const s = sentiments(['### 2. Jabra Elite 8 Active', '', '**Pros:**', '', '* Great bass and excellent spatial audio (Apple ecosystem bonus)'].join('\n'))
    expect(s.Apple).toBe(0)
    expect(s.Jabra).toBeGreaterThan(0.05)
  })

  it('is not when the parenthesis holds only the name: the product’s maker', () => {
    const s = sentiments(
      ['### 1. Netgear Orbi 970', '', '* Excellent coverage', '', '### 2. Eero Pro 6E (Amazon)', '', '* Excellent, reliable coverage and a great app'].join('\n'),
    )
    expect(s.Amazon).toBeGreaterThan(0.05)
  })

  it('counts as before as the sentence’s subject', () => {
    expect(sentiments('Apple makes excellent earbuds (the AirPods Pro are superb).').Apple).toBeGreaterThan(0.05)
  })
})
