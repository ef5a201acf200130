// Turns counts into the §17 response fields: Wilson intervals on the scale of the rate
// beside them (rounded like it). The period-change test is analysis/statistics.ts's visibilityChange.
import { wilsonInterval } from '../analysis/statistics.js'
import { roundRatio, roundScore } from './rounding.js'

/** A Wilson 95% interval, on the scale of the rate it belongs to. */
export interface RateInterval {
  low: number
  high: number
}

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
