// The progress of a background job a write queued (re-analysis after a brand or prompt
// change, DESIGN §13), polled until it ends.
import type { Job } from '../lib/api'
import { formatCount } from '../lib/format'
import { useApi } from '../lib/session'

const DONE = new Set(['succeeded', 'failed', 'cancelled'])

export function JobProgress({ id, label = 'Re-analysis' }: { id: string; label?: string }) {
  // Polled every second until the job ends.
  const job = useApi<Job>(`/jobs/${id}`, undefined, { refetchInterval: (data) => (data && DONE.has(data.state) ? false : 1000) })
  const data = job.data
  const finished = data ? DONE.has(data.state) : false
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
