import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import type { Tier } from '../auth/scopes.js'

export interface WorkspaceRecord {
  id: string
  name: string
  tier: Tier
  created_at: Date
}

export async function createWorkspace(db: DB, input: { name: string; tier: Tier; id?: string }): Promise<WorkspaceRecord> {
  return db
    .insertInto('workspace')
    .values({ id: input.id ?? newId(), name: input.name.trim(), tier: input.tier })
    .returning(['id', 'name', 'tier', 'created_at'])
    .executeTakeFirstOrThrow()
}

export async function listWorkspaces(db: DB): Promise<WorkspaceRecord[]> {
  return db.selectFrom('workspace').select(['id', 'name', 'tier', 'created_at']).orderBy('created_at').execute()
}

export async function findWorkspace(db: DB, idOrName: string): Promise<WorkspaceRecord | undefined> {
  const uuid = /^[0-9a-f-]{36}$/i.test(idOrName)
  return db
    .selectFrom('workspace')
    .select(['id', 'name', 'tier', 'created_at'])
    .where((eb) => (uuid ? eb('id', '=', idOrName) : eb('name', '=', idOrName)))
    .orderBy('created_at')
    .executeTakeFirst()
}
