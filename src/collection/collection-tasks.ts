// The work of a collection run (DESIGN §14), as two task queues of the job runtime:
//
// - plan: reads the run's targets and prompts and queues one answer task per
//   prompt × target × sample, each with a deterministic task id, in one transaction with
//   the run's `planned` count (a plan task run again after a crash queues nothing twice).
// - answer: asks one provider for one answer and stores it through the ingest path
//   (analysis, rollups) under external_id `run:<run>:<target>:<prompt>:<sample>`.
//
// Each planned answer ends with exactly one row in collection_answer (its outcome:
// succeeded, failed, duplicate or skipped), inserted in the same transaction as the
// stored response and the run's counters; a task that runs again finds the row and stops.
// So counts stay exact whatever crashes, and the run finishes when they reach `planned`.
import { sql } from 'kysely'
import type { Config } from '../config.js'
import type { DB } from '../db/database.js'
import type { AnswerOutcome } from '../db/schema.js'
import { inWorkspace } from '../db/tenant-scope.js'
import { retryOnConflict } from '../db/retry-conflicts.js'
import { AppError } from '../core/errors.js'
import { ingestResponses } from '../ingest/ingest-responses.js'
import { ingestAio } from '../ingest/ingest-aio.js'
import type { TaskContext, TaskDefinition, TaskSender } from '../jobs/job-runtime.js'
import { emitWebhookEvent, hasSubscribers } from '../webhooks/emit.js'
import { findVisibilityChanges } from './visibility-changes.js'
import { loadRunView } from './run-view.js'
import { ProviderError, type AioAnswer, type ProviderAnswer } from './adapters/types.js'
import { resolveAioAdapter, resolveAnswerAdapter, toAnswerTarget, type CollectionAnswerTarget } from './adapter-resolver.js'
import { answerCostUsd, estimateAnswerCostUsd, serpCostUsd } from './prices.js'
import { adjustSpend, reserveBudget } from './budget.js'
import { resolveApiKey } from './credentials.js'
import { ProviderLimits } from './provider-limits.js'
import { answerExternalId, COLLECTION_ANSWER, COLLECTION_PLAN, taskId } from './runs.js'
import type { TargetRow } from './targets.js'

export { COLLECTION_ANSWER, COLLECTION_PLAN } from './runs.js'

export interface PlanData {
  workspaceId: string
  runId: string
}

export interface AnswerData {
  workspaceId: string
  runId: string
  targetId: string
  promptId: string
  sample: number
  /** 0 on the first request; a retry after 429/5xx/timeout is a new task with attempt + 1 */
  attempt: number
}

export type CollectionSettings = Pick<
  Config,
  | 'collectionDailyBudgetUsd'
  | 'collectionConcurrency'
  | 'collectionWorkers'
  | 'collectionRequestsPerMinute'
  | 'collectionTimeoutMs'
  | 'collectionMaxAttempts'
  | 'collectionTaskExpireSeconds'
  | 'secretKey'
  | 'secretKeyPrevious'
  | 'jobsWorker'
  // adapters (adapter-resolver.ts) and keys (credentials.ts) read these explicitly
  | 'collectionAllowPrivate'
  | 'demoLatencyMs'
  | 'openaiCompatibleAllowedHosts'
>

const BACKOFF_BASE_MS = 2_000
const BACKOFF_MAX_MS = 5 * 60_000

/** Exponential backoff with jitter, never sooner than the provider's Retry-After. */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined): number {
  const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt * (0.75 + Math.random() * 0.5))
  return Math.max(retryAfterMs ?? 0, backoff)
}

interface Outcome {
  outcome: AnswerOutcome
  error?: { code: string; message: string }
  meta?: { modelServed: string | null; tokensIn: number; tokensOut: number; webSearchCalls: number; costUsd: number; latencyMs: number; raw: unknown }
}

const COUNTER: Record<AnswerOutcome, 'succeeded' | 'failed' | 'duplicates' | 'skipped'> = {
  succeeded: 'succeeded',
  failed: 'failed',
  duplicate: 'duplicates',
  skipped: 'skipped',
}

