// Overview: visibility per brand over time, share of voice, sentiment, position, the change
// vs the previous period, top sources and recent answers, for the filters in the URL.
import { useEffect } from 'react'
import { useQueries } from '@tanstack/react-query'
import { navigate } from '../lib/router'
import { apiGet, type BrandDetail, type Dashboard, type FilterValues, type ResponsePreview, type Source } from '../lib/api'
import { formatCount, formatDateTime, formatPosition, formatScore, formatSentiment } from '../lib/format'
import { withExtra } from '../lib/params'
import { useApi, useSession } from '../lib/session'
import { useFilters } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { BarsChart, TrendChart } from '../components/charts'
import { FilterBar } from '../components/filter-bar'
import { Badge, Change, DataTable, Empty, Link, Loading, QueryView, RateWithInterval, Section, Stat } from '../components/ui'

export default function Overview() {
  const filters = useFilters()
  const params = apiParams(filters)
  const { key } = useSession()
  // include_uncertainty (Beacon's opt-in extension): each brand's interval and tested change, so
  // only significant changes are coloured (docs/uncertainty-and-discovery.md).
  const dashboard = useApi<Dashboard>('/dashboard', withExtra(params, { include_uncertainty: 'true' }))
  const values = useApi<FilterValues>('/filters')
  const brands = values.data?.brands ?? []
  const details = useQueries({
    queries: brands.map((b) => ({
      queryKey: [key.slice(-8), `/brands/${b.id}`, params.toString()],
      queryFn: () => apiGet<BrandDetail>(key, `/brands/${b.id}`, params),
    })),
  })
  const detailByName = new Map(details.filter((d) => d.data).map((d) => [d.data!.brand.name, d.data!]))
  const allDetails = brands.length > 0 && details.every((d) => d.data)
  const primary = brands.find((b) => b.is_primary)
  const primaryDetail = primary ? detailByName.get(primary.name) : undefined

  const trendRows = allDetails ? mergeTrends(details.map((d) => d.data!)) : []
  // A workspace with no brands yet opens on the guided start instead of empty charts.
  // Only on a fresh answer: a cached one from before the guided start added brands would loop back.
  const noBrands = values.data !== undefined && !values.isFetching && values.data.brands.length === 0
  useEffect(() => {
    if (noBrands) navigate('/start', { replace: true })
  }, [noBrands])
  return (
    <>
      <h1>Overview</h1>
      <FilterBar />
      <QueryView query={dashboard} empty={(d) => Object.keys(d.brands).length === 0}>
        {(data) => {
          const rows = Object.entries(data.brands).map(([name, m]) => ({ name, ...m, id: brands.find((b) => b.name === name)?.id, detail: detailByName.get(name) }))
          return (
            <>
              <p className="period">
                {data.date_range.start} to {data.date_range.end} (UTC)
              </p>
              <div className="stats">
                <Stat label="Mentions" value={formatCount(data.total_mentions)} testId="stat-mentions" />
                <Stat label="Cited sources" value={formatCount(data.total_sources)} testId="stat-sources" />
                {primary && data.brands[primary.name] && (
                  <Stat
                    label={`${primary.name} visibility`}
                    value={formatScore(data.brands[primary.name].visibility_score)}
                    interval={data.brands[primary.name].visibility_ci}
                    change={data.brands[primary.name].visibility_test?.delta}
                    test={data.brands[primary.name].visibility_test}
                    metric="score"
                    testId="stat-primary"
                  />
                )}
                {primaryDetail && (
                  <Stat
                    label={`${primary!.name} share of voice`}
                    value={formatScore(primaryDetail.metrics.share_of_voice)}
                    change={primaryDetail.change.share_of_voice}
                    metric="score"
                  />
                )}
              </div>
              <Section title="Visibility by brand">
                <BarsChart
                  rows={rows.map((r) => ({ name: r.name, value: r.visibility_score })).sort((a, b) => b.value - a.value)}
                  label="Visibility score per brand: percent of answers naming it"
                  valueLabel="Visibility score"
                  format={formatScore}
                  testId="chart-dashboard"
                  height={Math.max(160, rows.length * 26 + 40)}
                />
              </Section>
              <div className="grid two">
                <Section title="Visibility over time">
                  {allDetails ? (
                    <TrendChart
                      rows={trendRows}
                      series={brands.map((b) => ({ key: b.name, label: b.name }))}
                      label="Daily visibility score per brand"
                      format={formatScore}
                      testId="chart-visibility"
                    />
                  ) : details.some((d) => d.isError) ? (
                    <Empty>The brand trends could not be loaded.</Empty>
                  ) : (
                    <Loading />
                  )}
                </Section>
                <Section title="Share of voice">
                  {allDetails ? (
                    <BarsChart
                      rows={details.map((d) => ({ name: d.data!.brand.name, value: d.data!.metrics.share_of_voice })).sort((a, b) => b.value - a.value)}
                      label="Share of voice per brand, percent of all brand mentions"
                      valueLabel="Share of voice (%)"
                      format={formatScore}
                      testId="chart-sov"
                    />
                  ) : (
                    <Loading />
                  )}
                </Section>
              </div>
              <Section title="Brands">
                <DataTable
                  testId="dashboard-table"
                  caption="Brand metrics for the period"
                  rows={rows}
                  rowKey={(r) => r.name}
                  columns={[
                    {
                      key: 'name',
                      label: 'Brand',
                      sort: (r) => r.name.toLowerCase(),
                      render: (r) => (r.id ? <Link to={`/brands/${r.id}${window.location.search}`}>{r.name}</Link> : r.name),
                    },
                    {
                      key: 'visibility_score',
                      label: 'Visibility',
                      numeric: true,
                      sort: (r) => r.visibility_score,
                      render: (r) => <RateWithInterval value={r.visibility_score} interval={r.visibility_ci} />,
                    },
                    {
                      key: 'change',
                      label: 'Change',
                      numeric: true,
                      sort: (r) => r.visibility_test?.delta ?? 0,
                      render: (r) => (r.visibility_test ? <Change metric="score" value={r.visibility_test.delta} test={r.visibility_test} /> : '–'),
                    },
                    {
                      key: 'share_of_voice',
                      label: 'Share of voice',
                      numeric: true,
                      sort: (r) => r.detail?.metrics.share_of_voice ?? 0,
                      render: (r) => (r.detail ? formatScore(r.detail.metrics.share_of_voice) : '…'),
                    },
                    { key: 'sentiment_avg', label: 'Sentiment', numeric: true, sort: (r) => r.sentiment_avg, render: (r) => formatSentiment(r.sentiment_avg) },
                    { key: 'position_avg', label: 'Avg. position', numeric: true, sort: (r) => r.position_avg, render: (r) => formatPosition(r.position_avg) },
                    { key: 'mention_count', label: 'Mentions', numeric: true, sort: (r) => r.mention_count, render: (r) => formatCount(r.mention_count) },
                  ]}
                />
              </Section>
            </>
          )
        }}
      </QueryView>
      <div className="grid two">
        <TopSources />
        <RecentAnswers />
      </div>
    </>
  )
}

