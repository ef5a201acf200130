// One onRequest hook for the whole /api/v1 subtree. It identifies the key, then checks
// what the matched route declares in `config.access` (default: read:analytics).
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DB } from '../db/database.js'
import { AppError } from '../http/errors.js'
import { hashApiKey, isWellFormedApiKey } from './api-keys.js'
import { DEFAULT_ACCESS, type AccessRequirement, type Scope, type Tier } from './scopes.js'

export interface AuthContext {
  workspaceId: string
  keyId: string
  scopes: Scope[]
  tier: Tier
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext
  }
  interface FastifyContextConfig {
    access?: AccessRequirement
  }
}

const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000

function unauthorized(message: string): AppError {
  return new AppError(401, 'invalid_api_key', message, { headers: { 'WWW-Authenticate': 'Bearer realm="beacon"' } })
}

export function extractBearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized('Missing API key: send the header "Authorization: Bearer <API_KEY>"')
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header)
  if (!match) throw unauthorized('The Authorization header must be "Bearer <API_KEY>"')
  return match[1]
}

export function createAuthHook(db: DB) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const key = extractBearerToken(request.headers.authorization)
    // Garbage and typos stop here, before any query.
    if (!isWellFormedApiKey(key)) throw unauthorized('The API key is not a valid Beacon key (bvk_…); check that it was copied whole')

    // Lookup is by SHA-256 hash through a unique index: no secret string is compared in
    // application code, so response timing says nothing about how much of a key matched.
    const row = await db
      .selectFrom('api_key')
      .innerJoin('workspace', 'workspace.id', 'api_key.workspace_id')
      .select(['api_key.id', 'api_key.workspace_id', 'api_key.scopes', 'api_key.expires_at', 'api_key.revoked_at', 'api_key.last_used_at', 'workspace.tier'])
      .where('api_key.key_hash', '=', hashApiKey(key))
      .executeTakeFirst()
    const now = new Date()
    if (!row) throw unauthorized('Unknown API key')
    if (row.revoked_at) throw unauthorized('This API key has been revoked; create a new one')
    if (row.expires_at && row.expires_at <= now) throw unauthorized('This API key has expired; create a new one')

    request.auth = { workspaceId: row.workspace_id, keyId: row.id, scopes: row.scopes as Scope[], tier: row.tier }

    const access = request.routeOptions.config.access ?? DEFAULT_ACCESS
    for (const scope of access.scopes) {
      if (!request.auth.scopes.includes(scope)) {
        throw new AppError(403, 'insufficient_scope', `This API key lacks the scope "${scope}" that this endpoint requires`, { param: undefined })
      }
    }
    if (access.tier === 'premium' && row.tier !== 'premium') {
      throw new AppError(403, 'plan_required', 'This endpoint needs a Premium workspace; upgrade the workspace tier to use it')
    }

    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      // Throttled so a busy key costs one write per five minutes, not one per request.
      db.updateTable('api_key')
        .set({ last_used_at: now })
        .where('workspace_id', '=', row.workspace_id)
        .where('id', '=', row.id)
        .execute()
        .catch((error) => request.log.warn({ err: error }, 'could not record key last use'))
    }
  }
}
