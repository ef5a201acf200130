import type { Readable } from 'node:stream'
import { Type, type TProperties } from 'typebox'
import type { AccessRequirement } from '../../../../auth/scopes.js'
import type { ExportDefinition } from '../../../../exports/export-types.js'
import { BooleanParam, DateParam, Envelope, ErrorEnvelope, IsoDate, IsoDateTime, Models, Responses, Tags } from '../../../../http/schemas.js'

/** Every export route, metadata included: both scopes and a Premium workspace (spec 4.2). */
export const exportAccess: AccessRequirement = { scopes: ['read:analytics', 'export:data'], tier: 'premium' }

const period = {
  date_from: DateParam('First day included (YYYY-MM-DD, UTC). Required.'),
  date_to: DateParam('Last day included (YYYY-MM-DD, UTC). Required.'),
}
const filters = { ...period, models: Models, tags: Tags }
const hasContent = {
  has_content: Type.Optional(BooleanParam("true: only responses with text; false: only empty ones (content = ''). Absent: both.")),
}
const formatOptions = {
  excel_compatible: Type.Optional(BooleanParam('true selects tab-delimited TSV with a UTF-8 BOM, for spreadsheets', false)),
  include_type_hints: Type.Optional(BooleanParam('true adds a second row with the column types (uuid, string, json, float, integer, date, datetime)', false)),
}

/**
 * Parameters only some exports take. Typed as always there: each of them is optional, so a
 * handler reading one that this export lacks just sees undefined (normalizeParams refuses
 * it as unknown_parameter before that).
 */
const when = <Properties extends TProperties>(on: boolean, properties: Properties): Properties => (on ? properties : ({} as Properties))

const query = <Properties extends TProperties>(properties: Properties) => Type.Object(properties, { additionalProperties: false })

// A file is streamed (Fastify sends a stream as is, unserialized); OpenAPI shows text.
const FileBody = Type.Unsafe<string | Readable>(Type.String())

/** A non-JSON success body, documented per content type; errors stay JSON. */
function fileResponses(description: string, contentTypes: string[]) {
  const content = Object.fromEntries(contentTypes.map((type) => [type, { schema: FileBody }]))
  return { 200: { description, content }, '4xx': ErrorEnvelope, '5xx': ErrorEnvelope }
}

const Statistics = Type.Object(
  {
    total_rows: Type.Integer({ description: 'Exact number of data rows the file will have' }),
    estimated_size_mb: Type.Number({ description: 'Estimated size of the CSV file (header included, no type hints) in MB of 10^6 bytes, 6 decimals' }),
    date_range: Type.Object({ start: IsoDate, end: IsoDate }, { additionalProperties: false }),
    last_updated: Type.Union([IsoDateTime, Type.Null()], {
      description: 'When the newest response of the period matching the filters was ingested; null when there is none',
    }),
  },
  { additionalProperties: false },
)

const Manifest = Type.Object(
  {
    manifest_version: Type.String(),
    export_type: Type.String(),
    statistics: Type.Object({ total_rows: Type.Integer(), estimated_size_mb: Type.Number() }, { additionalProperties: false }),
    refresh_hints: Type.Object(
      { recommended_interval_hours: Type.Integer(), supports_incremental: Type.Boolean(), incremental_key: Type.String() },
      { additionalProperties: false },
    ),
    columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), nullable: Type.Boolean() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
)

export function exportRouteSchemas(definition: ExportDefinition) {
  const { type } = definition
  const contentTypes = definition.formatOptions ? ['text/csv', 'text/tab-separated-values'] : ['text/csv']
  return {
    file: {
      summary: `Download the ${type} export`,
      description: `${definition.summary} Counts against the export quota (10 downloads per rolling hour per workspace); the rate-limit headers report it.`,
      tags: ['exports'],
      querystring: query({ ...filters, ...when(definition.hasContentFilter, hasContent), ...when(definition.formatOptions, formatOptions) }),
      response: fileResponses(definition.formatOptions ? 'CSV, or TSV with excel_compatible=true' : 'CSV', contentTypes),
    },
    statistics: {
      summary: `Row count and size estimate of the ${type} export`,
      tags: ['exports'],
      querystring: query({ ...filters, ...when(definition.hasContentFilter, hasContent) }),
      response: Responses(Envelope(Statistics, { message: false })),
    },
    manifest: {
      summary: `Columns and refresh hints of the ${type} export, for pipelines`,
      tags: ['exports'],
      querystring: query(filters),
      response: Responses(Envelope(Manifest, { message: false })),
    },
    schema: {
      summary: `Column documentation of the ${type} export (Markdown)`,
      tags: ['exports'],
      querystring: query(definition.hasContentFilter ? filters : period),
      response: fileResponses('Markdown: a title and a table | Column | Type | Nullable | Description |', ['text/markdown']),
    },
  }
}
