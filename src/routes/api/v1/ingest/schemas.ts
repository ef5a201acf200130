import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import type { FastifySchemaCompiler } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { AppError } from '../../../../core/errors.js'
import { Envelope, Responses } from '../../../../http/schemas.js'
import {
  AioItemSchema,
  MAX_BATCH_ITEMS,
  MAX_DETAILS,
  ResponseItemSchema,
  validateAioItems,
  validateBatchBody,
  validateResponseItems,
  type ProblemReport,
} from '../../../../ingest/validate-items.js'

const IngestResult = Envelope(Type.Object({ accepted: Type.Integer(), duplicates: Type.Integer() }, { additionalProperties: false }), { message: false })
const access = { scopes: ['write:data' as const] }

const batchRules = `At most ${MAX_BATCH_ITEMS} items per call, all-or-nothing: any invalid item gives 400 and nothing is stored; error.details lists the bad items (index, field, why), at most ${MAX_DETAILS} of them, and the message counts the rest.`

/**
 * The body is validated against its schema by validate-items, not by Ajv: Ajv stops at the
 * first problem, while one answer should list every bad item (bounded). The querystring
 * (empty: normalizeParams has refused any parameter) is checked by TypeBox too.
 */
function batchValidatorCompiler<T>(listName: string, validate: (items: readonly unknown[]) => ProblemReport<T>) {
  const compiler: FastifySchemaCompiler<TSchema> = (route) => {
    if (route.httpPart !== 'body') return TypeBoxValidatorCompiler(route)
    return (body: unknown) => {
      try {
        return { value: { [listName]: validateBatchBody(body, listName, validate) } }
      } catch (error) {
        // Fastify turns a throw here into a 500: the 400 is handed back instead.
        if (error instanceof AppError) return { error }
        throw error
      }
    }
  }
  return compiler
}

export const ingestResponsesRoute = {
  config: { access },
  validatorCompiler: batchValidatorCompiler('responses', validateResponseItems),
  schema: {
    summary: 'Ingest AI responses',
    description: `${batchRules} Each new response is analysed (mentions, positions, sentiment, citations). Scope write:data.`,
    tags: ['ingestion'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ responses: Type.Array(ResponseItemSchema, { maxItems: MAX_BATCH_ITEMS }) }, { additionalProperties: false }),
    response: Responses(IngestResult),
  },
}

export const ingestAioRoute = {
  config: { access },
  validatorCompiler: batchValidatorCompiler('observations', validateAioItems),
  schema: {
    summary: 'Ingest AI-overview observations',
    description: `${batchRules} Brands are found in overview_text, in order. Scope write:data.`,
    tags: ['ingestion'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ observations: Type.Array(AioItemSchema, { maxItems: MAX_BATCH_ITEMS }) }, { additionalProperties: false }),
    response: Responses(IngestResult),
  },
}
