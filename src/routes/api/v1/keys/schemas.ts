// API keys over the API (docs/agents-and-notifications.md, docs/security.md): what a key
// looks like in a list (never the token), and the one answer that carries the token.
import { Type } from 'typebox'
import { SCOPES } from '../../../../auth/scopes.js'
import { Envelope, IsoDateTime, Responses, UuidParam } from '../../../../http/schemas.js'

const access = { scopes: ['manage:workspace' as const] }
const tags = ['keys']
const noQuery = Type.Object({}, { additionalProperties: false })
const keyParams = Type.Object({ key_id: UuidParam('API key id') })

export const ScopeName = Type.Enum([...SCOPES])

/** A workspace keeps at most this many keys that are not revoked: enough for every team and tool, a stop for runaway scripts. */
export const MAX_ACTIVE_KEYS_PER_WORKSPACE = 100

const keyFields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  scopes: Type.Array(ScopeName),
  prefix: Type.String({ description: 'The first characters of the key (`bvk_` + 6), to recognise it; too few to use it' }),
  created_at: IsoDateTime,
  expires_at: Type.Union([IsoDateTime, Type.Null()]),
  last_used_at: Type.Union([IsoDateTime, Type.Null()], { description: 'Recorded at most every 5 minutes; null when never used' }),
  revoked_at: Type.Union([IsoDateTime, Type.Null()]),
}

export const ApiKey = Type.Object(keyFields, { additionalProperties: false })

const CreatedApiKey = Type.Object(
  {
    ...keyFields,
    key: Type.String({ description: 'The API key (`bvk_…`), sent as `Authorization: Bearer <key>`. Shown only in this answer: store it now.' }),
  },
  { additionalProperties: false },
)

export const listKeysRoute = {
  config: { access },
  schema: {
    summary: 'List API keys',
    description:
      'Every key of the workspace, oldest first, revoked ones included (with revoked_at); the keys themselves are never shown, only their prefix. Scope manage:workspace.',
    tags,
    querystring: noQuery,
    response: Responses(Envelope(Type.Object({ keys: Type.Array(ApiKey) }, { additionalProperties: false }), { message: false })),
  },
}

export const createKeyRoute = {
  config: { access },
  schema: {
    summary: 'Create an API key',
    description: `Creates a key for this workspace. Its scopes must be among the calling key's own (403 insufficient_scope otherwise). The answer carries the key, shown only this once. At most ${MAX_ACTIVE_KEYS_PER_WORKSPACE} keys that are not revoked per workspace. Scope manage:workspace.`,
    tags,
    querystring: noQuery,
    body: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for, e.g. "Looker export" or "CI ingest"' }),
        scopes: Type.Array(ScopeName, { minItems: 1, maxItems: SCOPES.length * 2, description: 'Scopes of the new key: each one must be a scope of the calling key' }),
        expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the key stops working (ISO 8601, in the future); never when absent' })),
      },
      { additionalProperties: false },
    ),
    response: Responses(Envelope(CreatedApiKey, { message: true }), 201),
  },
}

export const revokeKeyRoute = {
  config: { access },
  schema: {
    summary: 'Revoke an API key',
    description:
      'Revokes the key: from the next request on, on every instance, it is refused (401), cached answers included. Revoking a revoked key changes nothing and answers the same. A key may revoke itself. Scope manage:workspace.',
    tags,
    params: keyParams,
    querystring: noQuery,
    response: Responses(Envelope(ApiKey, { message: true })),
  },
}
