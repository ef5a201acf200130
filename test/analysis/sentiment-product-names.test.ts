// A brand in an AI answer is followed by the rest of its product's name ("Breville Bambino
// Plus", "Spalding Zi/O Excel"); wink scores some of those words, but a name is not a verdict.
// And a capitalised word inside an item's label is a word of the name, not the label's verb
// ("Beats Fit Pro:", "JLab Go Air Sport:"), so the label still names an item.
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { inlineItems } from '../../src/analysis/answer-structure.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { withoutProductNames } from '../../src/analysis/product-names.js'
import { scoreSentences } from '../../src/analysis/sentiment.js'

const brands: BrandTerms[] = ['Breville', 'Spalding', 'Apple', 'Beats', 'JLab'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiment = (content: string, brand: string) => analyzeResponse({ content }, matcher).mentions.find((m) => m.brandId === brand)?.sentiment

describe('the words of a product name after the brand', () => {
  it('score nothing for the brand', () => {
    // wink: "Plus" +0.69, "Excel" +0.5, "Furious" −0.25
    expect(sentiment('Breville Bambino Plus: A compact machine.', 'Breville')).toBe(0)
    expect(sentiment('Spalding Zi/O Excel is on the list.', 'Spalding')).toBe(0)
    expect(sentiment('The Breville Fresh & Furious Blender is on the list.', 'Breville')).toBe(0)
  })

  it('leave what the answer says of the product', () => {
    expect(sentiment('Breville Bambino Plus: A great, compact machine.', 'Breville')!).toBeGreaterThan(0.05)
    expect(sentiment('The Breville Bambino Plus is unreliable.', 'Breville')!).toBeLessThan(-0.05)
    // a capitalised adjective opening a fragment after the name is a verdict, not a name
    const content = 'Apple AirPods Pro 2 Excellent noise cancellation'
    const [sentence] = scoreSentences(content)
    expect(withoutProductNames(sentence, matcher.match(content, []))).toBe(sentence)
  })

  it('leaves the line’s own scores and the sentence untouched when no name word scores', () => {
    const content = 'Breville Bambino Plus: A great machine.'
    const [sentence] = scoreSentences(content)
    const before = [...sentence.tokens!.score]
    const named = withoutProductNames(sentence, matcher.match(content, []))
    expect(named).not.toBe(sentence)
    expect(sentence.tokens!.score).toEqual(before)
    expect(named.sentiment).toBeLessThan(sentence.sentiment)
    // a sentence in capitals is not a run of names
    const shouted = 'BREVILLE NOT SO GREAT, SERVICE OK.'
    const [loud] = scoreSentences(shouted)
    expect(withoutProductNames(loud, matcher.match(shouted, []))).toBe(loud)
    const plain = scoreSentences('Breville: A great machine.')[0]
    expect(withoutProductNames(plain, matcher.match('Breville: A great machine.', []))).toBe(plain)
  })
})

describe('an item label whose name holds a word wink tags as a verb', () => {
  it('is still an item', () => {
    for (const [content, label] of [
      ['Top Picks: Beats Fit Pro:While pricey, they offer excellent sound.', 'Beats Fit Pro'],
      ['JLab Go Air Sport: A secure, comfortable fit.', 'JLab Go Air Sport'],
    ]) {
      const [sentence] = scoreSentences(content)
      expect(inlineItems(sentence)!.map((i) => content.slice(i.label[0], i.label[1]))).toEqual([label])
    }
    expect(sentiment('Top Picks: Beats Fit Pro:While pricey, they offer excellent sound.', 'Beats')!).toBeGreaterThan(0.05)
  })

  it('is not an item when the label opens with a verb or holds a lower-case one', () => {
    for (const content of ['So are cooked plates: tasty and cheap.', 'Consider these: Beats and JLab.']) {
      expect(inlineItems(scoreSentences(content)[0])).toEqual([])
    }
  })
})
