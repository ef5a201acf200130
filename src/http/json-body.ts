// JSON request bodies, decoded strictly. Fastify's own parser decodes the bytes lossily, so
// invalid UTF-8 and "\ud800"-style escapes of half a surrogate pair were stored as U+FFFD
// without a word. Both are refused here with 400 invalid_parameter naming the field.
import { isUtf8 } from 'node:buffer'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../core/errors.js'

// Stands in for each invalid byte sequence: valid UTF-8 never decodes to a lone surrogate,
// so the field that holds one after parsing is the field the bad bytes were in.
const INVALID_MARK = '\uD800'
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
// Cheap test on the raw text: only a \uD800-\uDFFF escape can make a lone surrogate out of valid UTF-8.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/** The body as text; `invalidUtf8` when some bytes were not UTF-8 (each such sequence is then INVALID_MARK). */
export function decodeJsonBody(bytes: Buffer): { text: string; invalidUtf8: boolean } {
  if (isUtf8(bytes)) return { text: bytes.toString('utf8'), invalidUtf8: false }
  let text = ''
  let start = 0
  for (let i = 0; i < bytes.length;) {
    const length = utf8SequenceLength(bytes, i)
    if (length > 0) {
      i += length
      continue
    }
    text += bytes.toString('utf8', start, i) + INVALID_MARK
    start = i += 1
  }
  return { text: text + bytes.toString('utf8', start), invalidUtf8: true }
}

/** Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0. */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]
  if (lead < 0x80) return 1
  let continuation: number
  let low = 0x80
  let high = 0xbf
  if (lead >= 0xc2 && lead <= 0xdf) continuation = 1
  else if (lead >= 0xe0 && lead <= 0xef) {
    continuation = 2
    if (lead === 0xe0) low = 0xa0 // overlong
    if (lead === 0xed) high = 0x9f // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    continuation = 3
    if (lead === 0xf0) low = 0x90 // overlong
    if (lead === 0xf4) high = 0x8f // above U+10FFFF
  } else return 0
  if (i + continuation >= bytes.length) return 0
  if (bytes[i + 1] < low || bytes[i + 1] > high) return 0
  for (let k = 2; k <= continuation; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return 0
  return continuation + 1
}

/** Path (`responses[2].content`, '' for the body itself) of the first string or key, in document order, holding a lone surrogate. */
export function findIllFormedString(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length) {
    const [current, path] = stack.pop()!
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return path
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`])
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current)
      for (const [key] of entries) if (LONE_SURROGATE.test(key)) return path ? `${path}.${key}` : key
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], path ? `${path}.${entries[i][0]}` : entries[i][0]])
    }
  }
  return undefined
}

function illFormed(path: string, invalidUtf8: boolean): AppError {
  const where = path || 'The body'
  const message = invalidUtf8
    ? `${where} is not valid UTF-8; send the body encoded as UTF-8`
    : `${where} contains an unpaired surrogate escape (\\ud800-\\udfff without its other half), which is not valid Unicode text; send the character itself or its complete surrogate pair`
  // The field name may itself hold the bad characters: name it without them.
  return new AppError(400, 'invalid_parameter', message.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD'), {
    param: path ? path.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD') : undefined,
  })
}

/**
 * An action route without parameters (`POST /api/v1/brands/discover`) declares a body object
 * with no properties: for it a missing or empty body means `{}` (docs/api-conventions.md),
 * as clients send such requests (`curl -X POST`, fetch without a body). Routes with fields
 * still say what is missing.
 */
function takesNoParameters(request: FastifyRequest): boolean {
  const body = request.routeOptions.schema?.body as { type?: unknown; properties?: Record<string, unknown> } | undefined
  return body?.type === 'object' && Object.keys(body.properties ?? {}).length === 0
}

/** Replaces Fastify's application/json parser with the strict one (prototype poisoning still refused). */
export function registerStrictJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  // No Content-Type and no body: nothing was parsed.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && takesNoParameters(request)) request.body = {}
  })
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0 && takesNoParameters(request)) return done(null, {})
    const { text, invalidUtf8 } = decodeJsonBody(body as Buffer)
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined)
      if (invalidUtf8 || SURROGATE_ESCAPE.test(text)) {
        const path = findIllFormedString(value)
        if (path !== undefined || invalidUtf8) return done(illFormed(path ?? '', invalidUtf8), undefined)
      }
      done(null, value)
    })
  })
}
