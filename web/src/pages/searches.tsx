// "What the engines searched" (query fan-out, docs/collection.md): the web searches the AI
// engines ran themselves for the workspace's prompts, most frequent first. Filters come from
// the URL like every page; `?prompt=<id>` narrows to one prompt template.
import type { Pagination, SearchQueryRow } from '../lib/api'
import { formatCount, formatDateTime } from '../lib/format'
import { withExtra } from '../lib/params'
import { useLocation } from '../lib/router'
import { useApi } from '../lib/session'
import { useFilters, usePage } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { FilterBar } from '../components/filter-bar'
import { DataTable, Link, Pager, QueryView, Section } from '../components/ui'

const PER_PAGE = 20

export default function Searches() {
  const filters = useFilters()
  const page = usePage()
  const { search } = useLocation()
  const prompt = new URLSearchParams(search).get('prompt')
  const list = useApi<{ search_queries: SearchQueryRow[]; pagination: Pagination }>(
    '/search-queries',
    withExtra(apiParams(filters), { page, per_page: PER_PAGE, prompt_template_id: prompt }),
  )
  return (
    <>
      <h1>What the engines searched</h1>
      <p className="hint">
        The web searches the AI engines ran themselves while answering your prompts (query fan-out): the pages that rank for these searches are the ones the engines read.
      </p>
      <FilterBar />
      {prompt && (
        <p className="period">
          One prompt only · <Link to={`/prompts/${prompt}${search}`}>prompt details</Link>
        </p>
      )}
      <QueryView query={list} empty={(d) => d.pagination.total_items === 0}>
        {(data) => (
          <Section title="Searches, most frequent first">
            <DataTable
              testId="searches-table"
              caption="Web searches the engines ran, by answers that ran them"
              rows={data.search_queries}
              rowKey={(q) => q.query}
              columns={[
                { key: 'query', label: 'Search', sort: (q) => q.query, render: (q) => q.query },
                { key: 'count', label: 'Answers', numeric: true, sort: (q) => q.count, render: (q) => formatCount(q.count) },
                { key: 'prompts', label: 'Prompts', numeric: true, sort: (q) => q.prompts, render: (q) => formatCount(q.prompts) },
                { key: 'providers', label: 'Searched by', render: (q) => q.providers.map((p) => `${p.provider} (${formatCount(p.count)})`).join(', ') },
                { key: 'first_seen', label: 'First seen', sort: (q) => q.first_seen, render: (q) => formatDateTime(q.first_seen) },
                { key: 'last_seen', label: 'Last seen', sort: (q) => q.last_seen, render: (q) => formatDateTime(q.last_seen) },
              ]}
            />
            <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
          </Section>
        )}
      </QueryView>
    </>
  )
}
