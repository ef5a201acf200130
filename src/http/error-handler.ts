import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, errorBody, UnavailableError, type ErrorCode } from '../core/errors.js'
import { redactSecrets } from './redact.js'

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_parameter',
  401: 'invalid_api_key',
  403: 'insufficient_scope',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
}

// Ajv's instancePath (`/responses/3/provider`) becomes `responses[3].provider`.
function paramFromValidation(error: FastifyError): string | undefined {
  const first = error.validation?.[0]
  if (!first) return undefined
  const path = first.instancePath
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('')
  const missing = (first.params as { missingProperty?: string; additionalProperty?: string } | undefined) ?? {}
  const leaf = missing.missingProperty ?? missing.additionalProperty
  if (leaf) return path ? `${path}.${leaf}` : leaf
  return path || undefined
}

function validationMessage(error: FastifyError, param: string | undefined): string {
  const first = error.validation?.[0]
  if (!first) return error.message
  const params = first.params as Record<string, unknown>
  const where = param ?? error.validationContext ?? 'request'
  switch (first.keyword) {
    case 'required':
      return `${where} is required`
    case 'additionalProperties':
      return `${where} is not a known field; remove it`
    case 'type':
      return `${where} must be of type ${String(params.type)}`
    case 'enum':
      return `${where} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`
    default:
      return `${where} ${first.message ?? 'is invalid'}`
  }
}

/** `10 MB`, or `256 KB` for limits that are not whole megabytes (tests set small ones). */
export function formatBytes(bytes: number): string {
  const MB = 1024 * 1024
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`
  return `${bytes} bytes`
}

/**
 * Converts anything thrown into the envelope; 5xx bodies never carry internals.
 * `bodyLimit` is the limit that applied to the request (BODY_LIMIT_MB unless a route sets its own).
 */
export function toAppError(error: FastifyError | AppError | Error, bodyLimit?: number): AppError {
  if (error instanceof AppError) return error
  if (error instanceof UnavailableError) return new AppError(503, 'service_unavailable', error.message, { headers: { 'Retry-After': 5 } })
  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const param = paramFromValidation(fastifyError)
    const code = fastifyError.validation[0]?.keyword === 'required' ? 'missing_parameter' : 'invalid_parameter'
    return new AppError(400, code, validationMessage(fastifyError, param), { param })
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        413,
        'payload_too_large',
        `The request body is too large: this server accepts at most ${bodyLimit === undefined ? 'its limit (BODY_LIMIT_MB)' : formatBytes(bodyLimit)} per request; send fewer items per request`,
      )
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json"')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'invalid_parameter', 'The request body is empty; send a JSON object')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'invalid_parameter', 'The request body is not valid JSON')
  }
  const status = fastifyError.statusCode
  if (status && status >= 400 && status < 500) {
    const message = status === 400 && error instanceof SyntaxError ? 'The request body is not valid JSON' : fastifyError.message
    return new AppError(status, STATUS_CODES[status] ?? 'invalid_parameter', message)
  }
  if (status === 503) return new AppError(503, 'service_unavailable', 'The service is temporarily unavailable; retry shortly', { headers: { 'Retry-After': 5 } })
  return new AppError(500, 'internal_error', 'Something went wrong on our side; the request id identifies it in our logs')
}

// The database is unreachable or refusing connections: a retryable 503, not a 500.
// Socket errors (host gone, unresolvable, reset), PostgreSQL's shutdown/startup/crash
// codes (57P01-57P03), connection-class errors (08xxx) and too_many_connections.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
])
// node-postgres and pg-pool raise these without a code: pool connect timeout, socket
// closed mid-query, a pooled client whose connection already failed, query_timeout.
const UNAVAILABLE_MESSAGES =
  /(timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|encountered a connection error and is not queryable|Query read timeout)/i
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined
  if (!e) return false
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)
}

export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): void {
  let appError = toAppError(error, request.routeOptions.bodyLimit)
  if (appError.statusCode === 500 && isDatabaseUnavailable(error)) {
    appError = new AppError(503, 'service_unavailable', 'The database is unavailable; retry shortly', { headers: { 'Retry-After': 5 } })
  }
  // An outage answers thousands of requests with 503: one warn line each, not a stack.
  // Messages may quote what the client sent, which may be a key in the wrong place.
  // A client that went away mid-request (a closed tab, a load test ending) leaves work that
  // fails on its rolled-back transaction: nobody gets the answer and nothing is wrong here.
  if (appError.statusCode >= 500 && request.raw.destroyed) request.log.info({ code: appError.code }, 'request abandoned: the client closed the connection before the answer')
  else if (appError.statusCode === 503) request.log.warn({ code: appError.code, cause: (error as { code?: string }).code ?? error.message }, appError.message)
  else if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
  else request.log.info({ code: appError.code, status: appError.statusCode }, redactSecrets(appError.message))
  for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value)
  reply.status(appError.statusCode).type('application/json; charset=utf-8').send(errorBody(appError, request.id))
}
