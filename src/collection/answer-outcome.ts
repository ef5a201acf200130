// How one planned answer ends (docs/collection.md, "outcomes"; docs/jobs.md): exactly one row in
// collection_answer per planned answer (succeeded, failed, duplicate, skipped, or one of the
// non-answers refused, incomplete, search_failed, quota_exhausted), inserted in the same
// transaction as the stored response and the run's counters; a task that runs again finds the
// row and stops. So counts stay exact whatever crashes, and the run finishes when they reach
// `planned`. Non-answers are also kept per attempt, with the provider's raw JSON, for audit.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import type { AnswerOutcome } from '../db/schema.js'
import { newId } from '../db/ids.js'
import { inWorkspace } from '../db/tenant-scope.js'
import { retryOnConflict } from '../db/retry-conflicts.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { emitWebhookEvent, hasSubscribers } from '../webhooks/emit.js'
import { findVisibilityChanges } from './visibility-changes.js'
import { loadRunView } from './run-view.js'
import type { ProviderError, ProviderErrorKind } from './adapters/types.js'
import { answerExternalId, type AnswerData } from './runs.js'
import type { TargetRow } from './targets.js'

export interface AnswerMeta {
  modelServed: string | null
  tokensIn: number
  tokensOut: number
  webSearchCalls: number
  costUsd: number
  latencyMs: number
  raw: unknown
}

export interface Outcome {
  outcome: AnswerOutcome
  error?: { code: string; message: string }
  meta?: AnswerMeta
  /** its tokens and cost were added to the run with its audit row (a non-answer) */
  charged?: boolean
}

const COUNTER: Record<AnswerOutcome, 'succeeded' | 'failed' | 'duplicates' | 'skipped' | 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'> = {
  succeeded: 'succeeded',
  failed: 'failed',
  duplicate: 'duplicates',
  skipped: 'skipped',
  refused: 'refused',
  incomplete: 'incomplete',
  search_failed: 'search_failed',
  quota_exhausted: 'quota_exhausted',
}

/** The run outcome of a provider error that ended the answer; everything else counts as `failed`. */
const OUTCOME_OF_KIND: Partial<Record<ProviderErrorKind, AnswerOutcome>> = {
  refused: 'refused',
  incomplete: 'incomplete',
  search_failed: 'search_failed',
  quota_exhausted: 'quota_exhausted',
}

/** A non-answer outcome (refused, incomplete, …) of a provider error, if it is one. */
export const nonAnswerOutcome = (kind: ProviderErrorKind): AnswerOutcome | undefined => OUTCOME_OF_KIND[kind]

/** The outcome of an answer whose last attempt failed with `error` (after `attempts` attempts); `spentUsd` as billed. */
export function providerFailure(error: ProviderError, attempts: number, spentUsd: number): Outcome {
  const detail = error.nonAnswer
  const message = error.retryable ? `${error.message} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})` : error.message
  const meta = detail
    ? {
        modelServed: detail.modelServed ?? null,
        tokensIn: detail.tokensIn,
        tokensOut: detail.tokensOut,
        webSearchCalls: detail.webSearchCalls,
        costUsd: spentUsd,
        latencyMs: 0,
        raw: detail.raw,
      }
    : undefined
  return { outcome: OUTCOME_OF_KIND[error.kind] ?? 'failed', error: { code: error.kind, message }, meta, charged: true }
}

/** A flagged target's answers: quota_exhausted when its quota flagged it (as the answer that did), otherwise failed. */
export function flaggedOutcome(row: Pick<TargetRow, 'flag_code' | 'flag_reason'>): Outcome {
  return {
    outcome: row.flag_code === 'quota_exhausted' ? 'quota_exhausted' : 'failed',
    error: { code: row.flag_code ?? 'target_flagged', message: row.flag_reason ?? 'The target is flagged; fix its credential and edit the target to clear the flag' },
  }
}

export class AlreadyRecorded extends Error {}

/**
 * Counts one planned answer in its run, once: the outcome row's insert decides (a second
 * attempt finds it and rolls back whatever it stored with it). Call inside the transaction
 * that stored the answer, if any.
 */
