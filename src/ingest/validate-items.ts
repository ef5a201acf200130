// Validation of ingestion items from one TypeBox schema per item kind: the same schema
// validates the HTTP body, feeds the OpenAPI document and checks items the CLI imports.
// Every problem of every item is reported so one 400 tells the caller what to fix
// (docs/data-in.md: all-or-nothing), but the answer is bounded: at most MAX_DETAILS problems
// are kept, the rest are only counted, and the error lists of one item are computed on a
// bounded view of it, so a hostile batch cannot make the server build a huge answer.
import { Type, type Static, type TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { Settings } from 'typebox/system'
import { AppError } from '../core/errors.js'
import { PROVIDERS } from '../core/providers.js'
import { MAX_SEARCH_QUERIES_PER_ANSWER, MAX_SEARCH_QUERY_CHARS } from './search-queries.js'

/** Compiled validators of schemas that reference no shared definitions (TypeBox's empty context). */
type NoContext = Record<never, never>

export const MAX_BATCH_ITEMS = 1000
/** Problems listed in error.details; the others are counted in the message. */
export const MAX_DETAILS = 100
const MAX_TEXT = 200_000
const MAX_ID = 200
const MAX_CITATIONS = 200
const MAX_URL = 4000
const FUTURE_TOLERANCE_MS = 24 * 3600 * 1000
/** Unknown field names named in one problem's message. */
const NAMED_UNKNOWN_FIELDS = 3
/**
 * TypeBox stops gathering errors at Settings.maxErrors (8 by default, a guard against huge
 * lists). One item of the bounded view below has at most about 2 errors per citation kept,
 * a few unknown fields and its own fields, so this limit reports all of them.
 */
const ITEM_MAX_ERRORS = 2 * (MAX_CITATIONS + 1) + 32

/** The value or null; null means the same as leaving the field out. */
const Nullable = <T extends TSchema & { type: string }>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })

