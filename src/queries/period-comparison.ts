// The "previous period" block of the detail views (brand and prompt detail): the metrics of
// the period of equal length just before the range, and the change from it, field by field.
// The change is taken between the numbers shown (already rounded) and rounded like its field,
// so a reader can check it by subtraction (docs/metrics.md).
import type { DateRange } from '../core/date-range.js'

/** How each compared field is rounded; counts stay whole (`exact`). */
export type ChangeRounding<K extends string> = Record<K, (value: number) => number>

export const exact = (value: number): number => value

export function comparePeriods<M extends Record<K, number>, K extends string>(
  previousRange: DateRange,
  now: M,
  then: M,
  rounding: ChangeRounding<K>,
): { previous_period: DateRange & { metrics: M }; change: Record<K, number> } {
  const change = {} as Record<K, number>
  for (const field of Object.keys(rounding) as K[]) change[field] = rounding[field](now[field] - then[field])
  return { previous_period: { ...previousRange, metrics: then }, change }
}
