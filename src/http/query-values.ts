// Pure parsing of query-string values (docs/api-conventions.md). The request normalizer applies these
// according to each route's schema, so every route gets the same rules and messages.

/**
 * Parses a raw query string into keys with one or many values. `models[]=a` counts as
 * `models=a`, repeated keys collect in order.
 */
export function parseQueryString(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null)
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey
    const existing = out[key]
    if (existing === undefined) out[key] = rawKey.endsWith('[]') ? [value] : value
    else if (Array.isArray(existing)) existing.push(value)
    else out[key] = [existing, value]
  }
  return out
}

/** Repeated keys, comma lists and `[]` keys all become one list; blanks dropped, duplicates removed. */
export function parseArrayValues(value: string | string[]): string[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','))
  const seen = new Set<string>()
  for (const part of parts) {
    const trimmed = part.trim()
    if (trimmed !== '') seen.add(trimmed)
  }
  return [...seen]
}

/** true|false|1|0, nothing else. */
export function parseBooleanValue(value: string): boolean | undefined {
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
      return true
    case 'false':
    case '0':
      return false
    default:
      return undefined
  }
}

/** A whole number written plainly; no exponent, no decimals, no hex. */
export function parseIntegerValue(value: string): number | undefined {
  const trimmed = value.trim()
  if (!/^[+-]?\d{1,15}$/.test(trimmed)) return undefined
  return Number(trimmed)
}

/** YYYY-MM-DD that names a real calendar day (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuidValue = (value: string): boolean => UUID_RE.test(value)
