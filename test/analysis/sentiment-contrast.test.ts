import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'

describe('a contrast opposes its two sides (sixth round)', () => {
  it('gives a subject its own clause says nothing of the opposite of the other side', () => {
    // "short" and "high" judge nothing alone; the contrast with "excellent" / "performs well" does
    expect(sign('The phone is excellent, but the battery time is very short.', 'battery time')).toBe(-1)
    expect(sign('It performs well but the temperature becomes high on some days.', 'temperature')).toBe(-1)
  })

  it('reads the side before the contrast from the side after it', () => {
    expect(sign('The wait is long, but the food is wonderful.', 'wait')).toBe(-1)
    expect(sign('The lobby looks old, but the staff were rude.', 'lobby')).toBe(1)
  })

  it('reads a concession that opens the sentence against the clause after it', () => {
    expect(sign('Although the menu is short, the food is wonderful.', 'menu')).toBe(-1)
  })

  it('implies nothing without an opposing contrast, or when the clause has its own verdict', () => {
    expect(sign('The phone is excellent and the battery time is very short.', 'battery time')).toBe(0)
    expect(sign('The phone is excellent; meanwhile the battery time is very short.', 'battery time')).toBe(0)
    // its own words decide
    expect(sign('The phone is excellent, but the battery is great too.', 'battery')).toBe(1)
  })

  it("leaves the writer's objects and conditions alone", () => {
    expect(sign('The phone is excellent, but we ordered a case.', 'case')).toBe(0)
    expect(sign('The phone is excellent, but if the battery is low it slows down.', 'battery')).toBe(0)
  })
})

describe('which clauses a contrast opposes (sixth round)', () => {
  it('implies nothing for a clause with a verdict agreeing with the other side between it and the contrast', () => {
    // "the keys did not work" is on the complaint's side already: the contrast is between
    // "the price was great" and "the product is awful", not about the keyboard's clause
    expect(sign('The keyboard came on Monday, the keys did not work, the price was great, but the product is awful.', 'keyboard')).toBe(0)
  })

  it('carries the implication along a side that says one thing', () => {
    expect(sign('The fish was good but the clams were awful and the sausage was raw.', 'sausage')).toBe(-1)
  })
})

describe('words wink scores that judge nothing in reviews (sixth round lexicon)', () => {
  it('does not score ability, the reader, or kinds of dishes', () => {
    expect(sign('We were able to get a table.', 'table')).toBe(0)
    expect(sign('I ordered the plain bagel.', 'bagel')).toBe(0)
    expect(sign('What do you like more, the tacos or the burritos?', 'tacos')).toBe(0)
  })
})

describe("the writer's objects across a contrast (sixth round)", () => {
  it('gives what the writer or their party hardly or never did something with the opposite of the other side', () => {
    expect(sign('The soup was lovely, but my kids barely touched their noodles.', 'noodles')).toBe(-1)
    expect(sign('I liked the room, but we never used the pool.', 'pool')).toBe(-1)
  })

  it('leaves the objects of advice to the reader alone', () => {
    expect(sign('The soup was lovely, but you can also order the noodles.', 'noodles')).toBe(0)
  })
})
