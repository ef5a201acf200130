// Collection (docs/collection.md): targets (what to ask) and runs (with progress). Older servers
// have no collection routes: a 404 shows that instead of an error.
import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { apiRequest, type ApiData, type ApiError, type CollectionRun, type CollectionTarget, type Credential } from '../lib/api'
import { formatCount, formatDateTime } from '../lib/format'
import { useApi, useSession } from '../lib/session'
import { Badge, DataTable, ErrorBox, Loading, Section } from '../components/ui'
import { TargetForm, targetLabel } from '../components/target-form'

type NonAnswerPage = ApiData<'/collection/runs/{run_id}/non-answers'>
type NonAnswer = NonAnswerPage['non_answers'][number]
type NonAnswerDetail = ApiData<'/collection/runs/{run_id}/non-answers/{non_answer_id}'>

const NON_ANSWERS_PER_PAGE = 25
const ACTIVE = new Set(['queued', 'running'])

/** Lists arrive as `{targets: […]}` / `{runs: […]}` (or a bare array). */
function listOf<T>(data: unknown, name: string): T[] {
  if (Array.isArray(data)) return data as T[]
  const inner = (data as Record<string, unknown> | null)?.[name]
  return Array.isArray(inner) ? (inner as T[]) : []
}

/** The share of planned answers that have an outcome; the server adds the counters up (answers_counted). */
export const runProgress = (run: Pick<CollectionRun, 'planned' | 'answers_counted'>): number => (run.planned > 0 ? Math.min(1, run.answers_counted / run.planned) : 0)

/** Planned answers the engines did not give: kept for audit, never stored (docs/collection.md). */
const notAnswered = (run: Pick<CollectionRun, 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'>) =>
  run.refused + run.incomplete + run.search_failed + run.quota_exhausted

export default function Collection() {
  const targets = useApi<unknown>('/collection/targets')
  // Stored keys need manage:workspace; without it the form offers the server's environment only.
  const credentials = useApi<Credential[]>('/collection/credentials')
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
      <Targets query={targets} credentials={Array.isArray(credentials.data) ? credentials.data : []} />
      <Runs data={runsQuery.data} error={runsQuery.error} pending={runsQuery.isPending} />
    </>
  )
}

function Targets({ query, credentials }: { query: ReturnType<typeof useApi<unknown>>; credentials: readonly Credential[] }) {
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
      <TargetForm credentials={credentials} />
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
  const [shown, setShown] = useState<string | null>(null)
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
  const shownRun = runs.find((r) => r.id === shown)
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
                <span data-testid="run-progress" data-done={r.answers_counted} data-planned={r.planned}>
                  <progress max={1} value={runProgress(r)} aria-label="Run progress" /> {formatCount(r.answers_counted)} / {formatCount(r.planned)}
                </span>
              ),
            },
            { key: 'failed', label: 'Failed', numeric: true, sort: (r) => r.failed, render: (r) => formatCount(r.failed) },
            {
              key: 'not_answered',
              label: 'Not answered',
              numeric: true,
              sort: (r) => notAnswered(r),
              render: (r) =>
                notAnswered(r) === 0 ? (
                  '0'
                ) : (
                  <button type="button" aria-pressed={shown === r.id} onClick={() => setShown(shown === r.id ? null : r.id)} title="Why these answers were not stored">
                    {formatCount(notAnswered(r))} · why?
                  </button>
                ),
            },
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
      {shownRun && <NonAnswers run={shownRun} key={shownRun.id} />}
    </Section>
  )
}

const OUTCOME_LABEL: Record<NonAnswer['outcome'], string> = {
  refused: 'refused',
  incomplete: 'cut short',
  search_failed: 'search failed',
  quota_exhausted: 'out of quota',
  unexpected_stop: 'unknown stop',
}

/** Why a run's answers were not stored: every attempt the provider did not complete, with its own reason. */
function NonAnswers({ run }: { run: CollectionRun }) {
  const [page, setPage] = useState(1)
  const [raw, setRaw] = useState<string | null>(null)
  const params = new URLSearchParams({ page: String(page), per_page: String(NON_ANSWERS_PER_PAGE) })
  const query = useApi<NonAnswerPage>(`/collection/runs/${run.id}/non-answers`, params, { refetchInterval: ACTIVE.has(run.state) ? 1500 : false })
  return (
    <section className="non-answers" data-testid="non-answers" aria-label={`Answers of the run started ${formatDateTime(run.created_at)} that were not stored`}>
      <h3>Not stored: what the providers sent instead</h3>
      <p className="hint">
        Refused, cut short, failed searches and exhausted quotas are counted on the run but never stored as answers, so they never lower visibility. A cut answer is asked once more
        with a larger limit: both attempts are listed.
      </p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorBox error={query.error} retry={() => void query.refetch()} />
      ) : query.data.non_answers.length === 0 ? (
        <p className="state empty">Nothing kept for this run.</p>
      ) : (
        <>
          <DataTable
            testId="non-answers-table"
            caption="Attempts the providers did not complete, oldest first"
            rows={query.data.non_answers}
            rowKey={(n) => n.id}
            columns={[
              { key: 'created_at', label: 'When', render: (n) => formatDateTime(n.created_at) },
              { key: 'outcome', label: 'Outcome', render: (n) => <Badge tone={n.outcome === 'quota_exhausted' ? 'failed' : 'neutral'}>{OUTCOME_LABEL[n.outcome]}</Badge> },
              { key: 'target', label: 'Target', render: (n) => `${n.provider ?? '?'} · ${n.model ?? n.model_served ?? 'target removed'}` },
              { key: 'prompt', label: 'Prompt', render: (n) => n.prompt ?? '(prompt deleted)' },
              { key: 'reason', label: "Provider's reason", render: (n) => <code>{n.reason}</code> },
              { key: 'attempt', label: 'Attempt', numeric: true, render: (n) => formatCount(n.attempt + 1) },
              {
                key: 'raw',
                label: '',
                render: (n) =>
                  n.has_raw ? (
                    <button type="button" aria-pressed={raw === n.id} onClick={() => setRaw(raw === n.id ? null : n.id)}>
                      JSON
                    </button>
                  ) : null,
              },
            ]}
          />
          {query.data.pagination.total_pages > 1 && (
            <nav className="pager" aria-label="Pages of non-answers">
              <button type="button" disabled={!query.data.pagination.has_prev} onClick={() => setPage(page - 1)}>
                ← Previous
              </button>
              <span>
                Page {page} of {query.data.pagination.total_pages} · {formatCount(query.data.pagination.total_items)} items
              </span>
              <button type="button" disabled={!query.data.pagination.has_next} onClick={() => setPage(page + 1)}>
                Next →
              </button>
            </nav>
          )}
          {raw && <RawJson runId={run.id} nonAnswerId={raw} />}
        </>
      )}
    </section>
  )
}

/** The provider's JSON of one non-answer, fetched only when asked for (it can be large). */
function RawJson({ runId, nonAnswerId }: { runId: string; nonAnswerId: string }) {
  const query = useApi<NonAnswerDetail>(`/collection/runs/${runId}/non-answers/${nonAnswerId}`)
  if (query.isPending) return <Loading />
  if (query.isError) return <ErrorBox error={query.error} />
  return (
    <figure className="raw-json" data-testid="non-answer-raw">
      <figcaption>
        What {query.data.provider ?? 'the provider'} sent ({query.data.reason})
      </figcaption>
      <pre>{JSON.stringify(query.data.raw, null, 2)}</pre>
    </figure>
  )
}
