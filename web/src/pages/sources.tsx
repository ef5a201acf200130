import type { Pagination, Source, UrlRow } from '../lib/api'
import { formatCount, formatDateTime, formatScore } from '../lib/format'
import { withExtra } from '../lib/params'
import { useApi } from '../lib/session'
import { useFilters, usePage } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { BarsChart, TrendChart } from '../components/charts'
import { FilterBar } from '../components/filter-bar'
import { Badge, DataTable, Pager, QueryView, Section } from '../components/ui'

const PER_PAGE = 20

export default function Sources() {
  const filters = useFilters()
  const page = usePage()
  const urlPage = usePage('upage')
  const params = apiParams(filters)
  const sources = useApi<{ sources: Source[]; pagination: Pagination }>('/sources', withExtra(params, { page, per_page: PER_PAGE }))
  const urls = useApi<{ urls: UrlRow[]; pagination: Pagination }>('/urls-detailed', withExtra(params, { page: urlPage, per_page: PER_PAGE }))
  return (
    <>
      <h1>Sources and URLs</h1>
      <FilterBar />
      <QueryView query={sources} empty={(d) => d.pagination.total_items === 0}>
        {(data) => {
          const top = data.sources.slice(0, 5)
          const days = top[0]?.daily_chart.map((d) => d.date) ?? []
          const rows = days.map((date, i) => Object.fromEntries([['date', date], ...top.map((s) => [s.domain, s.daily_chart[i]?.count ?? 0])]))
          const types = new Map<string, number>()
          for (const s of data.sources) types.set(s.source_type, (types.get(s.source_type) ?? 0) + s.citation_count)
          return (
            <>
              <div className="grid two">
                <Section title="Citations per day">
                  <TrendChart
                    rows={rows}
                    series={top.map((s) => ({ key: s.domain, label: s.domain }))}
                    label="Daily citations of the five most cited domains on this page"
                    format={formatCount}
                    integer
                    testId="chart-sources"
                  />
                </Section>
                <Section title="Source types">
                  <BarsChart
                    rows={[...types].map(([name, value]) => ({ name, value })).sort((a, b) => b.value - a.value)}
                    label="Citations by source type (domains on this page)"
                    valueLabel="Citations (this page)"
                    format={formatCount}
                    testId="chart-source-types"
                  />
                </Section>
              </div>
              <Section title="Cited domains">
                <DataTable
                  testId="sources-table"
                  caption="Cited domains, most cited first"
                  rows={data.sources}
                  rowKey={(s) => s.domain}
                  columns={[
                    { key: 'domain', label: 'Domain', sort: (s) => s.domain, render: (s) => s.domain },
                    { key: 'source_type', label: 'Type', sort: (s) => s.source_type, render: (s) => <Badge tone={s.source_type}>{s.source_type}</Badge> },
                    { key: 'citation_count', label: 'Citations', numeric: true, sort: (s) => s.citation_count, render: (s) => formatCount(s.citation_count) },
                    { key: 'authority_score', label: 'Authority', numeric: true, sort: (s) => s.authority_score, render: (s) => formatScore(s.authority_score) },
                    { key: 'usage_percentage', label: 'Usage %', numeric: true, sort: (s) => s.usage_percentage, render: (s) => formatScore(s.usage_percentage) },
                    { key: 'last_cited', label: 'Last cited', sort: (s) => s.last_cited, render: (s) => formatDateTime(s.last_cited) },
                  ]}
                />
                <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
              </Section>
            </>
          )
        }}
      </QueryView>
      <QueryView query={urls} empty={(d) => d.pagination.total_items === 0}>
        {(data) => (
          <Section title="Cited URLs">
            <DataTable
              testId="urls-table"
              caption="Cited URLs, most cited first"
              rows={data.urls}
              rowKey={(u) => u.url}
              columns={[
                {
                  key: 'url',
                  label: 'Page',
                  sort: (u) => u.title || u.url,
                  render: (u) => (
                    <a href={u.url} target="_blank" rel="noopener noreferrer nofollow">
                      {u.title || u.url}
                    </a>
                  ),
                },
                { key: 'domain', label: 'Domain', sort: (u) => u.domain, render: (u) => u.domain },
                { key: 'citation_count', label: 'Citations', numeric: true, sort: (u) => u.citation_count, render: (u) => formatCount(u.citation_count) },
                { key: 'providers', label: 'Cited by', render: (u) => (u.providers_citing ?? []).join(', ') },
                { key: 'last_cited', label: 'Last cited', sort: (u) => u.last_cited, render: (u) => formatDateTime(u.last_cited) },
              ]}
            />
            <Pager page={urlPage} perPage={PER_PAGE} total={data.pagination.total_items} param="upage" />
          </Section>
        )}
      </QueryView>
    </>
  )
}
