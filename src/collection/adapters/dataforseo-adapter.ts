// Google's AI overview through DataForSEO's SERP API, live mode (plain fetch, Basic auth with
// login:password). Wire format: https://docs.dataforseo.com/v3/serp/google/organic/live/advanced/
// — the body is `{status_code: 20000, tasks: [{status_code, status_message, result: [{items}]}]}`;
// the overview is the item `{type: "ai_overview", items: [{type: "ai_overview_element", title,
// text, references}], references: [{source, domain, url, title, text}]}`. Status codes other
// than 20000 are errors: 401xx credentials, 402xx money/limits, 5xxxx DataForSEO's own; HTTP 402
// "Payment Required" means the balance is spent (https://docs.dataforseo.com/v3/appendix/errors).
// Besides `ai_overview_element`, an overview holds `ai_overview_expanded_element` `{title, text,
// components: [{type, title, text, markdown, references}], references}` and
// `ai_overview_table_element` `{markdown, table: {table_header: [..], table_content: [[..]]},
// references}` (DataForSEO's TypeScript client: SerpApiAiOverviewExpandedElementItem,
// AiOverviewExpandedComponent, SerpApiAiOverviewTableElementItem); their text and sources are
// part of what users see, so they are kept in the overview text and citations.
import { asArray, asString, CitationList, isObject, type JsonObject } from './parse-helpers.js'
import { callProvider, kindForStatus, malformed, nonAnswer, parseRetryAfter, providerError, readJson, withoutUsage } from './provider-errors.js'
import type { AioAdapter, AioAnswer, AioRequest, ProviderErrorKind } from './types.js'

export const DATAFORSEO_DEFAULT_BASE_URL = 'https://api.dataforseo.com'

/** Country → DataForSEO location_code (Google's geo target ids) for the locales people track most. */
const LOCATION_CODES: Record<string, number> = {
  us: 2840,
  gb: 2826,
  ca: 2124,
  au: 2036,
  de: 2276,
  fr: 2250,
  es: 2724,
  it: 2380,
  nl: 2528,
  in: 2356,
  br: 2076,
  mx: 2484,
  jp: 2392,
  ie: 2372,
  nz: 2554,
  se: 2752,
  pl: 2616,
}

export function dataForSeoLocale(locale: string): { language_code: string; location_code: number } {
  const [language, country] = locale.trim().split(/[-_]/)
  return { language_code: (language || 'en').toLowerCase(), location_code: LOCATION_CODES[(country ?? 'us').toLowerCase()] ?? LOCATION_CODES.us }
}

/** 40203 and a 402xx whose message names money: the balance or the spending limit is used up. */
const MONEY = /balance|money|funds|payment|limit.{0,20}(spent|exceeded|reached)/i
const isOutOfMoney = (code: number, message: string) => code === 40203 || (code >= 40200 && code < 40300 && code !== 40202 && code !== 40209 && MONEY.test(message))

/** A non-20000 status as a ProviderError, or the quota_exhausted outcome when the money ran out. */
function statusError(label: string, code: number, message: string, raw: unknown): Error {
  const detail = `${code} ${message}`.trim()
  if (isOutOfMoney(code, message)) return nonAnswer(label, 'quota_exhausted', withoutUsage(detail, raw))
  return providerError(label, kindForTaskStatus(code), detail)
}

/** DataForSEO's own status codes (https://docs.dataforseo.com/v3/appendix/errors/) as our kinds. */
function kindForTaskStatus(code: number): ProviderErrorKind {
  if (code >= 40100 && code < 40200) return 'unauthorized'
  if (code === 40202 || code === 40209) return 'rate_limited'
  if (code >= 40200 && code < 40300) return 'forbidden'
  if (code >= 50000) return 'server'
  return 'bad_request'
}

function pushText(lines: string[], ...fields: unknown[]): void {
  for (const field of fields) if (typeof field === 'string' && field.trim() !== '') lines.push(field.trim())
}

const cellText = (cell: unknown) => (typeof cell === 'string' ? cell.trim() : typeof cell === 'number' ? String(cell) : '')

