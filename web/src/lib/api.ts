// The API as the dashboard uses it: bearer key from the session, JSON envelope unwrapped,
// errors as ApiError carrying the API's code and message (which say what to do).
import type { paths } from './api-types'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the field the API named as the problem (error.param), if any */
    readonly param?: string,
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
    const error = (body as { error?: { code?: string; message?: string; param?: string } } | null)?.error
    throw new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `The server answered ${response.status}`, error?.param)
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
// Derived from api-types.ts, which `npm run generate:api-types` writes from the app's own
// /openapi.json (docs/dashboard.md): never written by hand here, so they cannot drift.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
/** A path of the API under /api/v1, as the dashboard writes it ('/brands/{brand_id}'). */
export type ApiPath = keyof paths extends infer P ? (P extends `/api/v1${infer Rest}` ? Rest : never) : never
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[`/api/v1${P}`][M]>
type Success<R> = R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : R extends { 202: infer S } ? S : never
type JsonOf<S> = S extends { content: { 'application/json': infer J } } ? J : never
/** The `data` of a route's successful answer. */
export type ApiData<P extends ApiPath, M extends Method = 'get'> = JsonOf<Success<Operation<P, M>['responses']>> extends { data: infer D } ? D : never
/** The JSON body a route takes. */
export type ApiBody<P extends ApiPath, M extends Method> = Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never
/** A route's query parameters. */
export type ApiQuery<P extends ApiPath, M extends Method = 'get'> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never

export type FilterValues = ApiData<'/filters'>
export type Pagination = ApiData<'/brands'>['pagination']
export type Dashboard = ApiData<'/dashboard'>
export type BrandMetrics = Dashboard['brands'][string]
export type Brand = ApiData<'/brands'>['competitors'][number]
export type BrandDetail = ApiData<'/brands/{brand_id}'>
export type PeriodMetrics = BrandDetail['metrics']
/** Wilson 95% interval of a rate (docs/uncertainty-and-discovery.md); null when nothing was measured. */
export type Interval = NonNullable<PeriodMetrics['visibility_ci']>
/** The two-proportion z-test of a change between periods. */
export type ChangeTest = BrandDetail['change']['visibility_test']
export type PromptRow = ApiData<'/prompts'>['prompts'][number]
export type PromptDetail = ApiData<'/prompts/{prompt_id}'>
export type Source = ApiData<'/sources'>['sources'][number]
export type UrlRow = ApiData<'/urls-detailed'>['urls'][number]
export type ResponsePreview = ApiData<'/responses'>['responses'][number]
export type ResponseDetail = ApiData<'/responses/{response_id}'>
export type AioMetrics = ApiData<'/aio-metrics'>
export type ExportStatistics = ApiData<'/exports/chat-responses/statistics'>
export type Job = ApiData<'/jobs/{job_id}'>
export type CollectionTarget = ApiData<'/collection/targets'>[number]
export type CollectionRun = ApiData<'/collection/runs/{run_id}'>
export type Credential = ApiData<'/collection/credentials'>[number]
export type Webhook = ApiData<'/webhooks/{webhook_id}'>
export type SearchQueryRow = ApiData<'/search-queries'>['search_queries'][number]
