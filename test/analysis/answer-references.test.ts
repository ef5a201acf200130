// Markdown link reference definitions ("[4]: https://… \"Page title\""): ChatGPT answers end
// with one per cited page, its title quoted from the page. The title is the source's words,
// not the answer's, so it says nothing of the brands it names (AI Product Bench, issue 30).
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = ['Philips', 'Breville'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment]))

describe('link reference definitions are citations, not the answer’s words', () => {
  it('scores a brand named only in a cited page’s title as neutral', () => {
    const content = [
      '### 1. Breville Bambino Plus',
      '',
      '* Fast heat-up and an excellent automatic steam wand.',
      '',
      '[4]: https://www.techradar.com/home/coffee-machines/philips-barista-brew-review?utm_source=chatgpt.com "The Philips Barista Brew espresso machine is good-looking and well priced"',
    ].join('\n')
    const s = sentiments(content)
    expect(s.Philips).toBe(0)
    expect(s.Breville).toBeGreaterThan(0.05)
  })

  it('keeps the answer’s own bracketed text: a link in a sentence, a footnote-style label with no destination', () => {
    expect(sentiments('[Philips](https://philips.com) makes an excellent machine.').Philips).toBeGreaterThan(0.05)
    expect(sentiments('[Pick]: Philips is excellent.').Philips).toBeGreaterThan(0.05)
  })
})
