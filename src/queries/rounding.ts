// docs/metrics.md rounding: scores and percentages 2 decimals, ratios 4, sentiment 3,
// positions 2. Rounding happens once, at the edge, on exact values.
const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals
  const rounded = Math.round((value + Number.EPSILON) * factor) / factor
  return Object.is(rounded, -0) ? 0 : rounded
}

/** 0–100 scores and percentages */
export const roundScore = (value: number): number => round(value, 2)
/** 0–1 ratios (`*_rate`) */
export const roundRatio = (value: number): number => round(value, 4)
export const roundSentiment = (value: number): number => round(value, 3)
export const roundPosition = (value: number): number => round(value, 2)

/** 100 × part / whole, 0 when the whole is empty. */
export const percentage = (part: number, whole: number): number => (whole > 0 ? roundScore((100 * part) / whole) : 0)
export const ratio = (part: number, whole: number): number => (whole > 0 ? roundRatio(part / whole) : 0)
