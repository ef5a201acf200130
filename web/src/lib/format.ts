// Numbers as the API rounds them (docs/metrics.md): scores and percentages 2 decimals, ratios 4
// (shown as a percentage with 2), sentiment 3, positions 2, counts whole. The dashboard
// never rounds again: it only fixes the number of decimals and groups thousands, so the
// figure on screen is the figure the API returned.

const grouped = (value: number, decimals: number): string => value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: true })

const missing = '–'
const isNumber = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value)

/** 0–100 score or percentage: "58.60" */
export const formatScore = (value: number | null | undefined): string => (isNumber(value) ? grouped(value, 2) : missing)
/** 0–1 ratio as a percentage: 0.6465 → "64.65%" (exact: 4 decimals of a ratio are 2 of a percentage) */
export const formatRatioPercent = (value: number | null | undefined): string => (isNumber(value) ? `${grouped(Math.round(value * 10000) / 100, 2)}%` : missing)
/** sentiment -1..1: "0.227", "-0.050" */
export const formatSentiment = (value: number | null | undefined): string => (isNumber(value) ? grouped(value, 3) : missing)
/** average position: "1.91" */
export const formatPosition = (value: number | null | undefined): string => (isNumber(value) ? grouped(value, 2) : missing)
/** whole counts: "12,037" */
export const formatCount = (value: number | null | undefined): string => (isNumber(value) ? grouped(value, 0) : missing)
/** megabytes as the statistics route estimates them */
export const formatMegabytes = (value: number | null | undefined): string => (isNumber(value) ? `${grouped(value, value < 1 ? 3 : 1)} MB` : missing)

export type Metric = 'score' | 'sentiment' | 'position' | 'count'
const byMetric: Record<Metric, (value: number | null | undefined) => string> = {
  score: formatScore,
  sentiment: formatSentiment,
  position: formatPosition,
  count: formatCount,
}

/** A change between periods with its sign: "+4.61", "-0.12", "0.00". */
export function formatChange(metric: Metric, value: number | null | undefined): string {
  if (!isNumber(value)) return missing
  const text = byMetric[metric](Math.abs(value))
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text
}

/** Whether a change is good news: a lower position is better. */
export function changeTone(metric: Metric, value: number | null | undefined): 'up' | 'down' | 'flat' {
  if (!isNumber(value) || value === 0) return 'flat'
  const better = metric === 'position' ? value < 0 : value > 0
  return better ? 'up' : 'down'
}

/** "2026-11-25T19:50:28.042Z" → "2026-11-25 19:50 UTC" (the API's times are UTC). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return missing
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return missing
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`
}

/** Parses a number the dashboard printed (for checks and sorting): "12,037" → 12037, "64.65%" → 64.65. */
export function parseDisplayed(text: string): number | null {
  const cleaned = text.replace(/[,%\s]|MB/g, '').replace('−', '-')
  if (cleaned === '' || cleaned === missing) return null
  const value = Number(cleaned)
  return Number.isFinite(value) ? value : null
}

// ---- uncertainty (docs/uncertainty-and-discovery.md) ----------------------------------
// AI answers are samples: a rate is shown with its Wilson 95% interval, and a change between
// periods is only "news" when the API's two-proportion test calls it significant.

/** A rate's interval on the rate's own scale: {low: 51.58, high: 52.26} → "51.58–52.26". */
export function formatInterval(interval: { low: number; high: number } | null | undefined, format: (value: number) => string = formatScore): string {
  if (!interval || !isNumber(interval.low) || !isNumber(interval.high)) return missing
  return `${format(interval.low)}–${format(interval.high)}`
}

/** What a tested change means: more than noise, within noise, or too few answers to tell. */
export type ChangeVerdict = 'significant' | 'noise' | 'untested'

export function changeVerdict(test: { significant: boolean | null } | null | undefined): ChangeVerdict {
  if (!test || test.significant === null) return 'untested'
  return test.significant ? 'significant' : 'noise'
}

/** Words for the verdict, with the p-value when there is one: "within noise (p = 0.82)". */
export function describeVerdict(test: { p_value: number | null; significant: boolean | null } | null | undefined): string {
  const verdict = changeVerdict(test)
  const p = test && isNumber(test.p_value) ? (test.p_value < 0.001 ? ' (p < 0.001)' : ` (p = ${Number(test.p_value.toPrecision(2))})`) : ''
  if (verdict === 'significant') return `significant${p}`
  if (verdict === 'noise') return `within noise${p}`
  return 'too few answers to test'
}

/**
 * The colour of a change: only a change the test calls significant is coloured (green when
 * good news, red when bad); every other difference, untested ones included, stays neutral.
 */
export function testedTone(metric: Metric, value: number | null | undefined, test: { significant: boolean | null } | null | undefined): 'up' | 'down' | 'flat' {
  return changeVerdict(test) === 'significant' ? changeTone(metric, value) : 'flat'
}
