import type { Brand, BrandDetail, Dashboard, Pagination } from '../lib/api'
import { formatCount, formatInterval, formatPosition, formatScore, formatSentiment } from '../lib/format'
import { useApi } from '../lib/session'
import { useFilters, usePage } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { withExtra } from '../lib/params'
import { BarsChart, TrendChart } from '../components/charts'
import { FilterBar } from '../components/filter-bar'
import { Badge, DataTable, Link, Pager, QueryView, RateWithInterval, Section, Stat } from '../components/ui'

const PER_PAGE = 20

export default function Brands({ id }: { id: string | null }) {
  return id ? <BrandView id={id} /> : <BrandList />
}

function BrandList() {
  const filters = useFilters()
  const page = usePage()
  const list = useApi<{ competitors: Brand[]; pagination: Pagination }>('/brands', new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) }))
  const dashboard = useApi<Dashboard>('/dashboard', withExtra(apiParams(filters), { include_uncertainty: 'true' }))
  const search = window.location.search
  return (
    <>
      <h1>Brands</h1>
      <FilterBar />
      <QueryView query={list} empty={(d) => d.pagination.total_items === 0}>
        {(data) => (
          <Section title="Tracked brands" actions={<Link to="/settings/brands">Manage brands</Link>}>
            <DataTable
              testId="brands-table"
              caption="Tracked brands"
              rows={data.competitors}
              rowKey={(b) => b.id}
              columns={[
                { key: 'name', label: 'Brand', sort: (b) => b.name.toLowerCase(), render: (b) => <Link to={`/brands/${b.id}${search}`}>{b.name}</Link> },
                { key: 'domain', label: 'Domain', sort: (b) => b.domain ?? '', render: (b) => b.domain ?? '–' },
                {
                  key: 'status',
                  label: 'Status',
                  render: (b) => (
                    <>
                      {b.is_primary && <Badge tone="owned">your brand</Badge>} {b.is_active ? <Badge>active</Badge> : <Badge tone="muted">inactive</Badge>}
                    </>
                  ),
                },
                {
                  key: 'visibility',
                  label: 'Visibility',
                  numeric: true,
                  sort: (b) => dashboard.data?.brands[b.name]?.visibility_score ?? -1,
                  render: (b) => {
                    const metrics = dashboard.data?.brands[b.name]
                    return metrics ? <RateWithInterval value={metrics.visibility_score} interval={metrics.visibility_ci} /> : '–'
                  },
                },
                {
                  key: 'mentions',
                  label: 'Mentions',
                  numeric: true,
                  sort: (b) => dashboard.data?.brands[b.name]?.mention_count ?? -1,
                  render: (b) => formatCount(dashboard.data?.brands[b.name]?.mention_count),
                },
              ]}
            />
            <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
          </Section>
        )}
      </QueryView>
    </>
  )
}

function BrandView({ id }: { id: string }) {
  const filters = useFilters()
  const detail = useApi<BrandDetail>(`/brands/${encodeURIComponent(id)}`, apiParams(filters))
  const search = window.location.search
  return (
    <>
      <p className="crumbs">
        <Link to={`/brands${search}`}>Brands</Link> /
      </p>
      <QueryView query={detail}>
        {(d) => (
          <>
            <h1>
              {d.brand.name} {d.brand.is_primary && <Badge tone="owned">your brand</Badge>}
            </h1>
            <FilterBar />
            <p className="period">
              {d.period.start} to {d.period.end}, compared with {d.previous_period.start} to {d.previous_period.end} (visibility then{' '}
              {formatScore(d.previous_period.metrics.visibility_score)}, 95% CI {formatInterval(d.previous_period.metrics.visibility_ci)}; {formatCount(d.metrics.responses)}{' '}
              answers now, {formatCount(d.previous_period.metrics.responses)} then)
            </p>
            <div className="stats" data-testid="brand-stats">
              <Stat
                label="Visibility"
                value={formatScore(d.metrics.visibility_score)}
                interval={d.metrics.visibility_ci}
                change={d.change.visibility_score}
                test={d.change.visibility_test}
                metric="score"
                testId="brand-visibility"
              />
              <Stat label="Share of voice" value={formatScore(d.metrics.share_of_voice)} change={d.change.share_of_voice} metric="score" testId="brand-sov" />
              <Stat label="Sentiment" value={formatSentiment(d.metrics.sentiment_avg)} change={d.change.sentiment_avg} metric="sentiment" testId="brand-sentiment" />
              <Stat label="Avg. position" value={formatPosition(d.metrics.position_avg)} change={d.change.position_avg} metric="position" testId="brand-position" />
              <Stat label="Mentions" value={formatCount(d.metrics.mention_count)} change={d.change.mention_count} metric="count" testId="brand-mentions" />
              <Stat label="Answers" value={formatCount(d.metrics.response_count)} testId="brand-responses" />
            </div>
            <div className="grid two">
              <Section title="Daily visibility">
                <TrendChart
                  rows={d.daily_trend.map((t) => ({ date: t.date, visibility: t.visibility_score, mentions: t.mention_count }))}
                  series={[{ key: 'visibility', label: 'Visibility score' }]}
                  label={`Daily visibility of ${d.brand.name}`}
                  format={formatScore}
                  testId="chart-brand-trend"
                />
              </Section>
              <Section title="By provider">
                <BarsChart
                  rows={d.by_provider.map((p) => ({ name: p.provider, value: p.visibility_score }))}
                  label="Visibility per provider"
                  valueLabel="Visibility score"
                  format={formatScore}
                  testId="chart-brand-providers"
                />
                <DataTable
                  testId="brand-providers"
                  caption="Visibility per provider with its 95% interval"
                  rows={d.by_provider}
                  rowKey={(p) => p.provider}
                  columns={[
                    { key: 'provider', label: 'Provider', render: (p) => p.provider },
                    {
                      key: 'visibility_score',
                      label: 'Visibility',
                      numeric: true,
                      sort: (p) => p.visibility_score,
                      render: (p) => <RateWithInterval value={p.visibility_score} interval={p.visibility_ci} />,
                    },
                    { key: 'response_count', label: 'Answers', numeric: true, sort: (p) => p.response_count, render: (p) => formatCount(p.response_count) },
                  ]}
                />
              </Section>
            </div>
            <div className="grid two">
              <Section title="Top prompts">
                <DataTable
                  caption="Prompts where this brand is most visible"
                  rows={d.top_prompts}
                  rowKey={(p) => p.prompt_id}
                  columns={[
                    { key: 'text', label: 'Prompt', render: (p) => <Link to={`/prompts/${p.prompt_id}${search}`}>{p.text}</Link> },
                    {
                      key: 'visibility_score',
                      label: 'Visibility',
                      numeric: true,
                      sort: (p) => p.visibility_score,
                      render: (p) => <RateWithInterval value={p.visibility_score} interval={p.visibility_ci} />,
                    },
                    { key: 'mention_count', label: 'Mentions', numeric: true, sort: (p) => p.mention_count, render: (p) => formatCount(p.mention_count) },
                  ]}
                />
              </Section>
              <Section title="Top sources">
                <DataTable
                  caption="Domains cited in answers naming this brand"
                  rows={d.top_sources}
                  rowKey={(s) => s.domain}
                  columns={[
                    { key: 'domain', label: 'Domain', render: (s) => s.domain },
                    { key: 'citation_count', label: 'Citations', numeric: true, sort: (s) => s.citation_count, render: (s) => formatCount(s.citation_count) },
                  ]}
                />
              </Section>
            </div>
          </>
        )}
      </QueryView>
    </>
  )
}
