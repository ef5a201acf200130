import { Type } from 'typebox'
import { Envelope, EnvelopeWithJob, IsoDateTime, Responses, UuidParam } from '../../../../http/schemas.js'

export const ManagedPrompt = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    text: Type.String(),
    tags: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  },
  { additionalProperties: false },
)

const text = Type.String({ minLength: 1, maxLength: 10_000, description: 'The question asked of AI providers' })
const tags = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'Trimmed and de-duplicated' })
const access = { scopes: ['manage:workspace' as const] }

export const createPromptRoute = {
  config: { access },
  schema: {
    summary: 'Create a prompt template',
    tags: ['management'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ text, tags: Type.Optional(tags), is_active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    response: Responses(Envelope(ManagedPrompt, { message: true }), 201),
  },
}

export const updatePromptRoute = {
  config: { access },
  schema: {
    summary: 'Update a prompt template',
    description:
      "Changes only the fields sent. New tags queue a rebuild of the workspace's rollups (the prompt's history moves to its new tags); the answer then carries the job. Scope manage:workspace.",
    tags: ['management'],
    params: Type.Object({ prompt_id: UuidParam('Prompt id') }),
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object({ text: Type.Optional(text), tags: Type.Optional(tags), is_active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    response: Responses(EnvelopeWithJob(ManagedPrompt)),
  },
}
