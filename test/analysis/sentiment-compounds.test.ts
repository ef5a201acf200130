// Issue 30: wink splits a hyphenated compound at its hyphens and tags the parts one by
// one. The compound is one word: a modifier before a noun stays in its noun phrase
// ("well-seasoned steak"), a negation opening it negates it ("not-so-friendly"). And a
// label's colon glued to the next word ("Pros:Secure") is no emoticon (wink reads ":S" as
// a frown and "ecure" as a word). Each case scored otherwise before (checked on the code
// without the rules).
import { describe, expect, it } from 'vitest'
import { scoreSentences } from '../../src/analysis/sentiment.js'
import { sign } from '../helpers/target-sentiment.js'

const sentenceSign = (text: string) => Math.sign(scoreSentences(text)[0].sentiment)

describe('a hyphenated compound is one word', () => {
  it('a negation opening the compound negates it', () => {
    expect(sign('The not-so-friendly waiter brought our plates.', 'waiter')).toBe(-1)
    expect(sign('We had a not-so-great time at the hotel.', 'time')).toBe(-1)
  })
  it('a compound before a noun stays in its noun phrase, so each phrase keeps its own modifier', () => {
    expect(sign('They served a well-seasoned steak and a bland salad.', 'steak')).toBe(1)
    expect(sign('They served a well-seasoned steak and a bland salad.', 'salad')).toBe(-1)
  })
  it('a hyphen between words with spaces is still a dash between clauses', () => {
    expect(sign('The steak was great - the salad was awful.', 'salad')).toBe(-1)
  })
})

describe('a colon glued between two words is no emoticon', () => {
  it('scores the word after a label whole', () => {
    expect(sentenceSign('Pros:Secure')).toBe(1)
    expect(sentenceSign('Rating:Decent')).toBe(1)
    expect(sentenceSign('Cons:Pricey')).toBe(-1)
  })
  it('an emoticon after a space is still one', () => {
    expect(sentenceSign('See you there :D')).toBe(1)
  })
})
