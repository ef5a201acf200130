// Turns counts into the §17 response fields: intervals on the 0–100 scale of
// visibility_score (rounded like it), and the period-change test.
import { MIN_TEST_SAMPLE, twoProportionZTest, wilsonInterval } from '../analysis/statistics.js'
import { roundScore } from './rounding.js'

export interface VisibilityInterval {
  low: number
  high: number
}

export interface PeriodChange {
  delta: number
  p_value: number | null
  significant: boolean | null
}

const SIGNIFICANCE = 0.05

export function visibilityCi(mentioning: number, responses: number): VisibilityInterval | null {
  const interval = wilsonInterval(mentioning, responses)
  return interval && { low: roundScore(100 * interval.low), high: roundScore(100 * interval.high) }
}

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
