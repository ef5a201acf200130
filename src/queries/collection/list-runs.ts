import type { DB } from '../../db/database.js'
import { runView, type RunView } from '../../collection/run-view.js'

/** The workspace's runs, newest first, with their errors. */
export async function listRuns(db: DB, workspaceId: string, page: { page: number; perPage: number }): Promise<{ runs: RunView[]; totalItems: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('collection_run')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    db
      .selectFrom('collection_run')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
  ])
  const ids = rows.map((r) => r.id)
  const errors = ids.length
    ? await db
        .selectFrom('collection_run_error')
        .select(['run_id', 'target_id', 'code', 'message', 'count'])
        .where('workspace_id', '=', workspaceId)
        .where('run_id', 'in', ids)
        .orderBy('count', 'desc')
        .orderBy('target_id')
        .orderBy('code')
        .execute()
    : []
  return {
    runs: rows.map((row) =>
      runView(
        row,
        errors.filter((e) => e.run_id === row.id),
      ),
    ),
    totalItems: Number(count.n),
  }
}
