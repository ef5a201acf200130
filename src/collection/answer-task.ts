// The answer task (docs/collection.md, docs/jobs.md): asks one provider for one answer and
// stores it through the ingest path (analysis, rollups) under external_id
// `run:<run>:<target>:<prompt>:<sample>`. In order: load what to ask (or end it as skipped or
// duplicate), reserve its estimated cost in the daily budget, ask under the provider's caps and
// the deadline, then store it, retry it, or end it with its outcome (answer-outcome.ts); the
// reservation is settled to what the provider billed in every case (settleReservation).
import { sql } from 'kysely'
import type { Config } from '../config.js'
import type { DB } from '../db/database.js'
import { inWorkspace } from '../db/tenant-scope.js'
import { retryOnConflict } from '../db/retry-conflicts.js'
import { AppError } from '../core/errors.js'
import { ingestResponses } from '../ingest/ingest-responses.js'
import { ingestAio } from '../ingest/ingest-aio.js'
import { cleanSearchQueries } from '../ingest/search-queries.js'
import type { TaskContext, TaskDefinition } from '../jobs/job-runtime.js'
import { ProviderError, type AioAnswer, type ProviderAnswer } from './adapters/types.js'
import { MAX_OUTPUT_TOKENS, RETRY_OUTPUT_TOKENS } from './adapters/parse-helpers.js'
import { resolveAioAdapter, resolveAnswerAdapter, toAnswerTarget, type CollectionAnswerTarget } from './adapter-resolver.js'
import { answerCostUsd, estimateAnswerCostUsd, serpCostUsd } from './prices.js'
import { reserveBudget, settleReservation } from './budget.js'
import { resolveApiKey } from './credentials.js'
import { ProviderLimits } from './provider-limits.js'
import { answerExternalId, COLLECTION_ANSWER, taskId, type AnswerData } from './runs.js'
import type { TargetRow } from './targets.js'
import { AlreadyRecorded, flaggedOutcome, ignoreRecorded, keepNonAnswer, nonAnswerOutcome, providerFailure, record, recordOutcome, type Outcome } from './answer-outcome.js'

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

/** What one answer task asks: the target as stored, and as the adapters take it (absent for AIO targets). */
interface Asking {
  target: TargetRow
  answerTarget: CollectionAnswerTarget | undefined
  promptText: string
  /** the demo provider: nothing to pay */
  free: boolean
  /** reserved in the daily budget before asking */
  estimate: number
}

async function answer(task: TaskContext<AnswerData>, settings: CollectionSettings, limits: ProviderLimits): Promise<void> {
  const { data, db } = task
  const loaded = await loadAnswer(task)
  if (!loaded) return
  const { target } = loaded
  if (target.flagged) return record(db, data, flaggedOutcome(target), task.tasks)

  const answerTarget: CollectionAnswerTarget | undefined =
    target.kind === 'answer' && target.provider && target.model && target.api
      ? { provider: providerOf(target.provider), model: target.model, api: target.api, base_url: target.base_url, web_search: target.web_search }
      : undefined
  const free = target.api === 'demo'
  // The one retry of a cut answer may write up to its larger cap: the estimate scales with it (still an upper bound).
  const capScale = (data.maxOutputTokens ?? MAX_OUTPUT_TOKENS) / MAX_OUTPUT_TOKENS
  const estimate = free ? 0 : answerTarget ? estimateAnswerCostUsd(toAnswerTarget(answerTarget)) * capScale : serpCostUsd(target.serp ?? 'serpapi')
  const reserved = await inWorkspace(db, data.workspaceId, (trx) => reserveBudget(trx, data.workspaceId, estimate, settings.collectionDailyBudgetUsd))
  if (!reserved) {
    const message = `The workspace's daily collection budget of $${settings.collectionDailyBudgetUsd} (COLLECTION_DAILY_BUDGET_USD) is spent; the remaining answers were skipped. Raise the budget or run again tomorrow (UTC).`
    return record(db, data, { outcome: 'skipped', error: { code: 'budget_exceeded', message } }, task.tasks)
  }
  const asking: Asking = { target, answerTarget, promptText: loaded.promptText, free, estimate }

  let asked: { answered: ProviderAnswer | AioAnswer } | { stopped: Outcome }
  try {
    asked = await askProvider(task, settings, limits, asking)
  } catch (error) {
    return settleFailure(task, settings, asking, error)
  }
  if ('stopped' in asked) {
    await settleReservation(db, data.workspaceId, estimate)
    return record(db, data, asked.stopped, task.tasks)
  }
  return storeAnswer(task, asking, asked.answered)
}

