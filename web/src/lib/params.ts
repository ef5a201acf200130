/** A copy of `params` with extra values set. */
export function withExtra(params: URLSearchParams, extra: Record<string, string | number | undefined | null>): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') next.set(k, String(v))
  return next
}
