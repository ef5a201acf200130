import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isGuideTitle, isRankTitle } from '../../src/analysis/answer-structure.js'
import { LEXICON, loadSentimentLexicon } from '../../src/analysis/sentiment-lexicon.js'

// The domain lexicon is data (issue 30 item 5, DESIGN §6): one file, each entry with its
// reason. These tests check that what the analysis matches comes from that file.

/** The smallest lexicon file the loader accepts, for loader tests. */
const BASE = {
  scores: [],
  neutral: [],
  comparatives: [],
  excess: { score: -0.4, reason: 'r' },
  blocks: { pros: { labels: [], score: 0.3, reason: 'r' }, cons: { labels: [], score: -0.3, reason: 'r' } },
}

function shipped(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('../../src/analysis/data/sentiment-lexicon.json', import.meta.url), 'utf8')) as Record<string, unknown>
}

describe('title words as lexicon data', () => {
  it('ships the buying-guide and rank title words with their reasons', () => {
    const raw = shipped() as { guides: { words: string[]; reason: string }; ranks: { first: string[]; words: string[]; reason: string } }
    expect(raw.guides.reason.length).toBeGreaterThan(20)
    expect(raw.ranks.reason.length).toBeGreaterThan(20)
    expect(LEXICON.guides).toEqual(raw.guides.words)
    expect(LEXICON.ranks).toEqual({ first: raw.ranks.first, words: raw.ranks.words })
  })

  it('matches every listed word as a whole word in any case, and nothing else', () => {
    for (const word of LEXICON.guides) {
      expect(isGuideTitle(`Key ${word.toUpperCase()}`), word).toBe(true)
      expect(isGuideTitle(`Key ${word}x`), word).toBe(false)
    }
    for (const word of LEXICON.ranks.first) {
      expect(isRankTitle(`${word[0].toUpperCase()}${word.slice(1)} Overall`), word).toBe(true)
      // a first word counts only at the start ("Laptops at the top" is no rank title)
      expect(isRankTitle(`Laptops at the ${word}`), word).toBe(false)
    }
    for (const word of LEXICON.ranks.words) expect(isRankTitle(`Our ${word}`), word).toBe(true)
  })

  it('rejects a title list without its reason', () => {
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, guides: { words: ['tips'], reason: ' ' } }))).toThrow(/"guides" needs a reason/)
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, ranks: { first: ['top'], words: [], reason: '' } }))).toThrow(/"ranks" needs a reason/)
    expect(loadSentimentLexicon(JSON.stringify(BASE)).guides).toEqual([])
  })
})
