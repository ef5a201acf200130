// Start-up wiring of the job runtime for one process: which job types exist and what runs them.
// Only the app, the CLI and tests import this; job and task code imports job-runtime.ts.
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, type Config } from './config.js'
import { backgroundWriteBatch, type DatabaseHandle } from './db/database.js'
import { AnalysisPool } from './analysis/analysis-pool.js'
import { JobRuntime, type JobRuntimeOptions } from './jobs/job-runtime.js'
import { reanalysisJob } from './jobs/reanalysis-job.js'
import { DISCOVERY, REANALYSIS } from './jobs/job-names.js'
import { collectionTasks, type CollectionSettings } from './collection/collection-tasks.js'
import { WEBHOOK_DELIVERY } from './webhooks/events.js'
import { webhookDeliveryTask } from './webhooks/delivery-task.js'
import { discoveryJob } from './jobs/discovery-job.js'
import { NOTIFICATION_DELIVERY } from './notifications/events.js'
import { notificationDeliveryTask } from './notifications/delivery-task.js'

/**
 * Background work should not take every core from the requests being served: jobs analyse
 * on a pool of their own with half the analysis threads (at least one). Measured on the
 * demo, 2 cores, PostgreSQL, /dashboard at concurrency 8: see README "Background jobs".
 */
export const jobAnalysisThreads = (analysisThreads: number) => (analysisThreads === 0 ? 0 : Math.max(1, Math.floor(analysisThreads / 2)))

export async function startJobs(
  config: Pick<Config, 'databaseUrl' | 'jobsSchema' | 'jobsWorker' | 'jobsPollSeconds' | 'jobsLostAfterSeconds' | 'analysisThreads' | 'demoLatencyMs'> &
    CollectionSettings &
    Partial<
      Pick<
        Config,
        | 'analysisThreadHeapMb'
        | 'secretKey'
        | 'jobsMaintenanceSeconds'
        | 'webhookAllowPrivate'
        | 'webhookTimeoutMs'
        | 'webhookRetrySchedule'
        | 'smtpUrl'
        | 'emailFrom'
        | 'publicUrl'
      >
    >,
  database: DatabaseHandle,
  options: Partial<Pick<JobRuntimeOptions, 'handlers' | 'tasks' | 'log'>> & { batchSize?: number } = {},
): Promise<JobRuntime> {
  const pool = config.jobsWorker && !options.handlers ? new AnalysisPool(jobAnalysisThreads(config.analysisThreads), config.analysisThreadHeapMb) : undefined
  const runtime = await JobRuntime.start({
    database,
    schema: config.jobsSchema,
    connectionString: database.backend === 'postgres' ? config.databaseUrl : undefined,
    worker: config.jobsWorker,
    pollingIntervalSeconds: config.jobsPollSeconds,
    lostAfterSeconds: config.jobsLostAfterSeconds,
    maintenanceSeconds: config.jobsMaintenanceSeconds,
    log: options.log,
    handlers: options.handlers ?? {
      // PGlite runs each batch's transaction on the one thread that also serves requests:
      // smaller batches keep each stall short.
      [REANALYSIS]: reanalysisJob({ analyser: pool, batchSize: options.batchSize ?? backgroundWriteBatch(database.backend) }),
      [DISCOVERY]: discoveryJob(),
    },
    // Collection (docs/collection.md): planning a run and asking for each answer; webhook deliveries.
    tasks: options.tasks ?? {
      ...collectionTasks(config),
      [WEBHOOK_DELIVERY]: webhookDeliveryTask({
        secretKey: config.secretKey,
        secretKeyPrevious: config.secretKeyPrevious,
        allowPrivate: config.webhookAllowPrivate ?? false,
        timeoutMs: config.webhookTimeoutMs ?? 10_000,
        retrySchedule: config.webhookRetrySchedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE,
        log: options.log,
      }),
      // Slack and e-mail channels: the webhooks' timeout and retry schedule.
      [NOTIFICATION_DELIVERY]: notificationDeliveryTask({
        secretKey: config.secretKey,
        secretKeyPrevious: config.secretKeyPrevious,
        allowPrivate: config.webhookAllowPrivate ?? false,
        timeoutMs: config.webhookTimeoutMs ?? 10_000,
        retrySchedule: config.webhookRetrySchedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE,
        smtpUrl: config.smtpUrl,
        emailFrom: config.emailFrom ?? 'Beacon <beacon@localhost>',
        publicUrl: config.publicUrl,
        log: options.log,
      }),
    },
  })
  if (pool) runtime.onStopped(() => pool.close())
  return runtime
}
