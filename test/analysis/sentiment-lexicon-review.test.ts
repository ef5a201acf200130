import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'

// File name: sentiment-*.test.ts (sixth-round lexicon entries for review sentences).

describe('review words wink leaves neutral (sixth round lexicon)', () => {
  it('scores dry food, prompt service and authentic dishes', () => {
    expect(sign('The chicken was dry.', 'chicken')).toBe(-1)
    expect(sign('Service was prompt.', 'Service')).toBe(1)
    expect(sign('The tacos taste authentic.', 'tacos')).toBe(1)
  })

  it('reads a lexicon word opening a compound as a kind, not a verdict', () => {
    expect(sign('The menu lists a dry-aged steak.', 'steak')).toBe(0)
  })

  it('scores late arrival, not a late hour', () => {
    expect(sign('Our order arrived late.', 'order')).toBe(-1)
    expect(sign('The delivery was late again.', 'delivery')).toBe(-1)
    expect(sign('We had a late dinner at the bistro.', 'dinner')).toBe(0)
  })
})

describe('"as well" meaning "too" (sixth round)', () => {
  it('does not praise what the writer also had', () => {
    expect(sign('I got a coke and a dessert as well.', 'dessert')).toBe(0)
  })

  it('keeps "well" as praise elsewhere', () => {
    expect(sign('The blender works well.', 'blender')).toBe(1)
  })
})
