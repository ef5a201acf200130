// Turns raw query/path values into typed values using the route's own JSON schema, with
// messages that tell the caller what to send. Runs before Ajv, which then only confirms.
// Fastify's default (coerce freely, drop unknown keys) hides typos; docs/api-conventions.md wants them loud.
import { AppError, invalidParameter } from '../core/errors.js'
import { isCalendarDate, isUuidValue, parseArrayValues, parseBooleanValue, parseIntegerValue } from './query-values.js'

interface JsonSchema {
  type?: string | string[]
  format?: string
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  items?: JsonSchema
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
}

function enumValues(schema: JsonSchema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String)
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s) => s.const !== undefined)) return schema.anyOf.map((s) => String(s.const))
  return undefined
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null')
  if (schema.type) return schema.type
  if (schema.anyOf && enumValues(schema)) return 'string'
  return undefined
}

function rangeMessage(name: string, schema: JsonSchema): string {
  const { minimum, maximum } = schema
  if (minimum !== undefined && maximum !== undefined) return `${name} must be between ${minimum} and ${maximum}`
  if (minimum !== undefined) return `${name} must be ${minimum} or more`
  if (maximum !== undefined) return `${name} must be ${maximum} or less`
  return `${name} must be a whole number`
}

function scalar(name: string, raw: string, schema: JsonSchema): unknown {
  const type = typeOf(schema)
  if (type === 'integer' || type === 'number') {
    const value = parseIntegerValue(raw)
    if (value === undefined)
      throw invalidParameter(
        name,
        `${name} must be a whole number${schema.minimum !== undefined || schema.maximum !== undefined ? ` (${rangeMessage(name, schema).replace(`${name} must be `, '')})` : ''}`,
      )
    if ((schema.minimum !== undefined && value < schema.minimum) || (schema.maximum !== undefined && value > schema.maximum)) {
      throw invalidParameter(name, rangeMessage(name, schema))
    }
    return value
  }
  if (type === 'boolean') {
    const value = parseBooleanValue(raw)
    if (value === undefined) throw invalidParameter(name, `${name} must be true or false (1 or 0 also accepted)`)
    return value
  }
  const value = raw.trim()
  if (schema.format === 'date' && !isCalendarDate(value)) throw invalidParameter(name, `${name} must be a real calendar date in YYYY-MM-DD form, got "${truncate(raw)}"`)
  if (schema.format === 'uuid' && !isUuidValue(value)) {
    throw invalidParameter(name, `${name} must be a UUID, got "${truncate(raw)}"`)
  }
  const allowed = enumValues(schema)
  if (allowed && !allowed.includes(value)) throw invalidParameter(name, `${name} must be one of: ${allowed.join(', ')}; got "${truncate(raw)}"`)
  if (schema.maxLength !== undefined && value.length > schema.maxLength) throw invalidParameter(name, `${name} must be at most ${schema.maxLength} characters`)
  return value
}

const truncate = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}...` : value)

// Route schemas are TypeBox objects, i.e. JSON Schema; only the keywords above are read.
const isSchemaObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `rawValues` and `routeSchema` come untyped from Fastify (request.query, routeOptions.schema). */
export function normalizeParams(rawValues: unknown, routeSchema: unknown, location: 'query' | 'path'): Record<string, unknown> {
  const schema = isSchemaObject(routeSchema) ? routeSchema : undefined
  const raw = isRecord(rawValues) ? rawValues : {}
  const properties = schema?.properties ?? {}
  // Own properties only: `properties.constructor` or `.__proto__` would otherwise find
  // Object.prototype's members and treat `?constructor=1` as a known parameter.
  const out: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(raw)) {
    const propertySchema = Object.hasOwn(properties, name) ? properties[name] : undefined
    if (!propertySchema) {
      const allowed = Object.keys(properties)
      throw new AppError(
        400,
        'unknown_parameter',
        `Unknown parameter "${truncate(name)}". ${allowed.length ? `Allowed parameters: ${allowed.join(', ')}` : `This endpoint takes no ${location} parameters`}`,
        { param: name },
      )
    }
    if (value === undefined) continue
    const values = Array.isArray(value) ? value.map(String) : [String(value)]
    // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
    if (values.some((v) => v.includes('\u0000'))) throw invalidParameter(name, `${name} must not contain NUL (%00) characters`)
    if (typeOf(propertySchema) === 'array') {
      const items = parseArrayValues(values)
      const itemSchema = propertySchema.items ?? {}
      out[name] = items.map((item) => scalar(name, item, itemSchema))
      continue
    }
    if (values.length > 1) throw invalidParameter(name, `${name} was given ${values.length} times; give it once`)
    out[name] = scalar(name, values[0], propertySchema)
  }
  for (const name of schema?.required ?? []) {
    if (out[name] === undefined) throw new AppError(400, 'missing_parameter', `${name} is required`, { param: name })
  }
  return out
}
