import { sql } from 'kysely'
import type { DB } from './database.js'

/** Marks the workspace's analytics as changed; call in the writing transaction. */
export async function bumpDataVersion(db: DB, workspaceId: string): Promise<void> {
  await sql`update workspace set data_version = data_version + 1 where id = ${workspaceId}`.execute(db)
}
