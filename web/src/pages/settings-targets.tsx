// Collection targets (docs/collection.md): what Beacon asks, where and when. Answer targets
// (provider, model, native / OpenAI-compatible / demo) and AI-overview targets (a search API
// and a locale), each with samples, a schedule, a time zone and an optional stored key.
import type { CollectionTarget, Credential } from '../lib/api'
import { formatCount, formatDateTime } from '../lib/format'
import { useApi } from '../lib/session'
import { Badge, DataTable, QueryView, Section } from '../components/ui'
import { useAction } from '../components/settings-kit'
import { KeyOptions, TargetForm, targetLabel } from '../components/target-form'

// The guided start names the providers from here.
export { ANSWER_PROVIDERS } from '../components/target-form'

export default function TargetSettings() {
  const targets = useApi<CollectionTarget[]>('/collection/targets')
  const credentials = useApi<Credential[]>('/collection/credentials')
  const { run, status } = useAction()
  const stored = credentials.data ?? []
  return (
    <>
      {status}
      <QueryView query={targets}>
        {(rows) => (
          <Section title="Targets">
            {rows.length === 0 ? (
              <p className="state empty">No targets yet: add one below to start asking AI engines your prompts.</p>
            ) : (
              <DataTable
                testId="settings-targets"
                caption="Collection targets"
                rows={rows}
                rowKey={(t) => t.id}
                columns={[
                  { key: 'target', label: 'Target', sort: (t) => targetLabel(t), render: (t) => targetLabel(t) },
                  { key: 'api', label: 'How', render: (t) => (t.api === 'openai_compatible' ? `compatible · ${t.base_url ?? ''}` : (t.api ?? 'native')) },
                  { key: 'samples', label: 'Samples', numeric: true, render: (t) => formatCount(t.samples) },
                  { key: 'schedule', label: 'Schedule', render: (t) => `${t.schedule} (${t.timezone})` },
                  { key: 'next_run_at', label: 'Next run', render: (t) => (t.enabled && t.next_run_at ? formatDateTime(t.next_run_at) : '–') },
                  {
                    key: 'credential',
                    label: 'Key',
                    render: (t) =>
                      t.api === 'demo' ? (
                        'none needed'
                      ) : (
                        <select
                          aria-label={`Key for ${targetLabel(t)}`}
                          value={t.credential ?? ''}
                          onChange={(e) => void run('PATCH', `/collection/targets/${t.id}`, { credential: e.target.value || null }, 'change the key', 'Key changed.')}
                        >
                          <KeyOptions credentials={stored} />
                        </select>
                      ),
                  },
                  {
                    key: 'status',
                    label: 'Status',
                    render: (t) => (t.flagged ? <Badge tone="failed">{`stopped: ${t.flag_reason ?? 'check its key'}`}</Badge> : <Badge tone="succeeded">ok</Badge>),
                  },
                  {
                    key: 'enabled',
                    label: 'Enabled',
                    render: (t) => (
                      <button
                        type="button"
                        aria-pressed={t.enabled}
                        onClick={() =>
                          void run('PATCH', `/collection/targets/${t.id}`, { enabled: !t.enabled }, 'change the target', t.enabled ? 'Target paused.' : 'Target enabled.')
                        }
                      >
                        {t.enabled ? 'Enabled' : 'Paused'}
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
                        onClick={() =>
                          window.confirm(`Remove the target ${targetLabel(t)}? Its stored answers stay.`) &&
                          void run('DELETE', `/collection/targets/${t.id}`, undefined, 'remove the target', 'Target removed.')
                        }
                      >
                        Remove
                      </button>
                    ),
                  },
                ]}
              />
            )}
          </Section>
        )}
      </QueryView>
      <Section title="Add a target">
        <TargetForm credentials={stored} />
      </Section>
    </>
  )
}
