// The API as the dashboard uses it: bearer key from the session, JSON envelope unwrapped,
// errors as ApiError carrying the API's code and message (which say what to do).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export interface Envelope<T> {
  success: true
  data: T
  job?: { id: string; state: string }
  message?: string
}

export async function apiRequest<T>(key: string, path: string, init: { method?: string; body?: unknown; params?: URLSearchParams } = {}): Promise<Envelope<T>> {
  const query = init.params && [...init.params.keys()].length ? `?${init.params}` : ''
  let response: Response
  try {
    response = await fetch(`/api/v1${path}${query}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${key}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    })
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached; check that Beacon is running and reload')
  }
  const text = await response.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error
    throw new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `The server answered ${response.status}`)
  }
  return body as Envelope<T>
}

export const apiGet = async <T>(key: string, path: string, params?: URLSearchParams): Promise<T> => (await apiRequest<T>(key, path, { params })).data

/** Downloads a file the API streams (exports need the bearer header, so a plain link cannot). */
export async function download(key: string, path: string, params: URLSearchParams, fallbackName: string): Promise<void> {
  const response = await fetch(`/api/v1${path}?${params}`, { headers: { authorization: `Bearer ${key}` } })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null
    throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `The server answered ${response.status}`)
  }
  const disposition = response.headers.get('content-disposition') ?? ''
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName
  const url = URL.createObjectURL(await response.blob())
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = name
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

// ---- shapes of the routes the dashboard reads ----------------------------------------

export interface Pagination {
  page: number
  per_page: number
  total_items: number
  total_pages?: number
}

export interface FilterValues {
  providers: string[]
  models: { id: string; provider: string; name: string }[]
  tags: string[]
  brands: { id: string; name: string; is_primary: boolean }[]
  date_range: { earliest_data: string | null; latest_data: string | null }
}

export interface BrandMetrics {
  visibility_score: number
  sentiment_avg: number
  position_avg: number
  mention_count: number
}

export interface Dashboard {
  brands: Record<string, BrandMetrics>
  total_mentions: number
  total_sources: number
  date_range: { start: string; end: string }
}

export interface Brand {
  id: string
  name: string
  domain: string | null
  icon_url: string | null
  is_primary: boolean
  is_active: boolean
}

export interface PeriodMetrics extends BrandMetrics {
  share_of_voice: number
  response_count: number
  responses_mentioning: number
}

export interface BrandDetail {
  brand: Brand
  period: { start: string; end: string }
  metrics: PeriodMetrics
  previous_period: { start: string; end: string; metrics: PeriodMetrics }
  change: { visibility_score: number; mention_count: number; sentiment_avg: number; position_avg: number; share_of_voice: number }
  by_provider: (BrandMetrics & { provider: string; response_count: number })[]
  daily_trend: { date: string; visibility_score: number; mention_count: number }[]
  top_prompts: { prompt_id: string; text: string; visibility_score: number; mention_count: number; response_count: number }[]
  top_sources: { domain: string; citation_count: number }[]
}

export interface PromptRow {
  id: string
  text: string
  tags: string[]
  is_active: boolean
  performance: { response_count: number; avg_visibility: number }
}

export interface PromptDetail {
  prompt: { id: string; text: string; tags: string[]; is_active: boolean; created_at: string }
  period: { start: string; end: string }
  metrics: { response_count: number; responses_with_mentions: number; brands_mentioned: number; avg_sentiment: number }
  previous_period: { start: string; end: string; metrics: PromptDetail['metrics'] }
  change: { response_count: number; responses_with_mentions: number; avg_sentiment: number }
  brands: {
    brand_id: string
    name: string
    is_primary: boolean
    visibility_score: number
    mention_count: number
    share_of_voice: number
    sentiment_avg: number
    position_avg: number
  }[]
  by_provider: { provider: string; response_count: number; brands: Record<string, number> }[]
  daily_trend: { date: string; response_count: number }[]
  top_sources: { domain: string; citation_count: number }[]
}

export interface Source {
  domain: string
  source_type: string
  citation_count: number
  authority_score: number
  usage_percentage: number
  last_cited: string
  daily_chart: { date: string; count: number }[]
}

export interface UrlRow {
  url: string
  domain: string
  title: string
  citation_count: number
  first_cited: string
  last_cited: string
  daily_chart?: { date: string; count: number }[]
  providers_citing?: string[]
}

export interface ResponsePreview {
  id: string
  provider: string
  model: string
  content_preview: string
  created_at: string
}

export interface ResponseDetail {
  id: string
  prompt_id: string
  prompt: string
  provider: string
  model: string
  content: string
  created_at: string
  sentiment: number | null
  mentions: { brand_id: string; name: string; occurrences: number; position: number; sentiment: number | null; spans: { start: number; end: number }[] }[]
  citations: { url: string; domain: string; title: string; source_type: string }[]
  /** the web searches the engine ran for this answer, in its order */
  search_queries: string[]
}

export interface SearchQueryRow {
  query: string
  count: number
  prompts: number
  providers: { provider: string; count: number }[]
  first_seen: string
  last_seen: string
}

export interface AioMetrics {
  coverage_rate: number
  total_queries: number
  queries_with_aio: number
  brand_coverage: Record<string, { appearance_rate: number; avg_position: number; total_appearances: number }>
  trend: { date: string; coverage_rate: number }[]
}

export interface ExportStatistics {
  total_rows: number
  estimated_size_mb: number
  date_range: { start: string; end: string }
  last_updated: string | null
}

export interface Job {
  id: string
  type: string
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  progress: { done: number; total: number }
  created_at: string
  started_at: string | null
  finished_at: string | null
  error: { code: string; message: string } | null
}

/** GET /api/v1/collection/targets (DESIGN §14). */
export interface CollectionTarget {
  id: string
  kind: 'answer' | 'aio'
  provider: string | null
  model: string | null
  api: 'native' | 'openai_compatible' | 'demo' | null
  base_url: string | null
  web_search: boolean
  serp: 'serpapi' | 'dataforseo' | null
  locale: string | null
  samples: number
  schedule: string
  timezone: string
  next_run_at: string | null
  enabled: boolean
  credential: string | null
  flagged: boolean
  flag_reason: string | null
}

export interface CollectionRun {
  id: string
  state: Job['state']
  trigger: 'manual' | 'schedule'
  planned: number
  succeeded: number
  failed: number
  duplicates: number
  skipped: number
  /** non-answers (refusals, cut answers, failed searches, exhausted quota): counted, never stored */
  refused?: number
  incomplete?: number
  search_failed?: number
  quota_exhausted?: number
  tokens_in: number
  tokens_out: number
  cost_usd: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  errors: { target_id: string; code: string; message: string; count: number }[]
}