/**
 * The target and prompt to ask, or undefined when the answer already ended here: counted
 * before (a task run again), its run cancelled, its target or prompt deleted, or its external
 * id stored already by another client (a duplicate, asked for nothing).
 */
async function loadAnswer(task: TaskContext<AnswerData>): Promise<{ target: TargetRow; promptText: string } | undefined> {
  const { data } = task
  const { workspaceId } = data
  const externalId = answerExternalId(data.runId, data.targetId, data.promptId, data.sample)
  return inWorkspace(task.db, workspaceId, async (trx) => {
    const [run, counted, target, prompt, stored] = await Promise.all([
      trx.selectFrom('collection_run').select('state').where('workspace_id', '=', workspaceId).where('id', '=', data.runId).executeTakeFirst(),
      trx.selectFrom('collection_answer').select('outcome').where('workspace_id', '=', workspaceId).where('external_id', '=', externalId).executeTakeFirst(),
      trx.selectFrom('collection_target').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', data.targetId).executeTakeFirst(),
      trx.selectFrom('prompt').select('text').where('workspace_id', '=', workspaceId).where('id', '=', data.promptId).executeTakeFirst(),
      sql<{ n: number }>`select count(*)::int as n from (
        select 1 from response where workspace_id = ${workspaceId} and external_id = ${externalId}
        union all select 1 from aio_observation where workspace_id = ${workspaceId} and external_id = ${externalId}) s`.execute(trx),
    ])
    if (!run || counted) return undefined
    let ended: Outcome | undefined
    if (run.state === 'cancelled') ended = { outcome: 'skipped' }
    else if (!target) ended = { outcome: 'skipped', error: { code: 'target_removed', message: 'The target was deleted before this answer was asked' } }
    else if (!prompt) ended = { outcome: 'skipped', error: { code: 'prompt_removed', message: 'The prompt was deleted before it was asked' } }
    else if (stored.rows[0].n > 0) ended = { outcome: 'duplicate' }
    if (ended || !target || !prompt) {
      if (ended) await recordOutcome(trx, data, ended, task.tasks).catch(ignoreRecorded)
      return undefined
    }
    return { target, promptText: prompt.text }
  })
}

/** Asks under the provider's caps and the deadline; `stopped` when the target was flagged or the run cancelled while it waited. */
async function askProvider(
  task: TaskContext<AnswerData>,
  settings: CollectionSettings,
  limits: ProviderLimits,
  { target, answerTarget, promptText, free }: Asking,
): Promise<{ answered: ProviderAnswer | AioAnswer } | { stopped: Outcome }> {
  const { data, db } = task
  const { workspaceId } = data
  // A credential of another provider is refused here and flags the target, like a refused key.
  const apiKey = await flagOnRefusal(db, workspaceId, target.id, () => inWorkspace(db, workspaceId, (trx) => resolveApiKey(trx, workspaceId, target, settings)))
  const providerKey = free ? 'demo' : target.api === 'openai_compatible' ? `openai_compatible:${target.base_url}` : (target.provider ?? target.serp ?? 'unknown')
  return limits.run(
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
        if (now?.flagged) return flaggedOutcome(now)
        const run = await trx.selectFrom('collection_run').select('state').where('workspace_id', '=', workspaceId).where('id', '=', data.runId).executeTakeFirst()
        return run?.state === 'cancelled' ? { outcome: 'skipped' } : undefined
      }),
    // A refused key or an exhausted quota flags the target before the gate lets the next request through.
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
                maxOutputTokens: data.maxOutputTokens,
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
}

