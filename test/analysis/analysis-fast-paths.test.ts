// The shortcuts analyzeResponse takes must not change what it reports: an answer naming no
// configured brand skips the layout and brand sentiment, and citations are normalized once
// per distinct URL. Both are checked here against the same analysis assembled from its
// parts with no shortcut, over the evaluation's hand-written answers and the benchmark's
// synthetic ones, each analysed twice (the URL lookup cold, then warm), with all brands, one
// brand and none configured. (Sentence scoring's per-word lookup is inside scoreSentences,
// which both sides use: it is checked by `npm run eval:analysis` giving every item the same
// score and by `BENCH_PREVIOUS` in bench:analysis comparing whole analyses with main's.)
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeResponse, brandSentiments } from '../../src/analysis/analyze-response.js'
import { layoutOf } from '../../src/analysis/answer-structure.js'
import { extractCitations } from '../../src/analysis/citations.js'
import { compileBrandMatcher, mentionsFromMatches, type BrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { meanSentiment, scoreSentences } from '../../src/analysis/sentiment.js'
import { findUrlSpans, normalizeUrl, registrableDomain } from '../../src/analysis/urls.js'
import { makeResponse, plainBrands, withAliases } from '../../bench/synthetic-answers.js'

const evalDir = new URL('../../bench/eval/', import.meta.url)
const evalBrands = JSON.parse(readFileSync(new URL('brands.json', evalDir), 'utf8')) as BrandTerms[]
const evalTexts = ['brand-sentiment.txt', 'brand-sentiment-holdout.txt', 'mentions.txt', 'answers.txt'].flatMap((file) =>
  readFileSync(new URL(file, evalDir), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const parts = line.split(' ||| ')
      // answers.txt is "label ||| text", the others "text ||| labels"
      return (file === 'answers.txt' ? parts[1] : parts[0]).replace(/^\[mixed\] /, '').replace(/\\n/g, '\n')
    }),
)
const syntheticBrands = withAliases(plainBrands(40), 3, null)
const synthetic = Array.from({ length: 60 }, () => makeResponse(syntheticBrands))

/** analyzeResponse without any shortcut: every part computed in full from the text. */
function assembled(content: string, citations: { url: string; title: string }[], matcher: BrandMatcher) {
  const blank = !/\S/u.test(content)
  const sentences = blank ? [] : scoreSentences(content)
  const urlSpans = findUrlSpans(content)
  const matches = matcher.match(content, urlSpans)
  const sentiments = blank ? null : brandSentiments(matches, sentences, layoutOf(content, sentences))
  // Citations normalized afresh, in first-seen order, titles from the provider list.
  const byUrl = new Map<string, { url: string; domain: string; title: string }>()
  const add = (raw: string) => {
    const url = normalizeUrl(raw)
    if (url === null) return null
    let citation = byUrl.get(url)
    if (!citation) byUrl.set(url, (citation = { url, domain: registrableDomain(url) as string, title: '' }))
    return citation
  }
  for (const c of citations) {
    const citation = add(c.url)
    if (citation && c.title.trim() !== '') citation.title = c.title.trim()
  }
  for (const span of urlSpans) add(span.url)
  return {
    sentiment: blank ? null : meanSentiment(sentences),
    mentions: mentionsFromMatches(matches).map((m) => ({ brandId: m.brandId, occurrences: m.occurrences, position: m.position, sentiment: sentiments?.get(m.brandId) ?? null })),
    citations: [...byUrl.values()],
  }
}

describe('analysis shortcuts', () => {
  const cases = [
    ...evalTexts.map((content) => ({ content, citations: [], brands: evalBrands })),
    ...synthetic.map((r) => ({ content: r.content, citations: r.citations, brands: syntheticBrands })),
  ]

  it('give what the full analysis gives, with every brand, one brand and no brand configured', () => {
    let named = 0
    let unnamed = 0
    for (const { content, citations, brands } of cases) {
      for (const configured of [brands, brands.slice(0, 1), []]) {
        const matcher = compileBrandMatcher(configured)
        const expected = assembled(content, citations, matcher)
        if (expected.mentions.length > 0) named++
        else unnamed++
        // twice: the per-process lookups (words, URLs) cold and then warm
        expect(analyzeResponse({ content, citations }, matcher)).toEqual(expected)
        expect(analyzeResponse({ content, citations }, matcher)).toEqual(expected)
      }
    }
    // Both sides of the no-brand shortcut were exercised.
    expect(named).toBeGreaterThan(100)
    expect(unnamed).toBeGreaterThan(100)
  })

  it('keep citation titles and order when the same URL comes back in another answer', () => {
    const first = extractCitations('See https://example.com/a?utm_source=x and https://www.example.org/b/', [{ url: 'https://example.com/a', title: 'A' }])
    const again = extractCitations('Also https://www.example.org/b and https://example.com/a', [])
    expect(first).toEqual([
      { url: 'https://example.com/a', domain: 'example.com', title: 'A' },
      { url: 'https://example.org/b', domain: 'example.org', title: '' },
    ])
    expect(again).toEqual([
      { url: 'https://example.org/b', domain: 'example.org', title: '' },
      { url: 'https://example.com/a', domain: 'example.com', title: '' },
    ])
    // A cached entry is never handed out to be changed: the earlier answer's title stays its own.
    expect(first[0].title).toBe('A')
  })
})
