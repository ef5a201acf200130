import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.js'
import type { Scope } from '../auth/scopes.js'

export interface ApiKeyRecord {
  id: string
  workspace_id: string
  name: string
  key_prefix: string
  scopes: string[]
  created_at: Date
  expires_at: Date | null
  revoked_at: Date | null
  last_used_at: Date | null
}

const columns = ['id', 'workspace_id', 'name', 'key_prefix', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'] as const

/** Creates a key and returns it in full; this is the only time the full key exists. */
export async function createApiKey(db: DB, input: { workspaceId: string; scopes: Scope[]; name?: string; expiresAt?: Date | null }): Promise<ApiKeyRecord & { key: string }> {
  const key = generateApiKey()
  const record = await db
    .insertInto('api_key')
    .values({
      workspace_id: input.workspaceId,
      id: newId(),
      name: input.name ?? '',
      key_prefix: displayPrefix(key),
      key_hash: hashApiKey(key),
      scopes: input.scopes,
      expires_at: input.expiresAt ?? null,
    })
    .returning(columns)
    .executeTakeFirstOrThrow()
  return { ...record, key }
}

export async function listApiKeys(db: DB, workspaceId: string): Promise<ApiKeyRecord[]> {
  return db.selectFrom('api_key').select(columns).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()
}

/** Keys of the workspace that are not revoked (expired ones count: they are still listed until revoked). */
export async function countActiveApiKeys(db: DB, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('api_key')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Revokes by key id (within `workspaceId` when given: the API's case; the CLI names any key);
 * returns the record, or undefined when no such key exists. Revoking twice keeps the first time.
 */
export async function revokeApiKey(db: DB, keyId: string, workspaceId?: string): Promise<ApiKeyRecord | undefined> {
  let query = db
    .updateTable('api_key')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.fn<Date>('now', [])) }))
    .where('id', '=', keyId)
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId)
  return query.returning(columns).executeTakeFirst()
}
