import type { DB } from '../../db/database.js'
import { AppError } from '../../core/errors.js'

/**
 * prompt_template_id is a filter, but an id that is not a prompt of this workspace is
 * almost always a typo or another workspace's id: say so (404) instead of an empty list.
 */
export async function ensurePromptTemplate(db: DB, workspaceId: string, promptId: string | undefined): Promise<void> {
  if (promptId === undefined) return
  const row = await db.selectFrom('prompt').select('id').where('workspace_id', '=', workspaceId).where('id', '=', promptId).executeTakeFirst()
  if (!row) {
    throw new AppError(404, 'not_found', `Prompt template ${promptId} not found in this workspace; check prompt_template_id or leave it out`, { param: 'prompt_template_id' })
  }
}
