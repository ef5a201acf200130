// The dashboard's state lives in the URL (docs/dashboard.md): the path picks the page, the query
// holds the filters (period, providers, models, tags) and a table's page and sort. So a view
// can be shared by its link, and the browser's back and forward move between views.

export const PRESETS = ['7d', '30d', '90d', 'custom'] as const
export type Preset = (typeof PRESETS)[number]
export const DEFAULT_PRESET: Preset = '30d'
const PRESET_DAYS: Record<Exclude<Preset, 'custom'>, number> = { '7d': 7, '30d': 30, '90d': 90 }

export interface Filters {
  preset: Preset
  /** YYYY-MM-DD, inclusive */
  start: string
  end: string
  /** catalogue providers (the API's `models` parameter) */
  providers: string[]
  /** model ids (the API's `model_ids`) */
  models: string[]
  tags: string[]
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A real calendar date written YYYY-MM-DD. */
export function isDate(value: string | null | undefined): value is string {
  if (!value || !DATE.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10)

/** A preset's range ending today; like the API's default, "30d" starts 30 days before the end. */
export function presetRange(preset: Exclude<Preset, 'custom'>, today: string): { start: string; end: string } {
  return { start: addDays(today, -PRESET_DAYS[preset]), end: today }
}

/** A list parameter: comma-separated and/or repeated, trimmed, de-duplicated, sorted (one URL per view). */
function listParam(params: URLSearchParams, name: string): string[] {
  const values = params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
  return [...new Set(values)].sort()
}

export function parseFilters(search: string, today: string): Filters {
  const params = new URLSearchParams(search)
  const lists = { providers: listParam(params, 'providers'), models: listParam(params, 'models'), tags: listParam(params, 'tags') }
  const start = params.get('start')
  const end = params.get('end')
  const period = params.get('period')
  if ((period === 'custom' || period === null) && isDate(start) && isDate(end) && start <= end) return { preset: 'custom', start, end, ...lists }
  const preset: Exclude<Preset, 'custom'> = period === '7d' || period === '90d' || period === '30d' ? period : '30d'
  return { preset, ...presetRange(preset, today), ...lists }
}

/** The query string for filters (without page state); defaults are left out. */
export function filtersToParams(filters: Filters): URLSearchParams {
  const params = new URLSearchParams()
  if (filters.preset === 'custom') {
    params.set('period', 'custom')
    params.set('start', filters.start)
    params.set('end', filters.end)
  } else if (filters.preset !== DEFAULT_PRESET) params.set('period', filters.preset)
  for (const name of ['providers', 'models', 'tags'] as const) if (filters[name].length) params.set(name, [...filters[name]].sort().join(','))
  return params
}

/** Page-level keys (table page, sort) that a filter change resets. */
const VIEW_KEYS = ['page', 'sort', 'dir', 'upage']

/** The search string after a filter change: the filters' parameters plus any other non-view ones. */
export function withFilters(search: string, filters: Filters): string {
  const current = new URLSearchParams(search)
  const next = filtersToParams(filters)
  for (const [key, value] of current) if (!['period', 'start', 'end', 'providers', 'models', 'tags', ...VIEW_KEYS].includes(key)) next.append(key, value)
  const text = next.toString()
  return text ? `?${text}` : ''
}

/** The search string with one parameter set (or removed when value is null or ''). */
export function withParam(search: string, name: string, value: string | number | null): string {
  const params = new URLSearchParams(search)
  if (value === null || value === '') params.delete(name)
  else params.set(name, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

export function intParam(search: string, name: string, fallback: number): number {
  const raw = new URLSearchParams(search).get(name)
  const value = raw === null ? NaN : Number(raw)
  return Number.isInteger(value) && value >= 1 ? value : fallback
}

/** Which API family a query is for: they name their parameters differently. */
export type ApiFamily = 'analytics' | 'aio' | 'export'

/** The API query for filters: analytics routes take start_date/end_date/models/model_ids/tags; AIO has no providers; exports use date_from/date_to. */
export function apiParams(filters: Filters, family: ApiFamily = 'analytics'): URLSearchParams {
  const params = new URLSearchParams()
  if (family === 'export') {
    params.set('date_from', filters.start)
    params.set('date_to', filters.end)
  } else {
    params.set('start_date', filters.start)
    params.set('end_date', filters.end)
  }
  if (family !== 'aio' && filters.providers.length) params.set('models', filters.providers.join(','))
  if (family === 'analytics' && filters.models.length) params.set('model_ids', filters.models.join(','))
  if (filters.tags.length) params.set('tags', filters.tags.join(','))
  return params
}

/** Reads and clears a sign-in key from the fragment (`#key=bvk_…`); fragments never reach the server. */
export function keyFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const key = params.get('key')
  return key && key.trim() ? key.trim() : null
}

/** Splits a path into a route name and its id: "/brands/abc" → ["brands", "abc"]. */
export function matchRoute(pathname: string): { page: string; id: string | null; sub: string | null } {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent)
  return { page: parts[0] ?? 'overview', id: parts[1] ?? null, sub: parts[2] ?? null }
}
