import { describe, expect, it } from 'vitest'
import { erfc, MIN_TEST_SAMPLE, normalCdf, twoProportionZTest, wilsonInterval, Z_95 } from '../../src/analysis/statistics.js'

// Independent references, computed here by other means than the code under test:
// - a Wilson bound is where the score statistic |p̂ − p| / √(p(1 − p)/n) equals z, found by
//   bisection (no closed form);
// - a normal tail is the integral of the density, by composite Simpson's rule.
function scoreBound(x: number, n: number, side: 'low' | 'high'): number {
  const phat = x / n
  if (side === 'low' && x === 0) return 0
  if (side === 'high' && x === n) return 1
  const excess = (p: number) => Math.abs(phat - p) / Math.sqrt((p * (1 - p)) / n) - Z_95
  // On each side of p̂ the statistic falls from +∞ (at 0 or 1) to 0 (at p̂).
  let [a, b] = side === 'low' ? [1e-15, phat] : [phat, 1 - 1e-15]
  for (let i = 0; i < 200; i++) {
    const mid = (a + b) / 2
    const positive = excess(mid) > 0
    if (side === 'low' ? positive : !positive) a = mid
    else b = mid
  }
  return (a + b) / 2
}

function upperTailBySimpson(z: number): number {
  // ∫_z^{z+40} φ(t) dt; beyond that the density is far below double precision.
  const steps = 200_000
  const h = 40 / steps
  const phi = (t: number) => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI)
  let sum = phi(z) + phi(z + 40)
  for (let i = 1; i < steps; i++) sum += (i % 2 ? 4 : 2) * phi(z + i * h)
  return (sum * h) / 3
}

function pooledZ(x1: number, n1: number, x2: number, n2: number): number {
  const pooled = (x1 + x2) / (n1 + n2)
  return (x1 / n1 - x2 / n2) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
}

const relClose = (actual: number, expected: number, tolerance: number) => expect(Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300)).toBeLessThan(tolerance)

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison
  // of seven methods", Statistics in Medicine 17:857–872, Table II, method 3 (score
  // interval without continuity correction), 4 decimals as published.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i matches Newcombe’s published table', (x, n, low, high) => {
    const interval = wilsonInterval(x, n)!
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
  })

  // Small samples (n < 30) and the edges, against the bisection reference.
  it.each([
    [0, 1],
    [1, 1],
    [0, 10],
    [10, 10],
    [1, 4],
    [5, 12],
    [3, 7],
    [29, 30],
    [500, 1000],
    [1, 100_000],
  ])('%i/%i equals the score-test inversion', (x, n) => {
    const interval = wilsonInterval(x, n)!
    expect(interval.low).toBeCloseTo(scoreBound(x, n, 'low'), 10)
    expect(interval.high).toBeCloseTo(scoreBound(x, n, 'high'), 10)
    expect(interval.low).toBeLessThanOrEqual(x / n)
    expect(interval.high).toBeGreaterThanOrEqual(x / n)
  })

  it('0/n starts exactly at 0 and n/n ends exactly at 1; the other bound is not degenerate', () => {
    // 0/10 and 10/10: 0.2775328 and 0.7224672, the closed form evaluated separately in Python 3.
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775328, 6) })
    expect(wilsonInterval(10, 10)).toEqual({ low: expect.closeTo(0.7224672, 6), high: 1 })
    // One answer out of one says little: the interval is wide.
    expect(wilsonInterval(1, 1)!.low).toBeCloseTo(0.2065493, 6)
  })

  it('n = 0 has no interval (nothing was measured); bad counts are refused', () => {
    expect(wilsonInterval(0, 0)).toBeNull()
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError)
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError)
    expect(() => wilsonInterval(0.5, 2)).toThrow(RangeError)
  })

  it('narrows as the sample grows at the same rate', () => {
    const widths = [10, 100, 1000, 10_000].map((n) => {
      const i = wilsonInterval(n / 5, n)!
      return i.high - i.low
    })
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1])
  })
})