/**
 * The ask failed: the reservation becomes what the provider billed (a non-answer is billed, an
 * error is not), a non-answer is kept for audit, and the answer is asked again (a cut answer
 * once with a larger cap; transient errors with backoff) or ends with its outcome.
 */
async function settleFailure(task: TaskContext<AnswerData>, settings: CollectionSettings, asking: Asking, error: unknown): Promise<void> {
  const { data, db } = task
  const { answerTarget, free, estimate } = asking
  const detail = error instanceof ProviderError ? error.nonAnswer : undefined
  const spentUsd =
    detail && answerTarget && !free
      ? answerCostUsd(toAnswerTarget(answerTarget), {
          modelServed: detail.modelServed ?? answerTarget.model,
          tokensIn: detail.tokensIn,
          tokensOut: detail.tokensOut,
          webSearchCalls: detail.webSearchCalls,
        })
      : 0
  await settleReservation(db, data.workspaceId, estimate, spentUsd)
  if (!(error instanceof ProviderError)) {
    // Our side failed (a bug, the database, the key store): pg-boss retries the task; the
    // last attempt counts the answer as failed so the run still finishes.
    if (task.retryCount < task.retryLimit) throw error
    const message = `Beacon could not ask the provider: ${error instanceof Error ? error.message : String(error)}`
    return record(db, data, { outcome: 'failed', error: { code: 'internal_error', message } }, task.tasks)
  }
  if (detail || nonAnswerOutcome(error.kind)) await keepNonAnswer(db, data, error, spentUsd, answerTarget?.provider ?? asking.target.serp ?? null)
  const externalId = answerExternalId(data.runId, data.targetId, data.promptId, data.sample)
  if (error.kind === 'incomplete' && data.maxOutputTokens === undefined) {
    // Cut by the output limit: asked once more, at once, with a larger limit (docs/collection.md).
    const next: AnswerData = { ...data, attempt: data.attempt + 1, maxOutputTokens: RETRY_OUTPUT_TOKENS }
    await task.tasks.send(COLLECTION_ANSWER, next, { id: taskId(`${externalId}#${next.attempt}`) })
    return
  }
  if (error.retryable && data.attempt + 1 < settings.collectionMaxAttempts) {
    const next: AnswerData = { ...data, attempt: data.attempt + 1 }
    await task.tasks.send(COLLECTION_ANSWER, next, { id: taskId(`${externalId}#${next.attempt}`), startAfterSeconds: retryDelayMs(data.attempt, error.retryAfterMs) / 1000 })
    return
  }
  return record(db, data, providerFailure(error, data.attempt + 1, spentUsd), task.tasks)
}

/** Stores a completed answer through the ingest path, its outcome and the settled reservation in one transaction. */
async function storeAnswer(task: TaskContext<AnswerData>, { target, answerTarget, free, estimate }: Asking, result: ProviderAnswer | AioAnswer): Promise<void> {
  const { data, db } = task
  const { workspaceId } = data
  const externalId = answerExternalId(data.runId, data.targetId, data.promptId, data.sample)
  const now = new Date()
  // An AI overview costs the SERP requests it made (SerpApi's page_token follow-up is a second one); the estimate is the most one can cost.
  const cost = free
    ? 0
    : answerTarget && 'modelServed' in result
      ? answerCostUsd(toAnswerTarget(answerTarget), result)
      : serpCostUsd(target.serp ?? 'serpapi', (result as AioAnswer).requests)
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
          search_queries: cleanSearchQueries(result.searchQueries),
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
        await settleReservation(scopedTrx, workspaceId, estimate, cost)
      }),
    )
  } catch (error) {
    // Counted already by an earlier run of this task, which settled its own reservation: this one is refunded.
    if (error instanceof AlreadyRecorded) return settleReservation(db, workspaceId, estimate)
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
