import { describe, expect, it } from 'vitest'
import { analyzeResponse, brandSentiment } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { scoreSentences, textSentiment } from '../../src/analysis/sentiment.js'

const brands: BrandTerms[] = [
  { id: 'notion', name: 'Notion', aliases: [], domain: 'notion.so' },
  { id: 'asana', name: 'Asana', aliases: [], domain: 'asana.com' },
  { id: 'trello', name: 'Trello', aliases: [], domain: null },
]

const byBrand = (analysis: ReturnType<typeof analyzeResponse>) => new Map(analysis.mentions.map((m) => [m.brandId, m]))

describe('analyzeResponse', () => {
  it('gives each brand the sentiment of its own sentences', () => {
    const analysis = analyzeResponse({ content: 'Notion is excellent and I love it. Asana is awful, slow and buggy.' }, brands)
    const mentions = byBrand(analysis)
    expect(mentions.get('notion')?.sentiment).toBeGreaterThan(0)
    expect(mentions.get('asana')?.sentiment).toBeLessThan(0)
  })

  it('separates brands on markdown bullet lines without closing punctuation', () => {
    const analysis = analyzeResponse({ content: '- **Notion** is great\n- **Asana** is terrible\n- Trello exists' }, brands)
    const mentions = byBrand(analysis)
    expect(mentions.get('notion')?.sentiment).toBeGreaterThan(0)
    expect(mentions.get('asana')?.sentiment).toBeLessThan(0)
    expect(mentions.get('trello')?.sentiment).toBe(0)
  })

  it('averages over sentences, counting a sentence once however often it names the brand', () => {
    const content = 'Notion and Notion again are great. Notion is terrible. The weather is nice.'
    const [s1, s2] = scoreSentences(content)
    const notion = byBrand(analyzeResponse({ content }, brands)).get('notion')
    expect(notion?.occurrences).toBe(3)
    expect(notion?.sentiment).toBeCloseTo((s1.sentiment + s2.sentiment) / 2, 12)
  })

  it('reports occurrences and positions', () => {
    const analysis = analyzeResponse({ content: 'Trello first. Then Notion. Trello again, and Asana.' }, brands)
    expect(analysis.mentions.map((m) => [m.brandId, m.position, m.occurrences])).toEqual([
      ['trello', 1, 2],
      ['notion', 2, 1],
      ['asana', 3, 1],
    ])
  })

  it('scores the whole response like textSentiment', () => {
    const content = '# Review\n\nNotion is good. Asana is bad.\n- Trello is okay'
    expect(analyzeResponse({ content }, brands).sentiment).toBeCloseTo(textSentiment(content) as number, 12)
  })

  it('does not count brand names inside URLs but counts link text and citations', () => {
    const content = 'Pricing: https://www.asana.com/pricing?utm_source=chatgpt. Try [Notion](https://notion.so/notion).'
    const analysis = analyzeResponse({ content }, brands)
    expect(analysis.mentions.map((m) => m.brandId)).toEqual(['notion'])
    expect(analysis.citations.map((c) => c.url)).toEqual(['https://asana.com/pricing', 'https://notion.so/notion'])
  })

  it('merges provider citations with content URLs', () => {
    const analysis = analyzeResponse(
      {
        content: 'See [the docs](https://notion.so/help) and https://www.reddit.com/r/Notion/',
        citations: [
          { url: 'https://notion.so/help#x', title: 'Notion Help' },
          { url: 'https://g2.com/notion', title: null },
        ],
      },
      brands,
    )
    expect(analysis.citations).toEqual([
      { url: 'https://notion.so/help', domain: 'notion.so', title: 'Notion Help' },
      { url: 'https://g2.com/notion', domain: 'g2.com', title: '' },
      { url: 'https://reddit.com/r/Notion', domain: 'reddit.com', title: '' },
    ])
  })

  it('returns null sentiment and no mentions for empty content', () => {
    for (const content of ['', '   \n  ']) {
      const analysis = analyzeResponse({ content, citations: [{ url: 'https://a.com/x', title: 'A' }] }, brands)
      expect(analysis.sentiment).toBeNull()
      expect(analysis.mentions).toEqual([])
      expect(analysis.citations).toEqual([{ url: 'https://a.com/x', domain: 'a.com', title: 'A' }])
    }
  })

  it('tolerates missing content and citations', () => {
    const analysis = analyzeResponse({ content: undefined as unknown as string, citations: null }, brands)
    expect(analysis).toEqual({ sentiment: null, mentions: [], citations: [] })
  })

  it('accepts a precompiled matcher and gives the same result', () => {
    const content = 'Asana beats Notion, some say.'
    expect(analyzeResponse({ content }, compileBrandMatcher(brands))).toEqual(analyzeResponse({ content }, brands))
  })

  it('works with no brands', () => {
    const analysis = analyzeResponse({ content: 'I love it.' }, [])
    expect(analysis.mentions).toEqual([])
    expect(analysis.sentiment).toBeGreaterThan(0)
  })
})

describe('brandSentiment', () => {
  const sentences = [
    { start: 0, end: 10, text: '', sentiment: 0.5 },
    { start: 11, end: 20, text: '', sentiment: -0.5 },
    { start: 21, end: 30, text: '', sentiment: 1 },
  ]

  it('averages the sentences holding a match, each once', () => {
    const m = (start: number, end: number) => ({ brandId: 'x', start, end })
    expect(brandSentiment([m(0, 3), m(5, 8), m(22, 25)], sentences)).toBeCloseTo(0.75, 12)
  })

  it('counts every sentence a straddling match touches', () => {
    expect(brandSentiment([{ brandId: 'x', start: 8, end: 13 }], sentences)).toBeCloseTo(0, 12)
  })

  it('is null when no sentence holds a match', () => {
    expect(brandSentiment([], sentences)).toBeNull()
    expect(brandSentiment([{ brandId: 'x', start: 40, end: 45 }], sentences)).toBeNull()
  })
})
