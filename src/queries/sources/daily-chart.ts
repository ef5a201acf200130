import { eachDay, type DateRange } from '../../http/date-range.js'

export interface DailyCount {
  date: string
  count: number
}

export interface KeyedDayCount {
  key: string
  day: string
  count: number
}

/** Every day of the range for every key, zero where the grouped query had no row. */
export function zeroFilledCharts(range: DateRange, keys: readonly string[], rows: readonly KeyedDayCount[]): Map<string, DailyCount[]> {
  const counts = new Map<string, number>()
  for (const row of rows) counts.set(`${row.key}\u0000${row.day}`, row.count)
  const days = eachDay(range)
  const charts = new Map<string, DailyCount[]>()
  for (const key of keys)
    charts.set(
      key,
      days.map((date) => ({ date, count: counts.get(`${key}\u0000${date}`) ?? 0 })),
    )
  return charts
}
