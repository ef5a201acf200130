// The job behind a brand or prompt change (DESIGN §13): re-analysis of the workspace's
// history in batches, reporting progress after each committed batch.
import { loadBrandTerms } from '../ingest/brand-terms.js'
import { compileBrandMatcher } from '../analysis/index.js'
import { countReanalysisWork, reanalyzeWorkspace, REANALYSIS_BATCH, type Analyser } from '../ingest/reanalyze.js'
import type { JobHandler } from './job-runtime.js'

import { REANALYSIS } from './job-names.js'

export function reanalysisJob(options: { analyser?: Analyser; batchSize?: number } = {}): JobHandler {
  return async (job) => {
    const started = Date.now()
    const brands = await loadBrandTerms(job.db, job.workspaceId)
    const work = await countReanalysisWork(job.db, job.workspaceId)
    const total = work.responses + work.observations
    await job.checkpoint(0, total)
    const done = await reanalyzeWorkspace(job.db, job.workspaceId, {
      matcher: compileBrandMatcher(brands),
      analyser: options.analyser,
      batchSize: options.batchSize ?? REANALYSIS_BATCH,
      // Rows ingested meanwhile can push the count past the first estimate.
      afterBatch: (p) => job.checkpoint(p.responses + p.observations, Math.max(total, p.responses + p.observations)),
    })
    // A brand edit that committed after this job read the brands, while this job was still
    // queued, joined this job instead of queueing its own: run once more for it.
    const changed = JSON.stringify(await loadBrandTerms(job.db, job.workspaceId)) !== JSON.stringify(brands)
    const followUp = changed ? await job.enqueue(REANALYSIS) : null
    return {
      responses: done.responses,
      observations: done.observations,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(followUp ? { follow_up_job_id: followUp.id } : {}),
    }
  }
}