/** One row per day with each brand's visibility as a column. */
function mergeTrends(details: BrandDetail[]): Record<string, number | string>[] {
  const byDate = new Map<string, Record<string, number | string>>()
  for (const detail of details)
    for (const day of detail.daily_trend) {
      const row = byDate.get(day.date) ?? { date: day.date }
      row[detail.brand.name] = day.visibility_score
      byDate.set(day.date, row)
    }
  return [...byDate.values()].sort((a, b) => String(a.date).localeCompare(String(b.date)))
}

function TopSources() {
  const params = withExtra(apiParams(useFilters()), { per_page: 5 })
  const sources = useApi<{ sources: Source[] }>('/sources', params)
  return (
    <Section title="Top sources" actions={<Link to={`/sources${window.location.search}`}>All sources</Link>}>
      <QueryView query={sources} empty={(d) => d.sources.length === 0}>
        {(data) => (
          <ol className="plain-list">
            {data.sources.map((s) => (
              <li key={s.domain}>
                <span>{s.domain}</span> <Badge tone={s.source_type}>{s.source_type}</Badge> <span className="muted">{formatCount(s.citation_count)} citations</span>
              </li>
            ))}
          </ol>
        )}
      </QueryView>
    </Section>
  )
}

function RecentAnswers() {
  const params = withExtra(apiParams(useFilters()), { per_page: 5 })
  const responses = useApi<{ responses: ResponsePreview[] }>('/responses', params)
  return (
    <Section title="Recent answers" actions={<Link to={`/answers${window.location.search}`}>All answers</Link>}>
      <QueryView query={responses} empty={(d) => d.responses.length === 0}>
        {(data) => (
          <ul className="plain-list">
            {data.responses.map((r) => (
              <li key={r.id}>
                <Link to={`/answers/${r.id}${window.location.search}`}>
                  {r.provider} · {r.model} · {formatDateTime(r.created_at)}
                </Link>
                <p className="preview">{r.content_preview.slice(0, 140)}…</p>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Section>
  )
}
