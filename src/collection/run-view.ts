// A collection run as the API shows it (docs/collection.md).
import type { Selectable } from 'kysely'
import type { DB } from '../db/database.js'
import type { CollectionRunTable, JobState, RunTrigger } from '../db/schema.js'

export interface RunError {
  target_id: string
  code: string
  message: string
  count: number
}

export interface RunView {
  id: string
  state: JobState
  trigger: RunTrigger
  target_ids: string[] | null
  prompt_ids: string[] | null
  planned: number
  succeeded: number
  failed: number
  duplicates: number
  skipped: number
  /** non-answers (docs/collection.md): none is stored as a response; all counters add up to `planned` */
  refused: number
  incomplete: number
  search_failed: number
  quota_exhausted: number
  /** every counter added up (answersCounted): equals `planned` once the run has ended */
  answers_counted: number
  tokens_in: number
  tokens_out: number
  cost_usd: number
  created_at: Date
  started_at: Date | null
  finished_at: Date | null
  errors: RunError[]
}

/** Planned answers that have an outcome (every counter): equal to `planned` once the run has ended. */
export function answersCounted(run: Pick<RunView, 'succeeded' | 'failed' | 'duplicates' | 'skipped' | 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'>): number {
  return run.succeeded + run.failed + run.duplicates + run.skipped + run.refused + run.incomplete + run.search_failed + run.quota_exhausted
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value))

export function runView(row: Selectable<CollectionRunTable>, errors: readonly RunError[]): RunView {
  return {
    id: row.id,
    state: row.state,
    trigger: row.trigger,
    target_ids: row.target_ids,
    prompt_ids: row.prompt_ids,
    planned: row.planned,
    succeeded: row.succeeded,
    failed: row.failed,
    duplicates: row.duplicates,
    skipped: row.skipped,
    refused: row.refused,
    incomplete: row.incomplete,
    search_failed: row.search_failed,
    quota_exhausted: row.quota_exhausted,
    answers_counted: answersCounted(row),
    tokens_in: Number(row.tokens_in),
    tokens_out: Number(row.tokens_out),
    cost_usd: Math.round(Number(row.cost_usd) * 1e6) / 1e6,
    created_at: row.created_at,
    started_at: date(row.started_at),
    finished_at: date(row.finished_at),
    errors: errors.map((e) => ({ target_id: e.target_id, code: e.code, message: e.message, count: Number(e.count) })),
  }
}

/** One collection run of the workspace with its errors, or undefined (the API's view, and the run webhooks' payload). */
export async function loadRunView(db: DB, workspaceId: string, runId: string): Promise<RunView | undefined> {
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
