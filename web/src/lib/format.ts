// Numbers as the API rounds them (DESIGN §7): scores and percentages 2 decimals, ratios 4
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
