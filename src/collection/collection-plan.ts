// Planning a collection run (docs/jobs.md, docs/collection.md): reads the run's targets and
// prompts and queues one answer task per prompt × target × sample, each with a deterministic
// task id, in one transaction with the run's `planned` count (a plan task run again after a
// crash queues nothing twice).
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { inWorkspace } from '../db/tenant-scope.js'
import { answerExternalId, COLLECTION_ANSWER, taskId, type AnswerData, type PlanData } from './runs.js'

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
