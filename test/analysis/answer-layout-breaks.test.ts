// A thematic break ("---") ends the blocks above it: answers put one between a product's
// section and the next, or before their closing remarks, which are not the last product's
// lines (AI Product Bench, issue 30: "### 9. Samsung Galaxy Buds Pro" … "---" / "What type of
// features are most important to you?" was read as what the answer says of the Samsung).
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = ['Sony', 'Bose'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))

const section = ['### 1. Bose QuietComfort 45', '', '* Excellent noise cancelling', '', '### 2. Sony WH-CH720N', '', '* Light and comfortable', '* Average battery life']

describe('a thematic break ends the blocks above it', () => {
  it('leaves closing remarks after "---" to nobody', () => {
    const closing = ['', '---', '', 'Sadly, prices are terrible and stock is awful this year.']
    expect(sentiments([...section, ...closing].join('\n')).Sony).toBe(sentiments(section.join('\n')).Sony)
    expect(sentiments([...section, ...closing].join('\n')).Sony).toBeGreaterThan(0.05)
  })

  it('accepts every CommonMark form of the break', () => {
    for (const rule of ['***', '___', '- - -', ' ---- ']) {
      const content = [...section, '', rule, '', 'Sadly, prices are terrible and stock is awful this year.'].join('\n')
      expect(sentiments(content).Sony).toBe(sentiments(section.join('\n')).Sony)
    }
  })

  it('keeps a heading’s lines without a break, and the sections between breaks', () => {
    // Without the break the paragraph is still under the heading (a heading owns its body).
    const content = [...section, '', 'Sadly, its case is terrible and the hinge is awful.'].join('\n')
    expect(sentiments(content).Sony).toBeLessThan(sentiments(section.join('\n')).Sony)
    // A break between products leaves each its own lines.
    const separated = ['### 1. Bose QuietComfort 45', '', '* Excellent noise cancelling', '', '---', '', '### 2. Sony WH-CH720N', '', '* Terrible hinge and awful case'].join('\n')
    expect(sentiments(separated).Bose).toBeGreaterThan(0.05)
    expect(sentiments(separated).Sony).toBeLessThan(-0.05)
  })
})

describe('a generic section’s title standing alone', () => {
  it('names the lines below it and says nothing of the product above', () => {
    const item = ['### 1. Sony WH-CH720N', '', '* Light, average battery life']
    const withTitle = ['### 1. Sony WH-CH720N', '', '* **Key features:**', '  * Light, average battery life']
    // wink scores "key" as praise: the title line had counted as a line of Sony's block.
    expect(sentiments(withTitle.join('\n')).Sony).toBeCloseTo(sentiments(item.join('\n')).Sony, 6)
  })
})

describe('a product’s name as a bare link', () => {
  it('judges nothing: the words of a name ("True Wireless", "High Performance") are not praise', () => {
    const brands2: BrandTerms[] = ['KitchenAid', 'Vitamix'].map((name) => ({ id: name, name, aliases: [], domain: null }))
    const m2 = compileBrandMatcher(brands2)
    const s2 = (content: string) => Object.fromEntries(analyzeResponse({ content }, m2).mentions.map((m) => [m.brandId, m.sentiment ?? Number.NaN]))
    expect(s2('[KitchenAid High Performance Series Blender](https://example.com/k400)').KitchenAid).toBe(0)
    expect(s2('**[KitchenAid High Performance Series Blender]()**').KitchenAid).toBe(0)
    // Words around the link are the answer's own.
    expect(s2('The [KitchenAid K400](https://example.com/k400) is an excellent blender.').KitchenAid).toBeGreaterThan(0.05)
  })
})
