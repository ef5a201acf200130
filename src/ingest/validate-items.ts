// Pure validation of ingestion items. Every problem of every item is collected so one
// 400 tells the caller everything to fix (DESIGN §9: all-or-nothing).
import { PROVIDERS } from '../http/schemas.js'
import { isUuidValue } from '../http/query-values.js'

export interface ItemProblem {
  index: number
  field: string
  message: string
}

export interface ResponseItem {
  external_id?: string
  prompt_id: string
  provider: string
  model: string
  content: string
  created_at: string
  citations?: { url: string; title?: string | null }[]
}

export interface AioItem {
  external_id?: string
  prompt_id: string
  observed_at: string
  has_aio: boolean
  overview_text?: string | null
}

export const MAX_BATCH_ITEMS = 1000
const MAX_TEXT = 200_000
const MAX_ID = 200
const MAX_CITATIONS = 200
const FUTURE_TOLERANCE_MS = 24 * 3600 * 1000
// ISO 8601 with a time zone: a stored time must mean one instant.
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function checkTimestamp(value: unknown, field: string, index: number, problems: ItemProblem[], now: Date): void {
  if (typeof value !== 'string' || !ISO_DATETIME.test(value) || Number.isNaN(Date.parse(value))) {
    problems.push({ index, field, message: `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-05-01T12:00:00Z` })
  } else if (Date.parse(value) > now.getTime() + FUTURE_TOLERANCE_MS) {
    problems.push({ index, field, message: `${field} is in the future` })
  }
}

function checkCommon(item: Record<string, unknown>, index: number, problems: ItemProblem[], allowed: Set<string>): void {
  for (const key of Object.keys(item)) {
    if (!allowed.has(key)) problems.push({ index, field: key, message: `unknown field "${key}"; allowed: ${[...allowed].join(', ')}` })
  }
  if (item.external_id !== undefined && item.external_id !== null) {
    if (typeof item.external_id !== 'string' || item.external_id.trim() === '' || item.external_id.length > MAX_ID) {
      problems.push({ index, field: 'external_id', message: `external_id must be a non-empty string of at most ${MAX_ID} characters` })
    }
  }
  if (typeof item.prompt_id !== 'string' || !isUuidValue(item.prompt_id)) {
    problems.push({ index, field: 'prompt_id', message: 'prompt_id must be the UUID of a prompt of this workspace' })
  }
}

const RESPONSE_FIELDS = new Set(['external_id', 'prompt_id', 'provider', 'model', 'content', 'created_at', 'citations'])
const AIO_FIELDS = new Set(['external_id', 'prompt_id', 'observed_at', 'has_aio', 'overview_text'])

export function validateResponseItems(items: unknown[], now: Date = new Date()): { items: ResponseItem[]; problems: ItemProblem[] } {
  const problems: ItemProblem[] = []
  items.forEach((item, index) => {
    if (!isObject(item)) {
      problems.push({ index, field: '', message: 'each item must be a JSON object' })
      return
    }
    checkCommon(item, index, problems, RESPONSE_FIELDS)
    if (typeof item.provider !== 'string' || !(PROVIDERS as readonly string[]).includes(item.provider)) {
      problems.push({ index, field: 'provider', message: `provider must be one of: ${PROVIDERS.join(', ')}` })
    }
    if (typeof item.model !== 'string' || item.model.trim() === '' || item.model.length > MAX_ID) {
      problems.push({ index, field: 'model', message: `model must be a non-empty model id of at most ${MAX_ID} characters` })
    }
    if (typeof item.content !== 'string') problems.push({ index, field: 'content', message: 'content must be a string (it may be empty)' })
    else if (item.content.length > MAX_TEXT) problems.push({ index, field: 'content', message: `content must be at most ${MAX_TEXT} characters` })
    checkTimestamp(item.created_at, 'created_at', index, problems, now)
    if (item.citations !== undefined && item.citations !== null) {
      if (!Array.isArray(item.citations) || item.citations.length > MAX_CITATIONS) {
        problems.push({ index, field: 'citations', message: `citations must be an array of at most ${MAX_CITATIONS} {url, title?} objects` })
      } else {
        item.citations.forEach((citation, c) => {
          if (!isObject(citation) || typeof citation.url !== 'string' || citation.url.length > 4000) {
            problems.push({ index, field: `citations[${c}].url`, message: 'each citation needs a url string' })
          } else if (citation.title !== undefined && citation.title !== null && typeof citation.title !== 'string') {
            problems.push({ index, field: `citations[${c}].title`, message: 'title must be a string' })
          }
        })
      }
    }
  })
  return { items: items as ResponseItem[], problems }
}

export function validateAioItems(items: unknown[], now: Date = new Date()): { items: AioItem[]; problems: ItemProblem[] } {
  const problems: ItemProblem[] = []
  items.forEach((item, index) => {
    if (!isObject(item)) {
      problems.push({ index, field: '', message: 'each item must be a JSON object' })
      return
    }
    checkCommon(item, index, problems, AIO_FIELDS)
    checkTimestamp(item.observed_at, 'observed_at', index, problems, now)
    if (typeof item.has_aio !== 'boolean') problems.push({ index, field: 'has_aio', message: 'has_aio must be true or false' })
    if (item.overview_text !== undefined && item.overview_text !== null) {
      if (typeof item.overview_text !== 'string') problems.push({ index, field: 'overview_text', message: 'overview_text must be a string or null' })
      else if (item.overview_text.length > MAX_TEXT) problems.push({ index, field: 'overview_text', message: `overview_text must be at most ${MAX_TEXT} characters` })
      else if (item.has_aio === false && item.overview_text.trim() !== '') {
        problems.push({ index, field: 'overview_text', message: 'overview_text must be empty when has_aio is false' })
      }
    }
  })
  return { items: items as AioItem[], problems }
}

/** One readable line per problem, for messages and the CLI. */
export function describeProblems(problems: ItemProblem[], listName: string): string {
  const shown = problems.slice(0, 20).map((p) => `${listName}[${p.index}]${p.field ? `.${p.field}` : ''}: ${p.message}`)
  return `${problems.length} problem(s) in ${listName}; nothing was stored. ${shown.join('; ')}${problems.length > 20 ? `; and ${problems.length - 20} more (see error.details)` : ''}`
}
