import { describe, expect, it } from 'vitest'
import { percentage, ratio, roundPosition, roundRatio, roundScore, roundSentiment } from '../../src/queries/rounding.js'

describe('rounding (docs/metrics.md)', () => {
  it('rounds each kind to its decimals', () => {
    expect(roundScore(33.33333)).toBe(33.33)
    expect(roundRatio(0.123456)).toBe(0.1235)
    expect(roundSentiment(-0.12345)).toBe(-0.123)
    expect(roundPosition(1.005)).toBe(1.01)
    expect(roundSentiment(-0.0001)).toBe(0)
    expect(Object.is(roundSentiment(-0.0001), -0)).toBe(false)
  })
  it('is 0 over an empty whole', () => {
    expect(percentage(1, 3)).toBe(33.33)
    expect(percentage(0, 0)).toBe(0)
    expect(ratio(2, 3)).toBe(0.6667)
    expect(ratio(5, 0)).toBe(0)
  })
})
