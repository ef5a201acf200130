// Google AI Mode answers lose their line breaks: "Gaggia Classic Pro: A classic machine.Pros:
// Durable, good value.Cons:Requires a separate grinder.Breville Bambino Plus: …". The Pros/Cons
// labels there are the item's lists (issue 30: "Pros:"/"Cons:" blocks are weighed), not items
// of their own; and a brand another item's list names in comparison is not weighed by it.
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { layoutOf } from '../../src/analysis/answer-structure.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { scoreSentences } from '../../src/analysis/sentiment.js'

const brands: BrandTerms[] = ['Gaggia', 'Acme', 'Dell', 'ASUS'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment]))

describe('a run-in Pros/Cons label after an item', () => {
  it('continues the item, weighted', () => {
    const content = 'Gaggia Classic Pro: A machine with a 58mm portafilter.Pros:Heavy steel body.Cons:Loud, slow, and unreliable.'
    const sentences = scoreSentences(content)
    const layout = layoutOf(content, sentences)
    expect(sentences.map((s) => s.text)).toEqual(['Gaggia Classic Pro: A machine with a 58mm portafilter.', 'Pros:Heavy steel body.', 'Cons:Loud, slow, and unreliable.'])
    expect(layout.map((l) => l.itemLead)).toEqual([null, 0, 0])
    expect(layout.map((l) => l.weight)).toEqual([null, 'pros', 'cons'])
  })

  it('judges the item’s product', () => {
    // Before, the lists named no product and their words went to nobody: 0.
    expect(sentiments('Acme X1: A machine.Cons:Loud, slow, and unreliable.').Acme).toBeLessThan(-0.05)
    expect(sentiments('Acme X1: A machine.Pros:Heavy steel body.').Acme).toBeGreaterThan(0.05)
  })

  it('does not weigh a brand named in another item’s list', () => {
    // "more expensive than the ASUS" is said of the Dell; the ASUS got the Cons floor (−0.3).
    expect(sentiments('Dell U2723QE: A sharper display.Cons: More expensive than the ASUS ProArt.').ASUS).toBeGreaterThan(-0.05)
    expect(sentiments('1. **Dell U2723QE**\n   **Cons:**\n   - More expensive than the ASUS ProArt.').ASUS).toBeGreaterThan(-0.05)
    expect(sentiments('1. **Dell U2723QE**\n   **Cons:**\n   - More expensive than the ASUS ProArt.').Dell).toBeLessThan(-0.05)
  })
})
