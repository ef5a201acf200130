// Issue 30: which side of a contrast a target belongs to, found on the MAMS train file (a
// check set beside the tuning part). Each case scored otherwise before its rule (checked on
// the code without it).
import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'

describe('a pronoun after an opposing contrast', () => {
  it('does not go back to a common noun (an aspect): it is the place or the situation', () => {
    expect(sign("The food was good, but it's not worth the wait.", 'food')).toBe(1)
    expect(sign('The service was warm, but it took forever to get the check.', 'service')).toBe(1)
  })
  it('still continues a name', () => {
    expect(sign('Zendesk is powerful, but it is slow and expensive.', 'Zendesk')).toBe(-1)
  })
})

describe('a pronoun across a concession or a clause after the contrast', () => {
  it('answers a concession about a common noun with the place, not the noun', () => {
    expect(sign("While the food isn't out of this world, it offers a decent meal at a decent price.", 'food')).toBe(-1)
    expect(sign('Although the pricing is on the expensive side, this is a must try restaurant.', 'pricing')).toBe(-1)
  })
  it('after "but" and a phrase of its own ("but for the prices, it …")', () => {
    expect(sign('The food was good but for the prices, it was definitely not worth it.', 'food')).toBe(1)
  })
  it('still continues a name', () => {
    expect(sign('Although Zendesk is expensive, it is the best.', 'Zendesk')).toBe(1)
  })
})

describe('a subject answering a concession that opens the sentence', () => {
  it('takes the opposite of the concession when its own clause judges nothing', () => {
    expect(sign('Although the wait staff was friendly, the atmosphere was not.', 'atmosphere')).toBe(-1)
    expect(sign('While service is still ok, the food has been not up to par on my last few visits.', 'food')).toBe(-1)
  })
  it('a subject inside the concession still looks after it', () => {
    expect(sign('Although the decor is old, the food is wonderful.', 'decor')).toBe(-1)
  })
})

describe('what is excepted from a statement', () => {
  it('is the opposite of it', () => {
    expect(sign('Servings are plentiful and every dish is delicious (except for the lemon potatoes).', 'lemon potatoes')).toBe(-1)
    expect(sign('The menu is pricey and the food was not tasty - except for the tostones.', 'tostones')).toBe(1)
    expect(sign('Every tool we tried was excellent, except Asana.', 'Asana')).toBe(-1)
  })
})

describe('a common noun named on one side of a contrast', () => {
  it('takes that side as its verdict, not what the sentence goes on to say', () => {
    expect(sign('Our waitress was pleasant but slow.', 'waitress')).toBe(1)
    expect(sign('Sure, the burgers are good, but not good enough to make up for the abominable service.', 'burgers')).toBe(1)
  })
  it('a name is what the sentence is about: the side after "but" weighs more', () => {
    expect(sign('Zendesk is powerful but expensive.', 'Zendesk')).toBe(-1)
    expect(sign('We tried Zendesk: it is powerful but expensive.', 'Zendesk')).toBe(-1)
  })
})
