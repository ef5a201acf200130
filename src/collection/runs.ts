// Starting and cancelling collection runs (docs/collection.md). A run is planned by a task (one
// answer task per prompt × target × sample, see collection-plan.ts), queued in the same
// transaction that creates the run, so a run never exists without its planning. The tasks'
// names and data are declared here, in a module that imports no task code.
import { v5 as uuidv5 } from 'uuid'
import type { DB } from '../db/database.js'
import type { RunTrigger } from '../db/schema.js'
import { newId } from '../db/ids.js'
import { AppError, invalidParameter } from '../core/errors.js'
import type { TaskSender } from '../jobs/job-runtime.js'
import { inTransaction } from '../db/tenant-scope.js'

export const COLLECTION_PLAN = 'collection.plan'
export const COLLECTION_ANSWER = 'collection.answer'

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
  /** the output cap of the one retry of an answer cut by the output limit; absent: MAX_OUTPUT_TOKENS */
  maxOutputTokens?: number
}

const NAMESPACE = '0f5f7c8e-3b7a-4f0e-9a51-6a1f3c2d9b10'
/** Deterministic task ids: sending the same planned work twice (a re-plan after a crash) queues it once. */
export const taskId = (key: string) => uuidv5(key, NAMESPACE)
export const answerExternalId = (runId: string, targetId: string, promptId: string, sample: number) => `run:${runId}:${targetId}:${promptId}:${sample}`

export interface RunRequest {
  target_ids?: string[]
  prompt_ids?: string[]
}

const unique = (ids: string[] | undefined) => (ids === undefined ? undefined : [...new Set(ids.map((id) => id.toLowerCase()))])

/** Creates the run (state queued) and queues its planning; 400 when it would ask nothing. */
export async function createRun(db: DB, workspaceId: string, request: RunRequest, tasks: TaskSender, trigger: RunTrigger = 'manual'): Promise<string> {
  const targetIds = unique(request.target_ids)
  const promptIds = unique(request.prompt_ids)
  return inTransaction(db, async (trx) => {
    let targets = trx.selectFrom('collection_target').select(['id', 'enabled']).where('workspace_id', '=', workspaceId)
    if (targetIds) targets = targets.where('id', 'in', targetIds.length ? targetIds : ['00000000-0000-0000-0000-000000000000'])
    const foundTargets = await targets.execute()
    if (targetIds) {
      const missing = targetIds.filter((id) => !foundTargets.some((t) => t.id === id))
      if (missing.length) throw invalidParameter('target_ids', `no collection target ${missing[0]} in this workspace; list them with GET /api/v1/collection/targets`)
    } else if (!foundTargets.some((t) => t.enabled)) {
      throw invalidParameter('target_ids', 'this workspace has no enabled collection target; add one with POST /api/v1/collection/targets (api "demo" needs no key)')
    }
    if (targetIds && targetIds.length === 0) throw invalidParameter('target_ids', 'target_ids is empty; leave it out to use every enabled target')
    let prompts = trx.selectFrom('prompt').select(['id', 'is_active']).where('workspace_id', '=', workspaceId)
    if (promptIds) prompts = prompts.where('id', 'in', promptIds.length ? promptIds : ['00000000-0000-0000-0000-000000000000'])
    const foundPrompts = await prompts.execute()
    if (promptIds) {
      const missing = promptIds.filter((id) => !foundPrompts.some((p) => p.id === id))
      if (missing.length) throw invalidParameter('prompt_ids', `no prompt ${missing[0]} in this workspace`)
      if (promptIds.length === 0) throw invalidParameter('prompt_ids', 'prompt_ids is empty; leave it out to use every active prompt')
    } else if (!foundPrompts.some((p) => p.is_active)) {
      throw invalidParameter('prompt_ids', 'this workspace has no active prompt to ask; add one with POST /api/v1/prompts')
    }
    const id = newId()
    await trx
      .insertInto('collection_run')
      .values({ workspace_id: workspaceId, id, trigger, target_ids: targetIds ?? null, prompt_ids: promptIds ?? null })
      .execute()
    const sent = await tasks.send(COLLECTION_PLAN, { workspaceId, runId: id }, { db: trx, id: taskId(`plan:${id}`) })
    if (!sent) throw new AppError(503, 'service_unavailable', 'Could not queue the run; retry in a few seconds')
    return id
  })
}

/** Marks the run cancelled; its queued answers are skipped when their turn comes. false: not found. */
export async function cancelRun(db: DB, workspaceId: string, runId: string): Promise<boolean> {
  const row = await db.selectFrom('collection_run').select('state').where('workspace_id', '=', workspaceId).where('id', '=', runId).executeTakeFirst()
  if (!row) return false
  await db
    .updateTable('collection_run')
    .set({ state: 'cancelled', finished_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', runId)
    .where('state', 'in', ['queued', 'running'])
    .execute()
  return true
}