class AlreadyRecorded extends Error {}

/**
 * Counts one planned answer in its run, once: the outcome row's insert decides (a second
 * attempt finds it and rolls back whatever it stored with it). Call inside the transaction
 * that stored the answer, if any.
 */
async function recordOutcome(trx: DB, data: AnswerData, result: Outcome, tasks: TaskSender): Promise<void> {
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
  await sql`
    update collection_run set ${counter} = ${counter} + 1,
      tokens_in = tokens_in + ${meta?.tokensIn ?? 0}, tokens_out = tokens_out + ${meta?.tokensOut ?? 0}, cost_usd = cost_usd + ${meta?.costUsd ?? 0}
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
      state = case when failed + skipped = 0 then 'succeeded' else 'failed' end,
      finished_at = now()
    where workspace_id = ${workspaceId} and id = ${runId} and state = 'running'
      and planned_at is not null and succeeded + failed + duplicates + skipped >= planned
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

async function record(db: DB, data: AnswerData, result: Outcome, tasks: TaskSender): Promise<void> {
  try {
    await retryOnConflict(db, (trx) => inWorkspace(trx, data.workspaceId, (scopedTrx) => recordOutcome(scopedTrx, data, result, tasks)))
  } catch (error) {
    if (!(error instanceof AlreadyRecorded)) throw error
  }
}

export function planTask(): TaskDefinition<PlanData> {
  return {
    retryLimit: 5,
    retryDelaySeconds: 2,
    async handle(task) {
      const { workspaceId, runId } = task.data
      await inWorkspace(task.db, workspaceId, async (trx) => {
        const run = await trx.selectFrom('collection_run').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', runId).forUpdate().executeTakeFirst()
        if (!run || run.planned_at) return
        if (run.state === 'cancelled') {
          await trx.updateTable('collection_run').set({ planned_at: new Date() }).where('workspace_id', '=', workspaceId).where('id', '=', runId).execute()
          return
        }
        let targets = trx.selectFrom('collection_target').select(['id', 'samples']).where('workspace_id', '=', workspaceId)
        // Named targets run even when disabled (a manual try); otherwise the enabled ones.
        targets = run.target_ids
          ? targets.where('id', 'in', run.target_ids.length ? run.target_ids : ['00000000-0000-0000-0000-000000000000'])
          : targets.where('enabled', '=', true)
        let prompts = trx.selectFrom('prompt').select('id').where('workspace_id', '=', workspaceId)
        prompts = run.prompt_ids
          ? prompts.where('id', 'in', run.prompt_ids.length ? run.prompt_ids : ['00000000-0000-0000-0000-000000000000'])
          : prompts.where('is_active', '=', true)
        const [targetRows, promptRows] = await Promise.all([targets.orderBy('id').execute(), prompts.orderBy('id').execute()])
        let planned = 0
        // Interleaved by sample, then prompt: the first answers of every target come first.
        for (let sample = 1; sample <= Math.max(0, ...targetRows.map((t) => t.samples)); sample++) {
          for (const prompt of promptRows) {
            for (const target of targetRows) {
              if (sample > target.samples) continue
              const data: AnswerData = { workspaceId, runId, targetId: target.id, promptId: prompt.id, sample, attempt: 0 }
              await task.tasks.send(COLLECTION_ANSWER, data, { db: trx, id: taskId(`${answerExternalId(runId, target.id, prompt.id, sample)}#0`) })
              planned += 1
            }
          }
        }
        const now = new Date()
        await trx
          .updateTable('collection_run')
          .set({ planned, planned_at: now, started_at: now, state: planned === 0 ? 'succeeded' : 'running', ...(planned === 0 ? { finished_at: now } : {}) })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', runId)
          .execute()
      })
    },
  }
}

type Loaded =
  | { done: true }
  | {
      done: false
      target: TargetRow
      promptText: string
      runState: string
    }

