// The progress of a background job a write queued (re-analysis after a brand or prompt
// change, docs/jobs.md), polled until it ends.
import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { Job } from '../lib/api'
import { formatCount } from '../lib/format'
import { useApi } from '../lib/session'

const DONE = new Set(['succeeded', 'failed', 'cancelled'])

const LABELS: Record<string, string> = { reanalysis: 'Re-analysis', discovery: 'Competitor discovery' }

export function JobProgress({ id, label }: { id: string; label?: string }) {
  const client = useQueryClient()
  // Polled every second until the job ends.
  const job = useApi<Job>(`/jobs/${id}`, undefined, { refetchInterval: (data) => (data && DONE.has(data.state) ? false : 1000) })
  const data = job.data
  const finished = data ? DONE.has(data.state) : false
  // What the job changed (analysed answers, suggested brands) shows once it ends.
  useEffect(() => {
    if (finished) void client.invalidateQueries({ predicate: (query) => !String(query.queryKey[1] ?? '').startsWith('/jobs/') })
  }, [finished, client])
  label ??= (data && LABELS[data.type]) ?? 'Background job'
  if (job.isError) return <p role="alert">Could not follow the job: {job.error.message}</p>
  if (!data) return <p role="status">{label}: queued…</p>
  const { done, total } = data.progress
  return (
    <div className={`job ${data.state}`} role="status" aria-live="polite" data-testid="job-progress" data-state={data.state} data-stop={finished ? 'yes' : undefined}>
      <span>
        {label}: {data.state}
        {total > 0 && ` · ${formatCount(done)} of ${formatCount(total)}`}
      </span>
      <progress max={total || 1} value={data.state === 'succeeded' ? total || 1 : done} aria-label={`${label} progress`} />
      {data.error && <span className="error-text">{data.error.message}</span>}
    </div>
  )
}

export const isFinished = (state: string) => DONE.has(state)
