import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import { AppError, invalidParameter, notFound } from '../core/errors.js'
import { cleanList } from './clean-list.js'
import { familiesAffectedByPromptTags, rebuildRollups } from '../rollups/index.js'
import { bumpDataVersion } from '../db/data-version.js'
import { lockAnalysisInputs } from '../db/analysis-lock.js'

export interface PromptInput {
  text?: string
  tags?: string[]
  is_active?: boolean
}

export const promptColumns = ['id', 'text', 'tags', 'is_active', 'created_at', 'updated_at'] as const

function clean(input: PromptInput): PromptInput {
  const out: PromptInput = { ...input }
  if (input.text !== undefined) {
    out.text = input.text.trim()
    if (!out.text) throw invalidParameter('text', 'text must not be empty')
  }
  if (input.tags !== undefined) out.tags = cleanList(input.tags)
  return out
}

export async function createPrompt(db: DB, workspaceId: string, raw: PromptInput) {
  const input = clean(raw)
  if (!input.text) throw new AppError(400, 'missing_parameter', 'text is required', { param: 'text' })
  const prompt = await db
    .insertInto('prompt')
    .values({ workspace_id: workspaceId, id: newId(), text: input.text, tags: input.tags ?? [], is_active: input.is_active ?? true })
    .returning(promptColumns)
    .executeTakeFirstOrThrow()
  await bumpDataVersion(db, workspaceId)
  return prompt
}

/**
 * Updates a prompt. New tags move its history to another tag set in the rollups: rebuilt
 * in the same transaction, so no reader (and no crash) ever sees the new tags with the old
 * rollups. The analysis-inputs lock (src/db/analysis-lock.ts) makes a batch in flight
 * either commit before this update or see the new tags.
 */
export async function updatePrompt(db: DB, workspaceId: string, promptId: string, raw: PromptInput) {
  const input = clean(raw)
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
  if ('tags' in changes) await lockAnalysisInputs(db, workspaceId, 'write')
  const query =
    Object.keys(changes).length === 0
      ? db.selectFrom('prompt').select(promptColumns).where('workspace_id', '=', workspaceId).where('id', '=', promptId)
      : db
          .updateTable('prompt')
          .set({ ...changes, updated_at: new Date() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', promptId)
          .returning(promptColumns)
  const prompt = await query.executeTakeFirst()
  if (!prompt) throw notFound('Prompt')
  // Rollups are keyed by the prompt's tag set; its history moves with the new tags.
  if ('tags' in changes) await rebuildRollups(db, workspaceId, { families: familiesAffectedByPromptTags() })
  if (Object.keys(changes).length) await bumpDataVersion(db, workspaceId)
  return prompt
}

/** Every prompt template of the workspace, oldest first. */
export async function listPrompts(db: DB, workspaceId: string) {
  return db.selectFrom('prompt').select(promptColumns).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()
}
