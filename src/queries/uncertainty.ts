// Turns counts into the §17 response fields: Wilson intervals on the scale of the rate
// beside them (rounded like it), and the period-change test.
import { MIN_TEST_SAMPLE, twoProportionZTest, wilsonInterval } from '../analysis/statistics.js'
import { roundRatio, roundScore } from './rounding.js'

/** A Wilson 95% interval, on the scale of the rate it belongs to. */
export interface RateInterval {
  low: number
  high: number
}

export interface PeriodChange {
  delta: number
  p_value: number | null
  significant: boolean | null
}

const SIGNIFICANCE = 0.05

/** The interval of a visibility score: 0–100, rounded like visibility_score; null for no responses. */
export function visibilityCi(mentioning: number, responses: number): RateInterval | null {
  const interval = wilsonInterval(mentioning, responses)
  return interval && { low: roundScore(100 * interval.low), high: roundScore(100 * interval.high) }
}

/** The interval of a 0–1 ratio (the AIO rates), rounded like the ratio; null for an empty sample. */
export function ratioCi(part: number, whole: number): RateInterval | null {
  const interval = wilsonInterval(part, whole)
  return interval && { low: roundRatio(interval.low), high: roundRatio(interval.high) }
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
