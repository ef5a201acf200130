// The work of a collection run (docs/collection.md, docs/jobs.md), as two task queues of the job
// runtime: plan (collection-plan.ts) queues one answer task per prompt × target × sample;
// answer (answer-task.ts) asks one provider for one answer and stores it or ends it with its
// outcome (answer-outcome.ts).
import type { TaskDefinition } from '../jobs/job-runtime.js'
import { answerTask, type CollectionSettings } from './answer-task.js'
import { planTask } from './collection-plan.js'
import { COLLECTION_ANSWER, COLLECTION_PLAN } from './runs.js'

export { COLLECTION_ANSWER, COLLECTION_PLAN, type AnswerData, type PlanData } from './runs.js'
export { answerTask, retryDelayMs, type CollectionSettings } from './answer-task.js'
export { planTask } from './collection-plan.js'

export function collectionTasks(settings: CollectionSettings): Record<string, TaskDefinition<unknown>> {
  return { [COLLECTION_PLAN]: planTask(), [COLLECTION_ANSWER]: answerTask(settings) } as Record<string, TaskDefinition<unknown>>
}
