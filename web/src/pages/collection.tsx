// Collection (docs/collection.md): targets (what to ask) and runs (with progress). Older servers
// have no collection routes: a 404 shows that instead of an error.
import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { apiRequest, type ApiError, type CollectionRun, type CollectionTarget } from '../lib/api'
import { formatCount, formatDateTime } from '../lib/format'
import { useApi, useSession } from '../lib/session'
import { Badge, DataTable, ErrorBox, Loading, Section } from '../components/ui'

const PROVIDERS = ['openai', 'anthropic', 'google', 'perplexity']
const ACTIVE = new Set(['queued', 'running'])

/** Lists arrive as `{targets: […]}` / `{runs: […]}` (or a bare array). */
function listOf<T>(data: unknown, name: string): T[] {
  if (Array.isArray(data)) return data as T[]
  const inner = (data as Record<string, unknown> | null)?.[name]
  return Array.isArray(inner) ? (inner as T[]) : []
}

type Counted = 'succeeded' | 'failed' | 'duplicates' | 'skipped' | 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'

/** Answers with an outcome: asked and stored, failed, already stored, skipped (budget, cancel), or not answered by the engine. */
export const runDone = (run: Pick<CollectionRun, Counted>): number =>
  run.succeeded + run.failed + run.duplicates + (run.skipped ?? 0) + (run.refused ?? 0) + (run.incomplete ?? 0) + (run.search_failed ?? 0) + (run.quota_exhausted ?? 0)

export const runProgress = (run: Pick<CollectionRun, 'planned' | Counted>): number => (run.planned > 0 ? Math.min(1, runDone(run) / run.planned) : 0)

const targetLabel = (t: CollectionTarget) => (t.kind === 'aio' ? `AI overview · ${t.serp ?? ''} ${t.locale ?? ''}` : `${t.provider ?? ''} · ${t.model ?? ''}`)

export default function Collection() {
  const targets = useApi<unknown>('/collection/targets')
  // Polled while a run is queued or running, so its progress moves on screen.
  const runsQuery = useApi<unknown>('/collection/runs', undefined, {
    refetchInterval: (data) => (listOf<CollectionRun>(data, 'runs').some((r) => ACTIVE.has(r.state)) ? 1500 : false),
  })
  const unavailable = [targets.error, runsQuery.error].some((e) => (e as ApiError | null)?.status === 404)
  if (unavailable)
    return (
      <>
        <h1>Collection</h1>
        <div className="state empty" data-testid="collection-unavailable">
          <strong>Collection is not available on this server.</strong> This Beacon version does not ask AI providers itself; feed answers in with the ingestion API or{' '}
          <code>beacon import</code>.
        </div>
      </>
    )
  return (
    <>
      <h1>Collection</h1>
      <Targets query={targets} />
      <Runs data={runsQuery.data} error={runsQuery.error} pending={runsQuery.isPending} />
    </>
  )
}