// `\S`: at least one character that is not white space.
const externalId = Nullable(
  Type.String({ minLength: 1, maxLength: MAX_ID, pattern: '\\S', description: 'Your id for the item; a second item with the same id is a duplicate, not an error (safe retries)' }),
)
const promptId = Type.String({ format: 'uuid', description: 'The id of a prompt of this workspace' })
const timestamp = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}: RFC 3339 (ISO 8601) with a time zone, e.g. 2026-05-01T12:00:00Z; at most one day in the future` })

export const ResponseItemSchema = Type.Object(
  {
    external_id: Type.Optional(externalId),
    prompt_id: promptId,
    provider: Type.Enum([...PROVIDERS]),
    model: Type.String({ minLength: 1, maxLength: MAX_ID, pattern: '\\S', description: 'Model id; added to the catalogue on first sight' }),
    content: Type.String({ maxLength: MAX_TEXT, description: 'The answer text; may be empty (then sentiment is null)' }),
    created_at: timestamp('When the answer was produced'),
    citations: Type.Optional(
      Nullable(
        Type.Array(
          // Other fields of a provider's citation objects are accepted and ignored.
          Type.Object({ url: Type.String({ maxLength: MAX_URL }), title: Type.Optional(Nullable(Type.String())) }),
          { maxItems: MAX_CITATIONS, description: "The provider's cited sources; URLs in the content are added too" },
        ),
      ),
    ),
    search_queries: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 1, maxLength: MAX_SEARCH_QUERY_CHARS, pattern: '\\S' }), {
          maxItems: MAX_SEARCH_QUERIES_PER_ANSWER,
          description: 'The web searches the engine ran itself for this answer (query fan-out), in its order; repeats (ignoring case and spacing) are kept once',
        }),
      ),
    ),
  },
  { additionalProperties: false },
)

export const AioItemSchema = Type.Object(
  {
    external_id: Type.Optional(externalId),
    prompt_id: promptId,
    observed_at: timestamp('When the search result was seen'),
    has_aio: Type.Boolean({ description: 'Whether the search result showed an AI overview' }),
    overview_text: Type.Optional(Nullable(Type.String({ maxLength: MAX_TEXT, description: 'The overview text; must be empty when has_aio is false' }))),
  },
  { additionalProperties: false },
)

export type ResponseItem = Static<typeof ResponseItemSchema>
export type AioItem = Static<typeof AioItemSchema>

export interface ItemProblem {
  index: number
  /** path inside the item, e.g. `created_at` or `citations[2].url`; '' for the item itself */
  field: string
  message: string
}

/** Up to MAX_DETAILS problems, and how many there were in all. */
export interface ProblemReport<T> {
  items: T[]
  problems: ItemProblem[]
  total: number
}

const responseValidator = Compile(ResponseItemSchema)
const aioValidator = Compile(AioItemSchema)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `/citations/3/url` → `citations[3].url` */
function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('')
}

const quote = (name: string) => `"${name.length > 40 ? `${name.slice(0, 37)}...` : name}"`

function typeWords(type: unknown): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    array: 'an array',
    object: 'a JSON object',
    null: 'null',
  }
  const types = (Array.isArray(type) ? type : [type]).map((t) => words[String(t)] ?? String(t))
  return types.join(' or ')
}

/** One readable reason per TypeBox error; limits come from the error, i.e. from the schema. */
function reason(error: TLocalizedValidationError, field: string, unknownOmitted: number, allowed: readonly string[]): string {
  const name = field || 'each item'
  switch (error.keyword) {
    case 'type':
      return field ? `${name} must be ${typeWords(error.params.type)}` : 'each item must be a JSON object'
    case 'enum':
      return `${name} must be one of: ${error.params.allowedValues.map(String).join(', ')}`
    case 'format':
      if (error.params.format === 'date-time') return `${name} must be an ISO 8601 date-time with a time zone, e.g. 2026-05-01T12:00:00Z`
      if (error.params.format === 'uuid') return `${name} must be a UUID${name === 'prompt_id' ? ' of a prompt of this workspace' : ''}`
      return `${name} must be a ${error.params.format}`
    case 'minLength':
    case 'pattern':
      return `${name} must not be empty or blank`
    case 'maxLength':
      return `${name} must be at most ${error.params.limit} characters`
    case 'maxItems':
      return `${name} must hold at most ${error.params.limit} items`
    case 'additionalProperties': {
      const names = error.params.additionalProperties
      const count = names.length + unknownOmitted
      const shown = names.slice(0, NAMED_UNKNOWN_FIELDS).map(quote).join(', ')
      const more = count > NAMED_UNKNOWN_FIELDS ? ` and ${(count - NAMED_UNKNOWN_FIELDS).toLocaleString('en-US')} more` : ''
      return `unknown field${count === 1 ? '' : 's'} ${shown}${more}; allowed: ${allowed.join(', ')}`
    }
    default:
      return `${name} ${error.message}`
  }
}

/**
 * What TypeBox is shown of a bad item: every known field, the first few unknown ones, and
 * lists cut one past their limit. The error list of an item then stays small however big
 * the item is (TypeBox builds the whole list at once); `unknownOmitted` counts the fields left out.
 */
function boundedView(item: unknown, allowed: readonly string[]): { view: unknown; unknownOmitted: number } {
  if (!isObject(item)) return { view: item, unknownOmitted: 0 }
  const view: Record<string, unknown> = {}
  let unknownKept = 0
  let unknownOmitted = 0
  for (const [key, value] of Object.entries(item)) {
    if (allowed.includes(key)) view[key] = Array.isArray(value) ? value.slice(0, MAX_CITATIONS + 1) : value
    else if (unknownKept < NAMED_UNKNOWN_FIELDS) {
      view[key] = value
      unknownKept++
    } else unknownOmitted++
  }
  return { view, unknownOmitted }
}

/** TypeBox's errors of one value, up to ITEM_MAX_ERRORS (the global setting is restored after). */
function errorsOf(validator: Validator<NoContext, TSchema>, value: unknown): TLocalizedValidationError[] {
  const previous = Settings.Get().maxErrors
  Settings.Set({ maxErrors: ITEM_MAX_ERRORS })
  try {
    return validator.Errors(value)
  } finally {
    Settings.Set({ maxErrors: previous })
  }
}

/** Schema problems of one item, one per field (the first reason found for it). */
function schemaProblems(validator: Validator<NoContext, TSchema>, item: unknown, index: number, allowed: readonly string[]): ItemProblem[] {
  const { view, unknownOmitted } = boundedView(item, allowed)
  const byField = new Map<string, ItemProblem>()
  for (const error of errorsOf(validator, view)) {
    // TypeBox reports each unknown field twice: on its own ("schema is false") and once
    // for the object with all their names; the second is the one to show.
    if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) continue
    const fields = error.keyword === 'required' ? error.params.requiredProperties.map((p) => fieldOf(`${error.instancePath}/${p}`)) : [fieldOf(error.instancePath)]
    for (const field of fields) {
      if (byField.has(field)) continue
      const message = error.keyword === 'required' ? `${field} is required` : reason(error, field, unknownOmitted, allowed)
      byField.set(field, { index, field: error.keyword === 'additionalProperties' ? fieldOf(`${error.instancePath}/${error.params.additionalProperties[0]}`) : field, message })
    }
  }
  // A problem of the item's own fields (e.g. too many citations) before those inside lists.
  const nested = (p: ItemProblem) => (p.field.includes('[') ? 1 : 0)
  return [...byField.values()].sort((a, b) => nested(a) - nested(b))
}

/** Checks a schema cannot express: they depend on the time of the request or on two fields. */
type ItemRules = (item: Record<string, unknown>, index: number, badFields: Set<string>, now: Date) => ItemProblem[]

function notInFuture(field: string): ItemRules {
  return (item, index, badFields, now) =>
    !badFields.has(field) && typeof item[field] === 'string' && Date.parse(item[field]) > now.getTime() + FUTURE_TOLERANCE_MS
      ? [{ index, field, message: `${field} is in the future` }]
      : []
}

const responseRules: ItemRules = notInFuture('created_at')
const aioRules: ItemRules = (item, index, badFields, now) => [
  ...notInFuture('observed_at')(item, index, badFields, now),
  ...(!badFields.has('overview_text') && item.has_aio === false && typeof item.overview_text === 'string' && item.overview_text.trim() !== ''
    ? [{ index, field: 'overview_text', message: 'overview_text must be empty when has_aio is false' }]
    : []),
]

function validateItems<S extends TSchema>(
  items: readonly unknown[],
  validator: Validator<NoContext, S>,
  allowed: readonly string[],
  rules: ItemRules,
  now: Date,
): ProblemReport<Static<S>> {
  const valid: Static<S>[] = []
  const problems: ItemProblem[] = []
  let total = 0
  items.forEach((item, index) => {
    let found: ItemProblem[] = []
    if (validator.Check(item)) valid.push(item)
    else found = schemaProblems(validator, item, index, allowed)
    if (isObject(item)) found.push(...rules(item, index, new Set(found.map((p) => p.field)), now))
    total += found.length
    for (const problem of found) if (problems.length < MAX_DETAILS) problems.push(problem)
  })
  return { items: total === 0 ? valid : [], problems, total }
}

const RESPONSE_FIELDS = Object.keys(ResponseItemSchema.properties)
const AIO_FIELDS = Object.keys(AioItemSchema.properties)

export function validateResponseItems(items: readonly unknown[], now: Date = new Date()): ProblemReport<ResponseItem> {
  return validateItems(items, responseValidator, RESPONSE_FIELDS, responseRules, now)
}

export function validateAioItems(items: readonly unknown[], now: Date = new Date()): ProblemReport<AioItem> {
  return validateItems(items, aioValidator, AIO_FIELDS, aioRules, now)
}

const SHOWN_IN_MESSAGE = 20

/** One readable line per problem (the first 20), for messages and the CLI. */
export function describeProblems(problems: ItemProblem[], listName: string, total: number = problems.length): string {
  const shown = problems.slice(0, SHOWN_IN_MESSAGE).map((p) => `${listName}[${p.index}]${p.field ? `.${p.field}` : ''}: ${p.message}`)
  const listed = Math.min(problems.length, MAX_DETAILS)
  const count = (n: number) => n.toLocaleString('en-US')
  let rest = ''
  if (total > listed) rest = `; and ${count(total - shown.length)} more: error.details lists the first ${listed}, the other ${count(total - listed)} are not listed`
  else if (total > shown.length) rest = `; and ${count(total - shown.length)} more (see error.details)`
  return `${total.toLocaleString('en-US')} problem(s) in ${listName}; nothing was stored. ${shown.join('; ')}${rest}`
}

/** 400 with the bad items listed (at most MAX_DETAILS of them); nothing stored. */
export function problemsError(problems: ItemProblem[], listName: string, total: number = problems.length): AppError {
  return new AppError(400, 'invalid_parameter', describeProblems(problems, listName, total), {
    param: listName,
    details: problems.slice(0, MAX_DETAILS).map((p) => ({ index: p.index, field: p.field, message: p.message })),
  })
}

/**
 * The body of an ingestion request, `{"<listName>": [...]}`: the list itself is checked
 * first (shape, at most MAX_BATCH_ITEMS), then every item. Throws the 400 to answer.
 */
export function validateBatchBody<T>(body: unknown, listName: string, validate: (items: readonly unknown[], now?: Date) => ProblemReport<T>): T[] {
  const items = isObject(body) ? body[listName] : undefined
  if (!isObject(body) || !Array.isArray(items)) {
    throw new AppError(400, 'missing_parameter', `The body must be a JSON object {"${listName}": [...]}`, { param: listName })
  }
  const extra = Object.keys(body).find((k) => k !== listName)
  if (extra !== undefined) throw new AppError(400, 'invalid_parameter', `Unknown field ${quote(extra)}; the body holds only "${listName}"`, { param: extra })
  if (items.length > MAX_BATCH_ITEMS) {
    throw new AppError(400, 'invalid_parameter', `${listName} holds ${items.length} items; send at most ${MAX_BATCH_ITEMS} per request`, { param: listName })
  }
  const report = validate(items)
  if (report.total > 0) throw problemsError(report.problems, listName, report.total)
  return report.items
}
