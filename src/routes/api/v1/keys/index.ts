// API keys over the API (docs/agents-and-notifications.md). A key can only hand out the
// scopes it has itself, so a manage:workspace key without export:data cannot mint one that
// has it. Revocation needs nothing here beyond the write: every request looks its key up in
// the primary database before anything else (the answer cache included) runs, so a revoked
// key is refused on the next request on every instance.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError, invalidParameter, notFound } from '../../../../core/errors.js'
import { countActiveApiKeys, createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../../../admin/api-key-store.js'
import type { Scope } from '../../../../auth/scopes.js'
import { createKeyRoute, listKeysRoute, MAX_ACTIVE_KEYS_PER_WORKSPACE, revokeKeyRoute } from './schemas.js'

/** A key as lists show it: the stored prefix, never the hash. */
const shown = (record: ApiKeyRecord) => ({
  id: record.id,
  name: record.name,
  scopes: record.scopes as Scope[],
  prefix: record.key_prefix,
  created_at: record.created_at,
  expires_at: record.expires_at,
  last_used_at: record.last_used_at,
  revoked_at: record.revoked_at,
})

export const keysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/keys', listKeysRoute, async (request) => {
    const keys = await listApiKeys(request.db, request.auth.workspaceId)
    return { success: true as const, data: { keys: keys.map(shown) } }
  })

  app.post('/keys', createKeyRoute, async (request, reply) => {
    const { workspaceId, scopes: own } = request.auth
    const scopes = [...new Set(request.body.scopes)]
    const beyond = scopes.filter((scope) => !own.includes(scope))
    if (beyond.length > 0)
      throw new AppError(
        403,
        'insufficient_scope',
        `A key can only create keys with scopes it has itself (${own.join(', ')}); this one lacks ${beyond.join(', ')}. Leave ${beyond.length === 1 ? 'it' : 'them'} out, or create the key with a key that has ${beyond.length === 1 ? 'it' : 'them'}.`,
        { param: 'scopes' },
      )
    let expiresAt: Date | null = null
    if (request.body.expires_at !== undefined) {
      expiresAt = new Date(request.body.expires_at)
      if (expiresAt.getTime() <= Date.now())
        throw invalidParameter('expires_at', 'expires_at must be in the future (ISO 8601, e.g. 2027-01-31T00:00:00Z); leave it out for a key that does not expire')
    }
    if ((await countActiveApiKeys(request.db, workspaceId)) >= MAX_ACTIVE_KEYS_PER_WORKSPACE)
      throw invalidParameter(
        'name',
        `This workspace already has ${MAX_ACTIVE_KEYS_PER_WORKSPACE} keys that are not revoked; revoke unused ones (DELETE /api/v1/keys/{key_id}) first`,
      )
    const created = await createApiKey(request.db, { workspaceId, scopes, name: request.body.name.trim(), expiresAt })
    reply.status(201)
    return { success: true as const, data: { ...shown(created), key: created.key }, message: `Created key ${created.key_prefix}…: store it now, it is not shown again` }
  })

  app.delete('/keys/:key_id', revokeKeyRoute, async (request) => {
    const revoked = await revokeApiKey(request.db, request.params.key_id, request.auth.workspaceId)
    if (!revoked) throw notFound('API key')
    return { success: true as const, data: shown(revoked), message: `Revoked key ${revoked.key_prefix}…; requests with it are refused from now on` }
  })
}