function Targets({ query }: { query: ReturnType<typeof useApi<unknown>> }) {
  const { key } = useSession()
  const client = useQueryClient()
  const [error, setError] = useState<Error | null>(null)
  const act = async (method: string, path: string, body?: unknown) => {
    setError(null)
    try {
      await apiRequest(key, path, { method, body })
      await client.invalidateQueries()
    } catch (e) {
      setError(e as Error)
    }
  }
  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    void act('POST', '/collection/targets', {
      provider: form.get('provider'),
      model: String(form.get('model') ?? '').trim(),
      api: form.get('api'),
      base_url: form.get('api') === 'openai_compatible' ? String(form.get('base_url') ?? '').trim() || undefined : undefined,
      web_search: form.get('web_search') === 'on',
      samples: Number(form.get('samples') ?? 1),
      schedule: String(form.get('schedule') ?? '').trim() || undefined,
      enabled: true,
    })
  }
  if (query.isPending) return <Loading />
  if (query.isError) return <ErrorBox error={query.error} retry={() => void query.refetch()} />
  const targets = listOf<CollectionTarget>(query.data, 'targets')
  return (
    <Section title="Targets">
      {targets.length === 0 ? (
        <p className="state empty">No targets yet: add one below to start asking a provider your prompts.</p>
      ) : (
        <DataTable
          testId="targets-table"
          caption="Collection targets"
          rows={targets}
          rowKey={(t) => t.id}
          columns={[
            { key: 'target', label: 'Target', sort: (t) => targetLabel(t), render: (t) => targetLabel(t) },
            { key: 'api', label: 'API', render: (t) => (t.api === 'openai_compatible' ? `compatible · ${t.base_url ?? ''}` : (t.api ?? 'native')) },
            { key: 'web_search', label: 'Web search', render: (t) => (t.kind === 'aio' ? '–' : t.web_search ? 'yes' : 'no') },
            { key: 'samples', label: 'Samples', numeric: true, render: (t) => formatCount(t.samples) },
            { key: 'schedule', label: 'Schedule', render: (t) => `${t.schedule} ${t.timezone}` },
            { key: 'next_run_at', label: 'Next run', render: (t) => (t.enabled && t.next_run_at ? formatDateTime(t.next_run_at) : '–') },
            {
              key: 'flagged',
              label: 'Status',
              render: (t) => (t.flagged ? <Badge tone="failed">{`flagged: ${t.flag_reason ?? 'check its key'}`}</Badge> : <Badge tone="succeeded">ok</Badge>),
            },
            {
              key: 'enabled',
              label: 'Enabled',
              render: (t) => (
                <button type="button" onClick={() => void act('PATCH', `/collection/targets/${t.id}`, { enabled: !t.enabled })} aria-pressed={t.enabled}>
                  {t.enabled ? 'Enabled' : 'Disabled'}
                </button>
              ),
            },
            {
              key: 'remove',
              label: '',
              render: (t) => (
                <button
                  type="button"
                  className="danger"
                  onClick={() => window.confirm(`Remove the target ${targetLabel(t)}?`) && void act('DELETE', `/collection/targets/${t.id}`)}
                >
                  Remove
                </button>
              ),
            },
          ]}
        />
      )}
      <form className="inline-form" onSubmit={add} aria-label="Add a target">
        <label>
          Provider
          <select name="provider" defaultValue="openai">
            {PROVIDERS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Model
          <input name="model" required placeholder="gpt-4o" />
        </label>
        <label>
          API
          <select name="api" defaultValue="native">
            <option value="native">native (the provider's SDK)</option>
            <option value="openai_compatible">OpenAI-compatible (base URL)</option>
            <option value="demo">demo (no network)</option>
          </select>
        </label>
        <label>
          Base URL
          <input name="base_url" type="url" placeholder="http://127.0.0.1:11434/v1" />
        </label>
        <label>
          Samples
          <input name="samples" type="number" min={1} max={10} defaultValue={1} />
        </label>
        <label>
          Schedule (cron)
          <input name="schedule" placeholder="0 6 * * *" />
        </label>
        <label className="check">
          <input name="web_search" type="checkbox" /> Web search
        </label>
        <button type="submit">Add target</button>
      </form>
      <div className="actions">
        <button type="button" onClick={() => void act('POST', '/collection/runs', {})} disabled={targets.length === 0}>
          Run now
        </button>
      </div>
      {error && <ErrorBox error={error} />}
    </Section>
  )
}

function Runs({ data, error, pending }: { data: unknown; error: ApiError | null; pending: boolean }) {
  const { key } = useSession()
  const client = useQueryClient()
  const [cancelError, setCancelError] = useState<Error | null>(null)
  const onCancel = async (id: string) => {
    setCancelError(null)
    try {
      await apiRequest(key, `/collection/runs/${id}/cancel`, { method: 'POST', body: {} })
      await client.invalidateQueries()
    } catch (e) {
      setCancelError(e as Error)
    }
  }
  if (pending) return <Loading />
  if (error) return <ErrorBox error={error} />
  const runs = listOf<CollectionRun>(data, 'runs')
  return (
    <Section title="Runs">
      {cancelError && <ErrorBox error={cancelError} />}
      {runs.length === 0 ? (
        <p className="state empty">No runs yet.</p>
      ) : (
        <DataTable
          testId="runs-table"
          caption="Collection runs, newest first"
          rows={runs}
          rowKey={(r) => r.id}
          columns={[
            { key: 'created_at', label: 'Started', sort: (r) => r.created_at, render: (r) => formatDateTime(r.created_at) },
            { key: 'trigger', label: 'Trigger', render: (r) => r.trigger },
            { key: 'state', label: 'State', sort: (r) => r.state, render: (r) => <Badge tone={r.state}>{r.state}</Badge> },
            {
              key: 'progress',
              label: 'Progress',
              render: (r) => (
                <span data-testid="run-progress" data-done={runDone(r)} data-planned={r.planned}>
                  <progress max={1} value={runProgress(r)} aria-label="Run progress" /> {formatCount(runDone(r))} / {formatCount(r.planned)}
                </span>
              ),
            },
            { key: 'failed', label: 'Failed', numeric: true, sort: (r) => r.failed, render: (r) => formatCount(r.failed) },
            { key: 'cost', label: 'Cost (USD)', numeric: true, sort: (r) => r.cost_usd, render: (r) => r.cost_usd.toFixed(4) },
            { key: 'errors', label: 'Errors', render: (r) => r.errors.map((e) => `${e.code} ×${e.count}: ${e.message}`).join('; ') },
            {
              key: 'cancel',
              label: '',
              render: (r) =>
                ACTIVE.has(r.state) ? (
                  <button type="button" className="danger" onClick={() => void onCancel(r.id)}>
                    Cancel
                  </button>
                ) : null,
            },
          ]}
        />
      )}
    </Section>
  )
}
