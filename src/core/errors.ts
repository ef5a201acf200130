// One error envelope for every failure (docs/api-conventions.md):
// {"success": false, "error": {"code", "message", "param"?, "request_id"}}
export type ErrorCode =
  | 'invalid_parameter'
  | 'unknown_parameter'
  | 'missing_parameter'
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'plan_required'
  | 'not_found'
  | 'rate_limited'
  | 'export_quota_exceeded'
  | 'export_unavailable'
  | 'service_unavailable'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'internal_error'

export class AppError extends Error {
  readonly statusCode: number
  readonly code: ErrorCode
  readonly param?: string
  readonly headers: Record<string, string | number>
  /** extra machine-readable detail, e.g. every bad item of an ingestion batch */
  readonly details?: unknown

  constructor(statusCode: number, code: ErrorCode, message: string, options: { param?: string; headers?: Record<string, string | number>; details?: unknown } = {}) {
    super(message)
    this.name = 'AppError'
    this.statusCode = statusCode
    this.code = code
    this.param = options.param
    this.headers = options.headers ?? {}
    this.details = options.details
  }
}

export const invalidParameter = (param: string, message: string) => new AppError(400, 'invalid_parameter', message, { param })
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`)

export interface ErrorBody {
  success: false
  error: { code: ErrorCode; message: string; param?: string; request_id: string; details?: unknown }
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.param !== undefined ? { param: error.param } : {}),
      request_id: requestId,
      ...(error.details !== undefined ? { details: error.details } : {}),
    },
  }
}

/**
 * Something the request needs is briefly unavailable (the job queue, a shared store). Raised
 * by code that knows nothing of HTTP; the error handler answers it with 503 and Retry-After.
 */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnavailableError'
  }
}
