import type { DB } from '../../db/database.js'
import { nonAnswerView, selectNonAnswers, type NonAnswerView } from '../../collection/non-answer-view.js'

/** One non-answer of a run of the workspace with the provider's raw JSON as received, or undefined. */
export async function getNonAnswer(db: DB, workspaceId: string, runId: string, nonAnswerId: string): Promise<(NonAnswerView & { raw: unknown }) | undefined> {
  const row = await selectNonAnswers(db, workspaceId).select('n.raw').where('n.run_id', '=', runId).where('n.id', '=', nonAnswerId).executeTakeFirst()
  if (!row) return undefined
  // jsonb arrives parsed from both drivers.
  return { ...nonAnswerView(row), raw: row.raw ?? null }
}
