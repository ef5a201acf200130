import type { DB } from '../../db/database.js'
import type { TargetRow } from '../../collection/targets.js'

/** Every collection target of the workspace, oldest first (a workspace has at most a few hundred). */
export async function listTargets(db: DB, workspaceId: string): Promise<TargetRow[]> {
  return db.selectFrom('collection_target').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()
}
