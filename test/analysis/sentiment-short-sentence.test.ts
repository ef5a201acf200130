// Issue 30, seventh round: in a short sentence, the one who acted, or what someone else's
// action was done to, takes the verdict of the sentence's predicates when nothing was
// attributed to it (clauses.ts, shortSentence). Each "takes" case scored 0 before the rule;
// each "not" case scores the sentence's sign without its exclusion (checked by disabling
// each in turn).
import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'

describe('a short sentence gives its verdict to the one who acted, when nothing was said of it', () => {
  it.each([
    ['The nurses took my blood and my arm felt fine afterwards.', 'nurses', 1],
    ['The plumber came on Sunday and the leak is gone, wonderful.', 'plumber', 1],
    ['The hotel was filthy and the receptionist shrugged at us.', 'receptionist', -1],
  ])('%s → %s %i', (text, term, expected) => {
    expect(sign(text, term)).toBe(expected)
  })
})

describe('but not', () => {
  it('in a long sentence, where the verdict is mostly about other things', () => {
    expect(sign('The dinner started at eight, and our friends enjoyed the noodles and the wine and the dessert very much indeed.', 'dinner')).toBe(0)
  })
  it('to a phrase after a preposition (where, with what)', () => {
    expect(sign('The soup was superb in the garden.', 'garden')).toBe(0)
  })
  it("to a copula's subject whose predicate no lexicon scores (it said something, not in words we read)", () => {
    expect(sign('The hotel was lovely and the curtains were beige.', 'curtains')).toBe(0)
  })
  it('to what the writer had or ordered', () => {
    expect(sign('We ordered the soup and the staff were lovely.', 'soup')).toBe(0)
  })
  it('to the object of advice to the reader', () => {
    expect(sign('Try the fries, the burgers are great.', 'fries')).toBe(0)
  })
})