function pushTable(lines: string[], table: JsonObject): void {
  const rows = [table.table_header, ...asArray(table.table_content)]
  for (const row of rows) {
    const cells = asArray(row).map(cellText)
    if (cells.some((cell) => cell !== '')) lines.push(cells.join(' | '))
  }
}

/** Reads a live/advanced answer (the JSON as received). */
export function parseDataForSeo(raw: unknown, label = 'dataforseo'): Pick<AioAnswer, 'hasAio' | 'overviewText' | 'citations'> {
  if (!isObject(raw) || !Array.isArray(raw.tasks)) throw malformed(label, 'the answer has no `tasks` array')
  const task = raw.tasks[0]
  if (!isObject(task)) throw malformed(label, 'the answer has no task')
  if (typeof task.status_code === 'number' && task.status_code !== 20000) {
    throw statusError(label, task.status_code, asString(task.status_message) ?? '', raw)
  }
  const lines: string[] = []
  const citations = new CitationList()
  const cite = (element: JsonObject) => {
    for (const reference of asArray(element.references)) if (isObject(reference)) citations.add(reference.url, reference.title)
  }
  let found = false
  for (const result of asArray(task.result)) {
    for (const item of isObject(result) ? asArray(result.items) : []) {
      if (!isObject(item) || item.type !== 'ai_overview') continue
      found = true
      for (const element of asArray(item.items)) {
        if (!isObject(element)) continue
        pushText(lines, element.title, element.text)
        cite(element)
        // ai_overview_expanded_element: each component is a titled section with its own sources.
        for (const component of asArray(element.components)) {
          if (!isObject(component)) continue
          pushText(lines, component.title, component.text ?? component.markdown)
          cite(component)
        }
        // ai_overview_table_element: the table as rows of cells; its markdown when there is no table.
        if (isObject(element.table)) pushTable(lines, element.table)
        else if (element.type === 'ai_overview_table_element') pushText(lines, element.markdown)
      }
      cite(item)
    }
  }
  const overviewText = lines.join('\n')
  return { hasAio: found && (overviewText !== '' || citations.size > 0), overviewText: found ? overviewText : '', citations: citations.list() }
}

export function createDataForSeoAdapter(options: { baseURL: string; fetch?: typeof fetch; fallbackApiKey?: string }): AioAdapter {
  const label = 'dataforseo'
  const doFetch = options.fetch ?? fetch
  const url = `${options.baseURL.replace(/\/+$/, '')}/v3/serp/google/organic/live/advanced`
  return {
    serp: 'dataforseo',
    async observe(request: AioRequest): Promise<AioAnswer> {
      const credential = request.apiKey ?? options.fallbackApiKey
      if (!credential || !credential.includes(':')) {
        throw providerError(label, 'unauthorized', 'no credential: store `login:password` for dataforseo or set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD')
      }
      const { result: raw, latencyMs } = await callProvider(label, request, async (signal) => {
        const response = await doFetch(url, {
          method: 'POST',
          signal,
          headers: { authorization: `Basic ${Buffer.from(credential).toString('base64')}`, 'content-type': 'application/json' },
          // load_async_ai_overview: overviews Google lazy-loads are fetched too, as users see them.
          body: JSON.stringify([{ keyword: request.query, ...dataForSeoLocale(request.locale), device: 'desktop', load_async_ai_overview: true }]),
        })
        if (!response.ok) {
          const text = await response.text()
          if (response.status === 402) throw nonAnswer(label, 'quota_exhausted', withoutUsage(text || 'Payment Required: check the account balance'), { status: 402 })
          throw providerError(label, kindForStatus(response.status), text || response.statusText, { status: response.status, retryAfterMs: parseRetryAfter(response.headers) })
        }
        return readJson(label, response)
      })
      if (isObject(raw) && typeof raw.status_code === 'number' && raw.status_code !== 20000) {
        throw statusError(label, raw.status_code, asString(raw.status_message) ?? '', raw)
      }
      return { ...parseDataForSeo(raw, label), latencyMs, raw, requests: 1 }
    },
  }
}