export function answerTask(
  settings: CollectionSettings,
  limits = new ProviderLimits({ concurrency: settings.collectionConcurrency, requestsPerMinute: settings.collectionRequestsPerMinute }),
): TaskDefinition<AnswerData> {
  return {
    // Retries of provider errors are new tasks (honouring Retry-After); pg-boss's own retries
    // cover what failed on our side (the database), with the answer not yet counted.
    retryLimit: 3,
    retryDelaySeconds: 2,
    expireInSeconds: settings.collectionTaskExpireSeconds,
    // Each worker is one pg-boss fetch loop (it polls every JOBS_POLL_SECONDS when idle).
    concurrency: settings.collectionWorkers,
    handle: (task) => answer(task, settings, limits),
  }
}

async function answer(task: TaskContext<AnswerData>, settings: CollectionSettings, limits: ProviderLimits): Promise<void> {
  const data = task.data
  const { workspaceId } = data
  const externalId = answerExternalId(data.runId, data.targetId, data.promptId, data.sample)
  const db = task.db

  const loaded: Loaded = await inWorkspace(db, workspaceId, async (trx) => {
    const [run, counted, target, prompt, stored] = await Promise.all([
      trx.selectFrom('collection_run').select('state').where('workspace_id', '=', workspaceId).where('id', '=', data.runId).executeTakeFirst(),
      trx.selectFrom('collection_answer').select('outcome').where('workspace_id', '=', workspaceId).where('external_id', '=', externalId).executeTakeFirst(),
      trx.selectFrom('collection_target').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', data.targetId).executeTakeFirst(),
      trx.selectFrom('prompt').select('text').where('workspace_id', '=', workspaceId).where('id', '=', data.promptId).executeTakeFirst(),
      // Stored already (another client ingested this external id): a duplicate, asked for nothing.
      sql<{ n: number }>`select count(*)::int as n from (
        select 1 from response where workspace_id = ${workspaceId} and external_id = ${externalId}
        union all select 1 from aio_observation where workspace_id = ${workspaceId} and external_id = ${externalId}) s`.execute(trx),
    ])
    if (!run || counted) return { done: true }
    if (run.state === 'cancelled') {
      await recordOutcome(trx, data, { outcome: 'skipped' }, task.tasks).catch(ignoreRecorded)
      return { done: true }
    }
    if (!target || !prompt) {
      const what = !target
        ? { code: 'target_removed', message: 'The target was deleted before this answer was asked' }
        : { code: 'prompt_removed', message: 'The prompt was deleted before it was asked' }
      await recordOutcome(trx, data, { outcome: 'skipped', error: what }, task.tasks).catch(ignoreRecorded)
      return { done: true }
    }
    if (stored.rows[0].n > 0) {
      await recordOutcome(trx, data, { outcome: 'duplicate' }, task.tasks).catch(ignoreRecorded)
      return { done: true }
    }
    return { done: false, target, promptText: prompt.text, runState: run.state }
  })
  if (loaded.done) return
  const { target, promptText } = loaded

  const flaggedError = (row: Pick<TargetRow, 'flag_code' | 'flag_reason'>): Outcome => ({
    outcome: 'failed',
    error: { code: row.flag_code ?? 'target_flagged', message: row.flag_reason ?? 'The target is flagged; fix its credential and edit the target to clear the flag' },
  })
  if (target.flagged) return record(db, data, flaggedError(target), task.tasks)

  const answerTarget: CollectionAnswerTarget | undefined =
    target.kind === 'answer' && target.provider && target.model && target.api
      ? { provider: providerOf(target.provider), model: target.model, api: target.api, base_url: target.base_url, web_search: target.web_search }
      : undefined
  const free = target.api === 'demo'
  const estimate = free ? 0 : answerTarget ? estimateAnswerCostUsd(toAnswerTarget(answerTarget)) : serpCostUsd(target.serp ?? 'serpapi')
  const reserved = await inWorkspace(db, workspaceId, (trx) => reserveBudget(trx, workspaceId, estimate, settings.collectionDailyBudgetUsd))
  if (!reserved) {
    return record(
      db,
      data,
      {
        outcome: 'skipped',
        error: {
          code: 'budget_exceeded',
          message: `The workspace's daily collection budget of $${settings.collectionDailyBudgetUsd} (COLLECTION_DAILY_BUDGET_USD) is spent; the remaining answers were skipped. Raise the budget or run again tomorrow (UTC).`,
        },
      },
      task.tasks,
    )
  }

  let asked: { answered: ProviderAnswer | AioAnswer } | { stopped: Outcome }
  try {
    // A credential of another provider is refused here and flags the target, like a refused key.
    const apiKey = await flagOnRefusal(db, workspaceId, target.id, () => inWorkspace(db, workspaceId, (trx) => resolveApiKey(trx, workspaceId, target, settings)))
    const providerKey = free ? 'demo' : target.api === 'openai_compatible' ? `openai_compatible:${target.base_url}` : (target.provider ?? target.serp ?? 'unknown')
    asked = await limits.run(
      providerKey,
      `${target.id}:${new Date(target.updated_at).getTime()}`,
      // Past the gate: a probe may have flagged the target, or the run been cancelled, meanwhile.
      () =>
        inWorkspace(db, workspaceId, async (trx): Promise<Outcome | undefined> => {
          const now = await trx
            .selectFrom('collection_target')
            .select(['flagged', 'flag_code', 'flag_reason'])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', target.id)
            .executeTakeFirst()
          if (now?.flagged) return flaggedError(now)
          const run = await trx.selectFrom('collection_run').select('state').where('workspace_id', '=', workspaceId).where('id', '=', data.runId).executeTakeFirst()
          return run?.state === 'cancelled' ? { outcome: 'skipped' } : undefined
        }),
      // A refused key flags the target before the gate lets the next request through.
      () =>
        flagOnRefusal(db, workspaceId, target.id, () =>
          withTimeout<ProviderAnswer | AioAnswer>(settings.collectionTimeoutMs, (signal) =>
            answerTarget
              ? resolveAnswerAdapter(answerTarget, settings).ask({
                  target: toAnswerTarget(answerTarget),
                  prompt: promptText,
                  apiKey,
                  timeoutMs: settings.collectionTimeoutMs,
                  signal,
                })
              : resolveAioAdapter({ serp: target.serp ?? 'serpapi', api: target.api }, settings).observe({
                  query: promptText,
                  locale: target.locale ?? 'en-US',
                  apiKey,
                  timeoutMs: settings.collectionTimeoutMs,
                  signal,
                }),
          ),
        ),
    )
  } catch (error) {
    await inWorkspace(db, workspaceId, (trx) => adjustSpend(trx, workspaceId, -estimate))
    if (!(error instanceof ProviderError)) {
      // Our side failed (a bug, the database, the key store): pg-boss retries the task; the
      // last attempt counts the answer as failed so the run still finishes.
      if (task.retryCount < task.retryLimit) throw error
      return record(
        db,
        data,
        {
          outcome: 'failed',
          error: { code: 'internal_error', message: `Beacon could not ask the provider: ${error instanceof Error ? error.message : String(error)}` },
        },
        task.tasks,
      )
    }
    if (error.retryable && data.attempt + 1 < settings.collectionMaxAttempts) {
      const next: AnswerData = { ...data, attempt: data.attempt + 1 }
      await task.tasks.send(COLLECTION_ANSWER, next, { id: taskId(`${externalId}#${next.attempt}`), startAfterSeconds: retryDelayMs(data.attempt, error.retryAfterMs) / 1000 })
      return
    }
    const attempts = data.attempt + 1
    const message = error.retryable ? `${error.message} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})` : error.message
    return record(db, data, { outcome: 'failed', error: { code: error.kind, message } }, task.tasks)
  }
  if ('stopped' in asked) {
    await inWorkspace(db, workspaceId, (trx) => adjustSpend(trx, workspaceId, -estimate))
    return record(db, data, asked.stopped, task.tasks)
  }

  const result = asked.answered
  const now = new Date()
  const cost = free ? 0 : answerTarget && 'modelServed' in result ? answerCostUsd(toAnswerTarget(answerTarget), result) : estimate
  const store = async (trx: DB): Promise<Outcome> => {
    if ('modelServed' in result && answerTarget) {
      const ingested = await ingestResponses(trx, workspaceId, [
        {
          external_id: externalId,
          prompt_id: data.promptId,
          provider: answerTarget.provider,
          model: answerTarget.model,
          content: result.content,
          created_at: now.toISOString(),
          citations: result.citations.map((c) => ({ url: c.url, ...(c.title ? { title: c.title } : {}) })),
        },
      ])
      const meta = {
        modelServed: result.modelServed,
        tokensIn: result.tokensIn,
        tokensOut: result.tokensOut,
        webSearchCalls: result.webSearchCalls,
        costUsd: cost,
        latencyMs: result.latencyMs,
        raw: result.raw,
      }
      return ingested.accepted ? { outcome: 'succeeded', meta } : { outcome: 'duplicate', meta }
    }
    const aio = result as AioAnswer
    const ingested = await ingestAio(trx, workspaceId, [
      { external_id: externalId, prompt_id: data.promptId, observed_at: now.toISOString(), has_aio: aio.hasAio, overview_text: aio.hasAio ? aio.overviewText : null },
    ])
    const meta = { modelServed: null, tokensIn: 0, tokensOut: 0, webSearchCalls: 1, costUsd: cost, latencyMs: aio.latencyMs, raw: aio.raw }
    return ingested.accepted ? { outcome: 'succeeded', meta } : { outcome: 'duplicate', meta }
  }
  try {
    await retryOnConflict(db, (trx) =>
      inWorkspace(trx, workspaceId, async (scopedTrx) => {
        let outcome: Outcome
        try {
          outcome = await store(scopedTrx)
        } catch (error) {
          // The provider's answer does not fit what Beacon stores (e.g. a 300 KB answer).
          if (!(error instanceof AppError) || error.statusCode >= 500) throw error
          outcome = { outcome: 'failed', error: { code: 'invalid_answer', message: `The provider's answer could not be stored: ${error.message}` } }
        }
        await recordOutcome(scopedTrx, data, outcome, task.tasks)
        await adjustSpend(scopedTrx, workspaceId, cost - estimate)
      }),
    )
  } catch (error) {
    if (error instanceof AlreadyRecorded) {
      await inWorkspace(db, workspaceId, (trx) => adjustSpend(trx, workspaceId, -estimate))
      return
    }
    throw error
  }
}

