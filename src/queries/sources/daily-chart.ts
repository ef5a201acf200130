import { eachDay, type DateRange } from '../../core/date-range.js'

export interface DailyCount {
  date: string
  count: number
}

export interface KeyedDayCount {
  key: string
  day: string
  count: number
}

/**
 * One key's days as the rollup reads return them: offsets from the range start
 * (`array_agg(day - start)`) and the counts on those days, both null when it has none.
 */
export interface DaySeries {
  offsets: readonly number[] | null
  counts: readonly number[] | null
}

/**
 * Every day of the range for every key, zero where the series has no day. A year of 20
 * keys is 7,300 points: counts go into one array per key by day index, so no key or date
 * strings are built per point (building them was the route's largest CPU cost).
 */
export function chartsFromSeries(range: DateRange, keys: readonly string[], series: ReadonlyMap<string, DaySeries>): Map<string, DailyCount[]> {
  const days = eachDay(range)
  const charts = new Map<string, DailyCount[]>()
  for (const key of keys) {
    const counts = new Array<number>(days.length).fill(0)
    const { offsets, counts: values } = series.get(key) ?? { offsets: null, counts: null }
    offsets?.forEach((offset, i) => {
      if (offset >= 0 && offset < days.length) counts[offset] = values?.[i] ?? 0
    })
    charts.set(
      key,
      days.map((date, i) => ({ date, count: counts[i] })),
    )
  }
  return charts
}

/** The same from grouped rows of (key, day, count), as the reads of the raw facts return them. */
export function zeroFilledCharts(range: DateRange, keys: readonly string[], rows: readonly KeyedDayCount[]): Map<string, DailyCount[]> {
  const dayIndex = new Map(eachDay(range).map((day, i) => [day, i]))
  const series = new Map<string, { offsets: number[]; counts: number[] }>()
  for (const row of rows) {
    const offset = dayIndex.get(row.day)
    if (offset === undefined) continue
    let keySeries = series.get(row.key)
    if (!keySeries) series.set(row.key, (keySeries = { offsets: [], counts: [] }))
    keySeries.offsets.push(offset)
    keySeries.counts.push(row.count)
  }
  return chartsFromSeries(range, keys, series)
}
