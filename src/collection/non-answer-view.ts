// A kept non-answer as the API shows it (docs/collection.md, "Why answers were not stored"):
// one attempt the provider did not complete, with the provider's own reason, the prompt and
// the target it was asked for. The raw JSON is only on the single-item route.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import type { CollectionNonAnswerTable } from '../db/schema.js'

export type NonAnswerOutcome = CollectionNonAnswerTable['outcome']
export const NON_ANSWER_OUTCOMES: readonly NonAnswerOutcome[] = ['refused', 'incomplete', 'search_failed', 'quota_exhausted', 'unexpected_stop']

export interface NonAnswerView {
  id: string
  run_id: string
  target_id: string
  prompt_id: string
  /** null once the prompt was deleted */
  prompt: string | null
  outcome: NonAnswerOutcome
  reason: string
  provider: string | null
  /** the target's model (null once the target was deleted); model_served is what answered */
  model: string | null
  model_served: string | null
  sample: number
  attempt: number
  tokens_in: number
  tokens_out: number
  cost_usd: number
  created_at: Date
  has_raw: boolean
}

/** The columns of the view, workspace first; the prompt and target are joined for their text and model (both may be gone). */
export function selectNonAnswers(db: DB, workspaceId: string) {
  return db
    .selectFrom('collection_non_answer as n')
    .leftJoin('prompt as p', (join) => join.onRef('p.workspace_id', '=', 'n.workspace_id').onRef('p.id', '=', 'n.prompt_id'))
    .leftJoin('collection_target as t', (join) => join.onRef('t.workspace_id', '=', 'n.workspace_id').onRef('t.id', '=', 'n.target_id'))
    .select([
      'n.id',
      'n.run_id',
      'n.target_id',
      'n.prompt_id',
      'p.text as prompt',
      'n.outcome',
      'n.reason',
      'n.provider',
      't.model as model',
      'n.model_served',
      'n.sample',
      'n.attempt',
      'n.tokens_in',
      'n.tokens_out',
      'n.cost_usd',
      'n.created_at',
      sql<boolean>`n.raw is not null`.as('has_raw'),
    ])
    .where('n.workspace_id', '=', workspaceId)
}

type Row = Awaited<ReturnType<ReturnType<typeof selectNonAnswers>['executeTakeFirstOrThrow']>>

export function nonAnswerView(row: Row): NonAnswerView {
  return {
    id: row.id,
    run_id: row.run_id,
    target_id: row.target_id,
    prompt_id: row.prompt_id,
    prompt: row.prompt ?? null,
    outcome: row.outcome,
    reason: row.reason,
    provider: row.provider,
    model: row.model ?? null,
    model_served: row.model_served,
    sample: row.sample,
    attempt: row.attempt,
    tokens_in: Number(row.tokens_in),
    tokens_out: Number(row.tokens_out),
    cost_usd: Math.round(Number(row.cost_usd) * 1e6) / 1e6,
    created_at: new Date(row.created_at),
    // PGlite and pg both give booleans; a driver giving 't'/'f' would still read right.
    has_raw: row.has_raw === true || (row.has_raw as unknown) === 't',
  }
}
