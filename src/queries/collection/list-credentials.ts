import type { DB } from '../../db/database.js'
import type { CredentialView } from '../../collection/credentials.js'

/** Names, providers and last 4 characters: never the key. */
export async function listCredentials(db: DB, workspaceId: string): Promise<CredentialView[]> {
  return db
    .selectFrom('collection_credential')
    .select(['name', 'provider', 'last_four', 'created_at', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('name')
    .execute()
}