describe('normal distribution', () => {
  it.each([0, 0.5, 1, 1.959963984540054, 2.5, 3.5, 5, 8])('erfc and Φ agree with numerical integration at %d', (z) => {
    const tail = upperTailBySimpson(z)
    // 1 − Φ loses relative digits far in the tail; the erfc form keeps them.
    if (z < 3) relClose(1 - normalCdf(z), tail, 1e-6)
    relClose(erfc(z / Math.SQRT2) / 2, tail, 2e-7)
  })

  it('Φ(−x) = 1 − Φ(x) and Φ(1.96) = 0.975', () => {
    expect(normalCdf(-1.3) + normalCdf(1.3)).toBeCloseTo(1, 12)
    expect(normalCdf(Z_95)).toBeCloseTo(0.975, 7)
    expect(normalCdf(0)).toBeCloseTo(0.5, 7)
  })
})

describe('twoProportionZTest', () => {
  // p-values of R's prop.test(c(x1, x2), c(n1, n2), correct = FALSE), equivalently
  // scipy.stats.chi2_contingency(table, correction=False) (scipy 1.17.1), which is the same
  // statistic (X-squared = z²).
  it.each([
    [15, 50, 25, 50, 0.04122683],
    [30, 100, 45, 100, 0.02845974],
    [12, 20, 5, 20, 0.02516076],
    [300, 1000, 330, 1000, 0.148703],
    [2, 25, 9, 25, 0.01685936],
    [40, 40, 30, 40, 0.0007232327],
  ])('%i/%i vs %i/%i: p = %d as R and scipy give it', (x1, n1, x2, n2, p) => {
    const test = twoProportionZTest(x1, n1, x2, n2)!
    relClose(test.pValue, p, 1e-5)
    // And against the in-test reference: z by hand, tail by integration.
    expect(test.z).toBeCloseTo(pooledZ(x1, n1, x2, n2), 12)
    relClose(test.pValue, 2 * upperTailBySimpson(Math.abs(pooledZ(x1, n1, x2, n2))), 1e-6)
    expect(test.delta).toBeCloseTo(x1 / n1 - x2 / n2, 12)
  })

  it('is symmetric: swapping the samples flips z and keeps p', () => {
    const ab = twoProportionZTest(7, 40, 19, 45)!
    const ba = twoProportionZTest(19, 45, 7, 40)!
    expect(ba.z).toBeCloseTo(-ab.z, 12)
    expect(ba.pValue).toBeCloseTo(ab.pValue, 12)
  })

  it('a huge difference keeps the digits of a tiny p-value', () => {
    const test = twoProportionZTest(900, 1000, 100, 1000)!
    const reference = 2 * upperTailBySimpson(Math.abs(pooledZ(900, 1000, 100, 1000)))
    expect(reference).toBeGreaterThan(0)
    relClose(test.pValue, reference, 1e-5)
  })

  it('edges: an empty side gives no test; all-no or all-yes on both sides is no change (p = 1)', () => {
    expect(twoProportionZTest(0, 0, 3, 10)).toBeNull()
    expect(twoProportionZTest(3, 10, 0, 0)).toBeNull()
    expect(twoProportionZTest(0, 30, 0, 50)).toEqual({ delta: 0, z: 0, pValue: 1 })
    expect(twoProportionZTest(30, 30, 50, 50)).toEqual({ delta: 0, z: 0, pValue: 1 })
    // 0/n against n/n is the strongest evidence there is.
    expect(twoProportionZTest(0, 30, 30, 30)!.pValue).toBeLessThan(1e-12)
    expect(() => twoProportionZTest(5, 4, 1, 2)).toThrow(RangeError)
  })

  it('n < 30 still gets a p-value (the API then withholds significance)', () => {
    expect(MIN_TEST_SAMPLE).toBe(30)
    const test = twoProportionZTest(1, 5, 4, 5)!
    relClose(test.pValue, 2 * upperTailBySimpson(Math.abs(pooledZ(1, 5, 4, 5))), 1e-6)
  })
})
