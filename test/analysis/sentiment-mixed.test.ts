import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'

describe('the agent of a passive verb (sixth round, second helper)', () => {
  it('gives the agent after "by" what the passive verb says', () => {
    expect(sign('After being ignored by our waiter we complained to the manager.', 'waiter')).toBe(-1)
    expect(sign('We were ignored by the hostess for twenty minutes.', 'hostess')).toBe(-1)
  })

  it('leaves an agent of a verb that scores nothing, and an active verb\'s "by", alone', () => {
    expect(sign('The dish was topped by the chef with sea salt.', 'chef')).toBe(0)
    // "swear by" is an idiom of praise for its subject; the tamales are not its agent
    expect(sign('The regulars swear by the tamales.', 'regulars')).toBe(1)
  })
})

describe('"none of the X" negates the verb after the phrase', () => {
  it('negates a verb beyond the reach counted from "none"', () => {
    expect(sign('None of the dishes we ordered really impressed.', 'dishes')).toBe(-1)
    expect(sign('We had a five-course dinner and none of the dishes really impressed except maybe the signature oysters.', 'signature oysters')).toBe(1)
  })

  it('still reads "none" alone as a negation within its reach', () => {
    expect(sign('There were none, and the staff was great.', 'staff')).toBe(1)
  })
})

describe('"so" before a subject pronoun opens a clause', () => {
  it('keeps what comes before "so I …" from the thing named after it', () => {
    expect(sign('My kids used to make disgusting things so I visited the doctor and everything goes fine since then.', 'doctor')).toBe(1)
  })

  it('leaves "so" before an adjective inside its clause', () => {
    expect(sign('The soup was so good.', 'soup')).toBe(1)
  })
})

describe('a target that is an action is judged by its own clause', () => {
  it('gives the action the words of its clause, not of the clauses after a contrast', () => {
    expect(sign('Usually delivers a great quality picture and sound experience however customer service could not deal with an issue I had.', 'delivers')).toBe(1)
    expect(sign('The router works fine for what I pay but it does not have much range and sometimes it gets misconfigured by itself.', 'works')).toBe(1)
  })

  it('leaves a gerund after a preposition to the usual attribution', () => {
    // "in serving their teas" names a thing done; "adhere" is no verdict on it
    expect(sign('While they adhere to a certain tradition in serving their teas, the food labours under no such restrictions.', 'serving')).toBe(0)
  })
})