export async function recordOutcome(trx: DB, data: AnswerData, result: Outcome, tasks: TaskSender): Promise<void> {
  const externalId = answerExternalId(data.runId, data.targetId, data.promptId, data.sample)
  const meta = result.meta
  const inserted = await trx
    .insertInto('collection_answer')
    .values({
      workspace_id: data.workspaceId,
      external_id: externalId,
      run_id: data.runId,
      target_id: data.targetId,
      prompt_id: data.promptId,
      sample: data.sample,
      outcome: result.outcome,
      model_served: meta?.modelServed ?? null,
      tokens_in: meta?.tokensIn ?? null,
      tokens_out: meta?.tokensOut ?? null,
      web_search_calls: meta?.webSearchCalls ?? null,
      cost_usd: meta?.costUsd ?? null,
      latency_ms: meta ? Math.round(meta.latencyMs) : null,
      raw: meta ? JSON.stringify(meta.raw ?? null) : null,
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'external_id']).doNothing())
    .returning('external_id')
    .executeTakeFirst()
  if (!inserted) throw new AlreadyRecorded()
  const counter = sql.ref(COUNTER[result.outcome])
  const spent = meta && !result.charged ? meta : undefined
  await sql`
    update collection_run set ${counter} = ${counter} + 1,
      tokens_in = tokens_in + ${spent?.tokensIn ?? 0}, tokens_out = tokens_out + ${spent?.tokensOut ?? 0}, cost_usd = cost_usd + ${spent?.costUsd ?? 0}
    where workspace_id = ${data.workspaceId} and id = ${data.runId}`.execute(trx)
  if (result.error) {
    await trx
      .insertInto('collection_run_error')
      .values({ workspace_id: data.workspaceId, run_id: data.runId, target_id: data.targetId, code: result.error.code, message: result.error.message.slice(0, 1000) })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'run_id', 'target_id', 'code']).doUpdateSet((eb) => ({ count: eb('collection_run_error.count', '+', 1), message: eb.ref('excluded.message') })),
      )
      .execute()
  }
  await finishIfDone(trx, data.workspaceId, data.runId, tasks)
}

/**
 * A running run whose planned answers all have an outcome ends: succeeded when none failed
 * or was skipped. The workspace's webhooks hear of it in the same transaction.
 */
async function finishIfDone(trx: DB, workspaceId: string, runId: string, tasks: TaskSender): Promise<void> {
  const { rows } = await sql<{ state: string }>`
    update collection_run set
      state = case when failed + skipped + search_failed + quota_exhausted = 0 then 'succeeded' else 'failed' end,
      finished_at = now()
    where workspace_id = ${workspaceId} and id = ${runId} and state = 'running'
      and planned_at is not null
      and succeeded + failed + duplicates + skipped + refused + incomplete + search_failed + quota_exhausted >= planned
    returning state`.execute(trx)
  if (!rows.length) return
  const run = await loadRunView(trx, workspaceId, runId)
  if (!run) return
  await emitWebhookEvent(trx, workspaceId, run.state === 'succeeded' ? 'collection.run.completed' : 'collection.run.failed', { run: { ...run } }, tasks)
  // Only if someone listens: the comparison reads both runs' answers.
  if (await hasSubscribers(trx, workspaceId, 'visibility.changed')) {
    for (const change of await findVisibilityChanges(trx, workspaceId, runId)) await emitWebhookEvent(trx, workspaceId, 'visibility.changed', change, tasks)
  }
}

export async function record(db: DB, data: AnswerData, result: Outcome, tasks: TaskSender): Promise<void> {
  try {
    await retryOnConflict(db, (trx) => inWorkspace(trx, data.workspaceId, (scopedTrx) => recordOutcome(scopedTrx, data, result, tasks)))
  } catch (error) {
    if (!(error instanceof AlreadyRecorded)) throw error
  }
}

export function ignoreRecorded(error: unknown): void {
  if (!(error instanceof AlreadyRecorded)) throw error
}

/**
 * Keeps what the provider sent for one attempt that was not an answer, with its raw JSON, for
 * audit (collection_non_answer), and adds what it cost to the run once: a task run again finds
 * the row and adds nothing.
 */
export async function keepNonAnswer(db: DB, data: AnswerData, error: ProviderError, costUsd: number, provider: string | null): Promise<void> {
  const detail = error.nonAnswer
  await inWorkspace(db, data.workspaceId, async (trx) => {
    const inserted = await trx
      .insertInto('collection_non_answer')
      .values({
        workspace_id: data.workspaceId,
        id: newId(),
        run_id: data.runId,
        target_id: data.targetId,
        prompt_id: data.promptId,
        external_id: answerExternalId(data.runId, data.targetId, data.promptId, data.sample),
        sample: data.sample,
        attempt: data.attempt,
        outcome: error.kind === 'refused' || error.kind === 'incomplete' || error.kind === 'search_failed' || error.kind === 'quota_exhausted' ? error.kind : 'unexpected_stop',
        reason: (detail?.reason ?? error.kind).slice(0, 1000),
        provider,
        model_served: detail?.modelServed ?? null,
        tokens_in: detail?.tokensIn ?? 0,
        tokens_out: detail?.tokensOut ?? 0,
        cost_usd: costUsd,
        raw: detail ? JSON.stringify(detail.raw ?? null) : null,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'external_id', 'attempt']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted || !detail) return
    await sql`
      update collection_run set tokens_in = tokens_in + ${detail.tokensIn}, tokens_out = tokens_out + ${detail.tokensOut}, cost_usd = cost_usd + ${costUsd}
      where workspace_id = ${data.workspaceId} and id = ${data.runId}`.execute(trx)
  })
}
