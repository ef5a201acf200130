import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isGuideTitle, isRankTitle } from '../../src/analysis/answer-structure.js'
import { sentenceSentiment, scoreSentences } from '../../src/analysis/sentiment.js'
import { LEXICON, loadSentimentLexicon } from '../../src/analysis/sentiment-lexicon.js'
import { winkParse } from '../../src/analysis/wink-parse.js'
import { sign } from '../helpers/target-sentiment.js'

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

describe('overrides of wink scores as lexicon data', () => {
  const tokenScore = (text: string, word: string): number => {
    const tokens = scoreSentences(text)[0].tokens
    if (tokens === undefined) throw new Error('a scored sentence carries its tokens')
    return tokens.score[tokens.word.indexOf(word)]
  }

  it('reads "unbeatable" as praise (wink scores it as a complaint)', () => {
    expect(tokenScore('Sony offers unbeatable value for the price.', 'unbeatable')).toBeGreaterThan(0.3)
    expect(sign('Sony offers unbeatable value for the price.', 'Sony')).toBe(1)
    expect(sign('The battery life of the Pixel 8a is unbeatable.', 'Pixel 8a')).toBe(1)
    // negation still reaches it
    expect(sign('The Acme X1 is not unbeatable, the Acme X2 costs less.', 'Acme X1')).toBe(-1)
  })

  it('reads "without sacrificing X" as keeping X: no complaint, and X not negated', () => {
    expect(sentenceSentiment('It offers great value without sacrificing build quality.')).toBeGreaterThan(0.3)
    expect(sentenceSentiment('Great sound without compromising on comfort.')).toBeGreaterThan(0.3)
    expect(sign('The Dyson V8 is light without sacrificing quality.', 'Dyson V8')).toBe(1)
    expect(sign('The Bose QC45 stays comfortable without compromising on quality.', 'Bose QC45')).toBe(1)
    // a plain "without" still negates
    expect(sign('The Acme X1 ships without quality control.', 'Acme X1')).toBe(-1)
  })

  it('reads "hard to beat" as clear praise, and negated as a complaint', () => {
    expect(sentenceSentiment('For the money, the Roku Express is hard to beat.')).toBeGreaterThanOrEqual(0.5)
    expect(sentenceSentiment('The Roku Express is tough to beat.')).toBeGreaterThanOrEqual(0.5)
    expect(sign('For the money, the Roku Express is hard to beat.', 'Roku Express')).toBe(1)
    expect(sign('Sadly the Acme X1 is not hard to beat.', 'Acme X1')).toBe(-1)
  })

  it('reads "punches above its weight" as praise (wink scores none of its words)', () => {
    expect(sign('The Anker Soundcore Q20 punches above its weight.', 'Anker Soundcore Q20')).toBe(1)
    expect(sign('These Sony earbuds punch above their weight.', 'Sony')).toBe(1)
  })

  it('ships each override with a reason, and a single word only where it changes what wink says', () => {
    const raw = shipped() as { overrides: { word: string; score: number; reason: string }[] }
    expect(raw.overrides.length).toBeGreaterThan(3)
    for (const e of raw.overrides) {
      expect(e.reason.trim().length, e.word).toBeGreaterThan(5)
      if (e.word.includes(' '))
        expect(
          LEXICON.phrases.get(e.word.split(' ')[0])?.some((p) => p.rest.join(' ') === e.word.split(' ').slice(1).join(' ')),
          e.word,
        ).toBe(true)
      // an override that agrees with wink would be dead data
      else expect(winkParse(e.word).sentiment, e.word).not.toBeCloseTo(e.score, 2)
    }
  })

  it('loads overrides: score 0 allowed, a reason required, no word listed twice', () => {
    const lexicon = loadSentimentLexicon(
      JSON.stringify({
        ...BASE,
        overrides: [
          { word: 'unbeatable', score: 0.6, reason: 'r' },
          { word: 'meh', score: 0, reason: 'r' },
          { word: 'without sacrificing', score: 0, reason: 'r' },
        ],
      }),
    )
    expect(lexicon.overrides).toEqual(
      new Map([
        ['unbeatable', 0.6],
        ['meh', 0],
      ]),
    )
    expect(lexicon.phrases.get('without')).toEqual([{ rest: ['sacrificing'], score: 0 }])
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, overrides: [{ word: 'x', score: 0.2, reason: '' }] }))).toThrow(/needs a reason/)
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, overrides: [{ word: 'x', score: 2, reason: 'r' }] }))).toThrow(/in \[-1, 1\]/)
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, scores: [{ word: 'x', score: 0.2, reason: 'r' }], overrides: [{ word: 'x', score: 0.3, reason: 'r' }] }))).toThrow(
      /twice/,
    )
    expect(() => loadSentimentLexicon(JSON.stringify({ ...BASE, neutral: [{ word: 'x', reason: 'r' }], overrides: [{ word: 'x', score: 0.3, reason: 'r' }] }))).toThrow(
      /both neutral and an override/,
    )
  })
})
