import { invalidParameter } from './errors.js'

export interface DateRange {
  /** first day, YYYY-MM-DD */
  start: string
  /** last day included, YYYY-MM-DD */
  end: string
}

export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10)

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000)
}

/**
 * Spec defaults: end = today, start = 30 days before the end. Inclusive on both ends
 * (docs/architecture.md); a start after the end is the caller's mistake, not an empty result.
 */
export function resolveDateRange(
  input: { start?: string; end?: string },
  names: { start: string; end: string } = { start: 'start_date', end: 'end_date' },
  now: Date = new Date(),
): DateRange {
  const end = input.end ?? todayUtc(now)
  const start = input.start ?? addDays(end, -30)
  if (start > end) throw invalidParameter(names.start, `${names.start} (${start}) must not be after ${names.end} (${end})`)
  return { start, end }
}

/** Half-open timestamp bounds for SQL: [start 00:00Z, end+1 00:00Z). */
export function rangeBounds(range: DateRange): { from: Date; to: Date } {
  return { from: new Date(`${range.start}T00:00:00Z`), to: new Date(`${addDays(range.end, 1)}T00:00:00Z`) }
}

/** Every day of the range, in order. */
export function eachDay(range: DateRange): string[] {
  const days: string[] = []
  // One Date stepped by a day, instead of parsing each day's string again.
  const date = new Date(`${range.start}T00:00:00Z`)
  for (let day = range.start; day <= range.end; day = date.toISOString().slice(0, 10)) {
    days.push(day)
    date.setUTCDate(date.getUTCDate() + 1)
  }
  return days
}

/** The period of equal length that ends the day before `range` starts. */
export function previousRange(range: DateRange): DateRange {
  const days = daysBetween(range.start, range.end) + 1
  return { start: addDays(range.start, -days), end: addDays(range.start, -1) }
}

/** The UTC calendar units coarser than a day that the rollups keep, finest first. */
export const CALENDAR_UNITS = ['month', 'quarter', 'year'] as const
export type CalendarUnit = (typeof CALENDAR_UNITS)[number]

const MONTHS_IN: Record<CalendarUnit, number> = { month: 1, quarter: 3, year: 12 }

/** The first day of the month (quarter, year) holding `day`. */
export function unitStart(day: string, unit: CalendarUnit): string {
  if (unit === 'year') return `${day.slice(0, 4)}-01-01`
  const month = Number(day.slice(5, 7))
  const first = unit === 'quarter' ? month - ((month - 1) % 3) : month
  return `${day.slice(0, 4)}-${String(first).padStart(2, '0')}-01`
}

/** The first day of the unit after the one starting on `first`. */
export function nextUnit(first: string, unit: CalendarUnit): string {
  const date = new Date(`${first}T00:00:00Z`)
  date.setUTCMonth(date.getUTCMonth() + MONTHS_IN[unit])
  return date.toISOString().slice(0, 10)
}

/**
 * One piece of a range's cover by calendar tiers: a run of whole units of a tier (`units`:
 * the first day of the first and last unit; for days, the days), or a unit the range
 * covers only in part: its row holds exactly the range's part when the workspace has
 * nothing on the `rest` of it, else `finer` covers the part with the next tier.
 */
export type CoverPart = { tier: CalendarUnit | 'day'; units: DateRange } | { tier: CalendarUnit; unit: string; rest: DateRange[]; finer: CoverPart[] }

/** A range covered by whole units of `tiers` (coarsest first, ending with 'day'). */
export function coverRange(range: DateRange, tiers: readonly (CalendarUnit | 'day')[]): CoverPart[] {
  const [tier, ...finer] = tiers
  if (tier === undefined || tier === 'day') return [{ tier: 'day', units: range }]
  const parts: CoverPart[] = []
  let whole: DateRange | undefined
  for (let unit = unitStart(range.start, tier); unit <= range.end; unit = nextUnit(unit, tier)) {
    const unitEnd = addDays(nextUnit(unit, tier), -1)
    const covered = { start: unit < range.start ? range.start : unit, end: unitEnd > range.end ? range.end : unitEnd }
    if (covered.start === unit && covered.end === unitEnd) {
      // Consecutive whole units are one read.
      if (whole) whole.end = unit
      else parts.push({ tier, units: (whole = { start: unit, end: unit }) })
      continue
    }
    whole = undefined
    const rest = [
      { start: unit, end: addDays(covered.start, -1) },
      { start: addDays(covered.end, 1), end: unitEnd },
    ].filter((run) => run.start <= run.end)
    parts.push({ tier, unit, rest, finer: coverRange(covered, finer) })
  }
  return parts
}
