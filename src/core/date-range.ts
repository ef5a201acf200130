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

export interface MonthSplit {
  /** first days (YYYY-MM-01) of the first and last whole calendar month inside the range, if any */
  months: { first: string; last: string } | null
  /**
   * The days outside those months, as runs that never cross a month boundary (at most
   * two before the whole months and two after, or two for a range with none), each with
   * the first day of its month.
   */
  days: (DateRange & { month: string })[]
}

const monthOf = (day: string) => `${day.slice(0, 8)}01`

/** The first day of the month after the one starting on `first`. */
export function nextMonth(first: string): string {
  const date = new Date(`${first}T00:00:00Z`)
  date.setUTCMonth(date.getUTCMonth() + 1)
  return date.toISOString().slice(0, 10)
}

/** A range as whole UTC calendar months plus the loose days at either end (for monthly rollups). */
export function splitIntoMonths(range: DateRange): MonthSplit {
  const firstWhole = range.start.endsWith('-01') ? range.start : nextMonth(monthOf(range.start))
  const afterEnd = addDays(range.end, 1)
  // The last whole month is the one before the month of the day after the end.
  const endExclusive = monthOf(afterEnd)
  const loose: DateRange[] = []
  let months: MonthSplit['months'] = null
  if (firstWhole >= endExclusive) loose.push(range)
  else {
    months = { first: firstWhole, last: monthOf(addDays(endExclusive, -1)) }
    if (range.start < firstWhole) loose.push({ start: range.start, end: addDays(firstWhole, -1) })
    if (endExclusive <= range.end) loose.push({ start: endExclusive, end: range.end })
  }
  // A loose run crosses at most one month boundary: a range spanning three months has a whole one.
  const days: MonthSplit['days'] = []
  for (const run of loose) {
    const boundary = nextMonth(monthOf(run.start))
    if (run.end < boundary) days.push({ ...run, month: monthOf(run.start) })
    else days.push({ start: run.start, end: addDays(boundary, -1), month: monthOf(run.start) }, { start: boundary, end: run.end, month: boundary })
  }
  return { months, days }
}
