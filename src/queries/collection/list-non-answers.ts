import type { DB } from '../../db/database.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import { nonAnswerView, selectNonAnswers, type NonAnswerOutcome, type NonAnswerView } from '../../collection/non-answer-view.js'

/**
 * The non-answers of one run of the workspace (every attempt the provider did not complete),
 * oldest first, without their raw JSON (GET …/non-answers/{id} has it). Undefined when the
 * run is not the workspace's, so the route answers 404 rather than an empty page.
 */
export async function listNonAnswers(
  db: DB,
  workspaceId: string,
  runId: string,
  filter: { outcome?: NonAnswerOutcome },
  page: PageRequest,
): Promise<{ nonAnswers: NonAnswerView[]; totalItems: number } | undefined> {
  const outcome = filter.outcome
  // The run's existence and the count in one statement: no run, no row.
  const counted = await db
    .selectFrom('collection_run as run')
    .select((eb) =>
      eb
        .selectFrom('collection_non_answer as n')
        .select((inner) => inner.fn.countAll<string | number>().as('n'))
        .where('n.workspace_id', '=', workspaceId)
        .where('n.run_id', '=', runId)
        .$if(outcome !== undefined, (qb) => qb.where('n.outcome', '=', outcome as NonAnswerOutcome))
        .as('total'),
    )
    .where('run.workspace_id', '=', workspaceId)
    .where('run.id', '=', runId)
    .executeTakeFirst()
  if (!counted) return undefined
  const totalItems = Number(counted.total ?? 0)
  if (pageOffset(page) >= totalItems) return { nonAnswers: [], totalItems }
  const rows = await selectNonAnswers(db, workspaceId)
    .where('n.run_id', '=', runId)
    .$if(outcome !== undefined, (qb) => qb.where('n.outcome', '=', outcome as NonAnswerOutcome))
    .orderBy('n.created_at')
    .orderBy('n.id')
    .limit(page.perPage)
    .offset(pageOffset(page))
    .execute()
  return { nonAnswers: rows.map(nonAnswerView), totalItems }
}
