// Sampling uncertainty of the rates Beacon reports (docs/uncertainty-and-discovery.md). AI answers are samples:
// "40% visibility" from 5 answers and from 5,000 are different claims. Pure functions,
// no dependencies, so the arithmetic can be checked against published tables.

/** The two-sided 95% normal quantile, Φ⁻¹(0.975), to double precision. */
export const Z_95 = 1.959963984540054

/** Below this many responses on either side a period change is not tested (normal approximation too rough). */
export const MIN_TEST_SAMPLE = 30

export interface Interval {
  low: number
  high: number
}

/**
 * Wilson score interval for `successes` out of `trials` (proportions 0–1).
 *
 * `trials = 0` returns null: with no sample there is no estimate, and a client must be able
 * to tell "not measured" from "measured at 0" (whose interval is [0, x]). 0/n gives
 * low = 0 and n/n gives high = 1 exactly (the closed form only gets there up to rounding).
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || trials < 0 || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs integers 0 <= successes <= trials; got ${successes}/${trials}`)
  }
  if (trials === 0) return null
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const centre = (p + z2 / (2 * trials)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === trials ? 1 : Math.min(1, centre + half),
  }
}

/**
 * Complementary error function. Numerical Recipes (2nd ed., §6.2, `erfcc`): a Chebyshev
 * fit with fractional error below 1.2e-7 everywhere, so even tiny p-values keep their
 * leading digits (1 − erf would lose them to cancellation).
 */
export function erfc(x: number): number {
  const z = Math.abs(x)
  const t = 1 / (1 + 0.5 * z)
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    )
  return x >= 0 ? r : 2 - r
}

/** Standard normal CDF Φ(x). */
export const normalCdf = (x: number): number => 0.5 * erfc(-x / Math.SQRT2)

export interface ProportionTest {
  /** p1 − p2 as proportions (0–1 scale) */
  delta: number
  z: number
  /** two-sided */
  pValue: number
}

/**
 * Pooled two-proportion z-test of x1/n1 against x2/n2, two-sided; the same statistic as
 * R's `prop.test(c(x1, x2), c(n1, n2), correct = FALSE)` (its X-squared is z²).
 * Null when either sample is empty. When the pooled proportion is 0 or 1 (both samples
 * all-no or all-yes) the two agree exactly and the variance is 0: z = 0, p = 1, where R
 * would answer NaN.
 */
export function twoProportionZTest(x1: number, n1: number, x2: number, n2: number): ProportionTest | null {
  for (const [x, n] of [
    [x1, n1],
    [x2, n2],
  ]) {
    if (!Number.isInteger(x) || !Number.isInteger(n) || n < 0 || x < 0 || x > n) throw new RangeError(`twoProportionZTest needs integers 0 <= x <= n; got ${x}/${n}`)
  }
  if (n1 === 0 || n2 === 0) return null
  const p1 = x1 / n1
  const p2 = x2 / n2
  const pooled = (x1 + x2) / (n1 + n2)
  const variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
  if (variance === 0) return { delta: p1 - p2, z: 0, pValue: 1 }
  const z = (p1 - p2) / Math.sqrt(variance)
  // Two-sided tail: 2·(1 − Φ(|z|)) = erfc(|z|/√2), without the cancellation.
  return { delta: p1 - p2, z, pValue: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)) }
}

export interface PeriodChange {
  delta: number
  p_value: number | null
  significant: boolean | null
}

const SIGNIFICANCE = 0.05

/**
 * The change of visibility from `before` to `now`, tested. `delta` is the difference of
 * the two visibility scores as shown; the test uses the exact counts. Significance is
 * only claimed with at least MIN_TEST_SAMPLE responses on both sides.
 */
export function visibilityChange(now: { mentioning: number; responses: number }, before: { mentioning: number; responses: number }, delta: number): PeriodChange {
  const test = twoProportionZTest(now.mentioning, now.responses, before.mentioning, before.responses)
  const testable = now.responses >= MIN_TEST_SAMPLE && before.responses >= MIN_TEST_SAMPLE
  return {
    delta,
    p_value: test ? Number(test.pValue.toPrecision(4)) : null,
    significant: test && testable ? test.pValue < SIGNIFICANCE : null,
  }
}
