// The job types a workspace can queue (one queue each). Kept apart from their handlers so a
// module that only queues a job (a brand edit, the discover route) does not load what runs it.
export const REANALYSIS = 'reanalysis'
export const DISCOVERY = 'discovery'