async function flagOnRefusal<T>(db: DB, workspaceId: string, targetId: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    if (error instanceof ProviderError && error.flagsTarget) {
      await inWorkspace(db, workspaceId, (trx) =>
        trx
          .updateTable('collection_target')
          .set({ flagged: true, flag_code: error.kind, flag_reason: `${error.message} — fix the credential, then edit the target to clear the flag`, flagged_at: new Date() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', targetId)
          .where('flagged', '=', false)
          .execute(),
      )
    }
    throw error
  }
}

function ignoreRecorded(error: unknown): void {
  if (!(error instanceof AlreadyRecorded)) throw error
}

function providerOf(value: string): CollectionAnswerTarget['provider'] {
  if (value === 'openai' || value === 'anthropic' || value === 'google' || value === 'perplexity') return value
  throw new ProviderError('bad_request', `unknown provider ${value}`)
}

/** The adapter gets the deadline too; this makes sure a misbehaving one cannot hold a worker past it. */
async function withTimeout<T>(timeoutMs: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      fn(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort()
          reject(new ProviderError('timeout', `The provider did not answer within ${Math.round(timeoutMs / 1000)} s (COLLECTION_TIMEOUT_SECONDS)`))
        }, timeoutMs)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

export function collectionTasks(settings: CollectionSettings): Record<string, TaskDefinition<unknown>> {
  return { [COLLECTION_PLAN]: planTask(), [COLLECTION_ANSWER]: answerTask(settings) } as Record<string, TaskDefinition<unknown>>
}
