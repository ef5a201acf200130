// The job behind POST /api/v1/brands/discover (docs/uncertainty-and-discovery.md): scans the workspace's stored
// answers for brands they name that are not configured, reporting progress after each batch.
import { discoverBrands, type DiscoveryRunOptions } from '../discovery/run-discovery.js'
import type { JobHandler } from './job-runtime.js'

export function discoveryJob(options: Pick<DiscoveryRunOptions, 'batchSize' | 'options'> = {}): JobHandler {
  return async (job) => {
    const result = await discoverBrands(job.db, job.workspaceId, { ...options, jobId: job.jobId, afterBatch: (done, total) => job.checkpoint(done, total) })
    return { ...result }
  }
}
