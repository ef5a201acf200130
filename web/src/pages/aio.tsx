import type { AioMetrics } from '../lib/api'
import { formatCount, formatPosition, formatRatioPercent } from '../lib/format'
import { useApi } from '../lib/session'
import { useFilters } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { TrendChart } from '../components/charts'
import { FilterBar } from '../components/filter-bar'
import { DataTable, QueryView, RateWithInterval, Section, Stat } from '../components/ui'
import { withExtra } from '../lib/params'

export default function Aio() {
  // include_uncertainty: Beacon's extension adds each rate's 95% interval (docs/uncertainty-and-discovery.md).
  const metrics = useApi<AioMetrics>('/aio-metrics', withExtra(apiParams(useFilters(), 'aio'), { include_uncertainty: 'true' }))
  return (
    <>
      <h1>AI overviews</h1>
      <FilterBar providers={false} models={false} />
      <p className="hint">AI overviews come from one search engine, so the provider and model filters do not apply here.</p>
      <QueryView query={metrics} empty={(d) => d.total_queries === 0}>
        {(d) => (
          <>
            <div className="stats">
              <Stat
                label="Searches with an AI overview"
                value={formatRatioPercent(d.coverage_rate)}
                interval={d.coverage_rate_ci}
                intervalFormat={formatRatioPercent}
                testId="aio-coverage"
              />
              <Stat label="Searches observed" value={formatCount(d.total_queries)} />
              <Stat label="With an overview" value={formatCount(d.queries_with_aio)} />
            </div>
            <Section title="Coverage per day">
              <TrendChart
                rows={d.trend.map((t) => ({ date: t.date, coverage: Math.round(t.coverage_rate * 10000) / 100 }))}
                series={[{ key: 'coverage', label: 'Searches with an AI overview (%)' }]}
                label="Share of searches that showed an AI overview, per day"
                format={(v) => `${v}%`}
                testId="chart-aio"
              />
            </Section>
            <Section title="Brands in AI overviews">
              <DataTable
                testId="aio-table"
                caption="How often each brand appears in AI overviews"
                rows={Object.entries(d.brand_coverage).map(([name, c]) => ({ name, ...c }))}
                rowKey={(r) => r.name}
                columns={[
                  { key: 'name', label: 'Brand', sort: (r) => r.name.toLowerCase(), render: (r) => r.name },
                  {
                    key: 'appearance_rate',
                    label: 'Appears in',
                    numeric: true,
                    sort: (r) => r.appearance_rate,
                    render: (r) => <RateWithInterval value={r.appearance_rate} interval={r.appearance_rate_ci} format={formatRatioPercent} />,
                  },
                  { key: 'avg_position', label: 'Avg. position', numeric: true, sort: (r) => r.avg_position, render: (r) => formatPosition(r.avg_position) },
                  { key: 'total_appearances', label: 'Appearances', numeric: true, sort: (r) => r.total_appearances, render: (r) => formatCount(r.total_appearances) },
                ]}
              />
            </Section>
          </>
        )}
      </QueryView>
    </>
  )
}
