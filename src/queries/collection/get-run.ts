import type { DB } from '../../db/database.js'
import { runView, type RunView } from '../../collection/run-view.js'

/** One collection run of the workspace with its errors, or undefined. */
export async function getRun(db: DB, workspaceId: string, runId: string): Promise<RunView | undefined> {
  const row = await db.selectFrom('collection_run').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', runId).executeTakeFirst()
  if (!row) return undefined
  const errors = await db
    .selectFrom('collection_run_error')
    .select(['target_id', 'code', 'message', 'count'])
    .where('workspace_id', '=', workspaceId)
    .where('run_id', '=', runId)
    .orderBy('count', 'desc')
    .orderBy('target_id')
    .orderBy('code')
    .execute()
  return runView(row, errors)
}
