// The job behind a brand or prompt change (docs/jobs.md): re-analysis of the workspace's
// history in batches, reporting progress after each committed batch.
import { brandListFingerprint, loadBrandMatcher, loadBrandTerms } from '../ingest/brand-terms.js'
import { matcherCache } from '../analysis/index.js'
import { countReanalysisWork, reanalyzeWorkspace, REANALYSIS_BATCH, type Analyser } from '../ingest/reanalyze.js'
import type { JobHandler } from './job-runtime.js'

import { REANALYSIS } from './job-names.js'

export function reanalysisJob(options: { analyser?: Analyser; batchSize?: number } = {}): JobHandler {
  return async (job) => {
    const started = Date.now()
    // The fingerprint first: an edit committed after it reads as a change at the end.
    const fingerprint = await brandListFingerprint(job.db, job.workspaceId)
    const brands = await loadBrandTerms(job.db, job.workspaceId)
    const matcher = await loadBrandMatcher(job.db, job.workspaceId)
    // Kept in the matcher cache for the whole job (src/analysis/matcher-cache.ts): not compiled twice.
    matcherCache.pin(matcher)
    const done = await (async () => {
      const work = await countReanalysisWork(job.db, job.workspaceId)
      const total = work.responses + work.observations
      await job.checkpoint(0, total)
      return reanalyzeWorkspace(job.db, job.workspaceId, {
        matcher,
        analyser: options.analyser,
        batchSize: options.batchSize ?? REANALYSIS_BATCH,
        // Rows ingested meanwhile can push the count past the first estimate.
        afterBatch: (p) => job.checkpoint(p.responses + p.observations, Math.max(total, p.responses + p.observations)),
      })
    })().finally(() => matcherCache.unpin(matcher))
    // A brand edit that committed after this job read the brands, while this job was still
    // queued, joined this job instead of queueing its own: run once more for it.
    // The fingerprint moves with any write to a brand row (an icon, is_primary): only a
    // change of what matching reads needs another run.
    const changed =
      (await brandListFingerprint(job.db, job.workspaceId)) !== fingerprint && JSON.stringify(await loadBrandTerms(job.db, job.workspaceId)) !== JSON.stringify(brands)
    const followUp = changed ? await job.enqueue(REANALYSIS) : null
    return {
      responses: done.responses,
      observations: done.observations,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(followUp ? { follow_up_job_id: followUp.id } : {}),
    }
  }
}
