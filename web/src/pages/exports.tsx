import { useState } from 'react'
import { download, type ExportStatistics } from '../lib/api'
import { formatCount, formatDateTime, formatMegabytes } from '../lib/format'
import { useApi, useSession } from '../lib/session'
import { useFilters } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { FilterBar } from '../components/filter-bar'
import { ErrorBox, QueryView, Section } from '../components/ui'

const EXPORTS = [
  ['chat-responses', 'Chat responses', 'Every stored answer with its prompt, provider, model and text'],
  ['sources-citations', 'Sources and citations', 'Every citation with its domain and source type'],
  ['dashboard-graph', 'Dashboard graph', 'Daily metrics per brand'],
  ['prompts-mentions', 'Prompts and mentions', 'Each brand mention per prompt and answer'],
] as const

export default function Exports() {
  return (
    <>
      <h1>Exports</h1>
      <FilterBar models={false} />
      <p className="hint">Exports need a key with the export:data scope on a Premium workspace. Each download counts towards the hourly export quota; the statistics do not.</p>
      <div className="grid two">
        {EXPORTS.map(([type, title, description]) => (
          <ExportCard key={type} type={type} title={title} description={description} />
        ))}
      </div>
    </>
  )
}

function ExportCard({ type, title, description }: { type: string; title: string; description: string }) {
  const { key } = useSession()
  const params = apiParams(useFilters(), 'export')
  const stats = useApi<ExportStatistics>(`/exports/${type}/statistics`, params)
  const [state, setState] = useState<{ busy: boolean; error: Error | null }>({ busy: false, error: null })
  const get = async (format: 'csv' | 'tsv') => {
    setState({ busy: true, error: null })
    const query = new URLSearchParams(params)
    if (format === 'tsv') query.set('excel_compatible', 'true')
    try {
      await download(key, `/exports/${type}`, query, `${type}.${format}`)
      setState({ busy: false, error: null })
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error : new Error(String(error)) })
    }
  }
  return (
    <Section title={title} id={`export-${type}`}>
      <p>{description}</p>
      <QueryView query={stats}>
        {(s) => (
          <dl className="facts" data-testid={`export-${type}`}>
            <dt>Rows</dt>
            <dd>{formatCount(s.total_rows)}</dd>
            <dt>Estimated size</dt>
            <dd>{formatMegabytes(s.estimated_size_mb)}</dd>
            <dt>Last updated</dt>
            <dd>{formatDateTime(s.last_updated)}</dd>
          </dl>
        )}
      </QueryView>
      <div className="actions">
        <button type="button" disabled={state.busy} onClick={() => void get('csv')}>
          Download CSV
        </button>
        {type !== 'sources-citations' && (
          <button type="button" disabled={state.busy} onClick={() => void get('tsv')}>
            Download for Excel
          </button>
        )}
      </div>
      {state.busy && <p role="status">Preparing the file…</p>}
      {state.error && <ErrorBox error={state.error} />}
    </Section>
  )
}
