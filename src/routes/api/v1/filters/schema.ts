import { Type } from 'typebox'
import { Envelope, Responses } from '../../../../http/schemas.js'

export const FilterValuesSchema = Type.Object(
  {
    providers: Type.Array(Type.String(), { description: 'AI provider names; the allowed values of `models`' }),
    models: Type.Array(Type.Object({ id: Type.String(), provider: Type.String(), name: Type.String() }, { additionalProperties: false })),
    tags: Type.Array(Type.String()),
    brands: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), is_primary: Type.Boolean() }, { additionalProperties: false })),
    date_range: Type.Object(
      {
        earliest_data: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
        latest_data: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

export const getFiltersSchema = {
  summary: 'Values for filter controls',
  description: 'Providers, models, tags and active brands of the workspace, and the bounds of its data (null when there is none).',
  tags: ['analytics'],
  querystring: Type.Object({}, { additionalProperties: false }),
  response: Responses(Envelope(FilterValuesSchema, { message: true })),
}
