import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'
import { loadSentimentLexicon } from '../../src/analysis/sentiment-lexicon.js'

describe('verbs that undo a bad thing (sixth round lexicon: remedies)', () => {
  it('praises whoever resolves, fixes or counters the bad thing', () => {
    expect(sign('The support team resolved the problem within an hour.', 'support team')).toBe(1)
    expect(sign('The new update prevents bugs.', 'update')).toBe(1)
    expect(sign('The generous portions counter this flaw.', 'portions')).toBe(1)
  })

  it('is a complaint when negated', () => {
    expect(sign('The support team never resolved the problem.', 'support team')).toBe(-1)
  })

  it('reads a remedy word after a determiner as a thing', () => {
    // "counter" is the surface the food sits on, and the food getting cold is a complaint
    expect(sign('Your food sits on their counter getting cold and bad.', 'food')).toBe(-1)
  })

  it('loads the verbs and their score from the lexicon file, each with its reason', () => {
    const json = JSON.stringify({
      scores: [],
      neutral: [],
      comparatives: [],
      excess: { score: -0.4, reason: 'r' },
      remedies: { verbs: ['mend'], score: 0.3, reason: 'r' },
      blocks: { pros: { labels: [], score: 0.3, reason: 'r' }, cons: { labels: [], score: -0.3, reason: 'r' } },
      sections: { titles: [], reason: 'r' },
      others: { first: [], last: [], reason: 'r' },
    })
    const lexicon = loadSentimentLexicon(json)
    expect([...lexicon.remedies.verbs]).toEqual(['mend'])
    expect(lexicon.remedies.score).toBe(0.3)
    expect(() => loadSentimentLexicon(json.replace('"score":0.3,"reason":"r"', '"score":0.3,"reason":" "'))).toThrow(/remedies" needs a reason/)
  })
})
