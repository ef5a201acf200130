import type { DB } from '../../db/database.js'
import type { TargetRow } from '../../collection/targets.js'

export async function getTarget(db: DB, workspaceId: string, targetId: string): Promise<TargetRow | undefined> {
  return db.selectFrom('collection_target').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', targetId).executeTakeFirst()
}
