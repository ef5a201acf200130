// Wires the job runtime for one process: which job types exist and what runs them.
import type { Config } from '../config.js'
import type { DatabaseHandle } from '../db/database.js'
import { sharedAnalysisPool } from '../analysis/analysis-pool.js'
import { JobRuntime, type JobRuntimeOptions } from './job-runtime.js'
import { REANALYSIS, ROLLUPS_REBUILD, reanalysisJob, rollupsRebuildJob } from './reanalysis-job.js'

export { JobRuntime, JobInterrupted, type JobQueue, type JobRef, type JobView } from './job-runtime.js'
export { REANALYSIS, ROLLUPS_REBUILD } from './reanalysis-job.js'

export function startJobs(
  config: Pick<Config, 'databaseUrl' | 'jobsSchema' | 'jobsWorker' | 'jobsPollSeconds' | 'analysisThreads'>,
  database: DatabaseHandle,
  options: Partial<Pick<JobRuntimeOptions, 'handlers' | 'log'>> & { batchSize?: number } = {},
): Promise<JobRuntime> {
  return JobRuntime.start({
    database,
    schema: config.jobsSchema,
    connectionString: database.backend === 'postgres' ? config.databaseUrl : undefined,
    worker: config.jobsWorker,
    pollingIntervalSeconds: config.jobsPollSeconds,
    log: options.log,
    handlers: options.handlers ?? {
      [REANALYSIS]: reanalysisJob({ analyser: sharedAnalysisPool(config.analysisThreads), batchSize: options.batchSize }),
      [ROLLUPS_REBUILD]: rollupsRebuildJob(),
    },
  })
}
