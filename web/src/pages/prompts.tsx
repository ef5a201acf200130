import type { FilterValues, Pagination, PromptDetail, PromptRow } from '../lib/api'
import { formatCount, formatPosition, formatScore, formatSentiment } from '../lib/format'
import { withExtra } from '../lib/params'
import { navigate, useLocation } from '../lib/router'
import { useApi } from '../lib/session'
import { useFilters, usePage } from '../lib/use-filters'
import { apiParams, withParam } from '../lib/url-state'
import { BarsChart, TrendChart } from '../components/charts'
import { FilterBar } from '../components/filter-bar'
import { Badge, Change, DataTable, Link, Loading, Pager, QueryView, RateWithInterval, Section, Stat } from '../components/ui'

const PER_PAGE = 20

export default function Prompts({ id }: { id: string | null }) {
  return id ? <PromptView id={id} /> : <PromptList />
}

function PromptList() {
  const filters = useFilters()
  const page = usePage()
  const { pathname, search } = useLocation()
  const values = useApi<FilterValues>('/filters')
  const brandId = new URLSearchParams(search).get('brand') ?? values.data?.brands.find((b) => b.is_primary)?.id ?? values.data?.brands[0]?.id
  const list = useApi<{ prompts: PromptRow[]; pagination: Pagination }>(brandId ? '/prompts' : null, withExtra(apiParams(filters), { brand_id: brandId, page, per_page: PER_PAGE }))
  if (values.isPending) return <Loading />
  return (
    <>
      <h1>Prompts</h1>
      <FilterBar />
      <label className="inline">
        Performance of brand{' '}
        <select value={brandId ?? ''} onChange={(e) => navigate(pathname + withParam(withParam(search, 'brand', e.target.value), 'page', null))}>
          {values.data?.brands.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      <QueryView query={list} empty={(d) => d.pagination.total_items === 0}>
        {(data) => (
          <Section title="Prompt performance" actions={<Link to="/settings/prompts">Manage prompts</Link>}>
            <DataTable
              testId="prompts-table"
              caption="Prompts and the chosen brand's visibility in their answers"
              rows={data.prompts}
              rowKey={(p) => p.id}
              columns={[
                { key: 'text', label: 'Prompt', sort: (p) => p.text.toLowerCase(), render: (p) => <Link to={`/prompts/${p.id}${search}`}>{p.text}</Link> },
                { key: 'tags', label: 'Tags', render: (p) => p.tags.map((t) => <Badge key={t}>{t}</Badge>) },
                { key: 'active', label: 'Active', render: (p) => (p.is_active ? 'yes' : 'no') },
                { key: 'responses', label: 'Answers', numeric: true, sort: (p) => p.performance.response_count, render: (p) => formatCount(p.performance.response_count) },
                { key: 'visibility', label: 'Visibility', numeric: true, sort: (p) => p.performance.avg_visibility, render: (p) => formatScore(p.performance.avg_visibility) },
              ]}
            />
            <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
          </Section>
        )}
      </QueryView>
    </>
  )
}

function PromptView({ id }: { id: string }) {
  const detail = useApi<PromptDetail>(`/prompts/${encodeURIComponent(id)}`, apiParams(useFilters()))
  const search = window.location.search
  return (
    <>
      <p className="crumbs">
        <Link to={`/prompts${search}`}>Prompts</Link> /
      </p>
      <QueryView query={detail}>
        {(d) => {
          const brandNames = d.brands.map((b) => b.name)
          return (
            <>
              <h1>{d.prompt.text}</h1>
              <p>
                {d.prompt.tags.map((t) => (
                  <Badge key={t}>{t}</Badge>
                ))}{' '}
                {!d.prompt.is_active && <Badge tone="muted">inactive</Badge>}
              </p>
              <FilterBar />
              <div className="stats">
                <Stat label="Answers" value={formatCount(d.metrics.response_count)} change={d.change.response_count} metric="count" />
                <Stat label="Answers naming a brand" value={formatCount(d.metrics.responses_with_mentions)} change={d.change.responses_with_mentions} metric="count" />
                <Stat label="Brands named" value={formatCount(d.metrics.brands_mentioned)} />
                <Stat label="Sentiment" value={formatSentiment(d.metrics.avg_sentiment)} change={d.change.avg_sentiment} metric="sentiment" />
              </div>
              <Section title="Brands in these answers">
                <DataTable
                  testId="prompt-brands"
                  caption="Each brand's metrics in the answers to this prompt"
                  rows={d.brands}
                  rowKey={(b) => b.brand_id}
                  columns={[
                    { key: 'name', label: 'Brand', sort: (b) => b.name.toLowerCase(), render: (b) => <Link to={`/brands/${b.brand_id}${search}`}>{b.name}</Link> },
                    {
                      key: 'visibility_score',
                      label: 'Visibility',
                      numeric: true,
                      sort: (b) => b.visibility_score,
                      render: (b) => <RateWithInterval value={b.visibility_score} interval={b.visibility_ci} />,
                    },
                    {
                      key: 'visibility_change',
                      label: 'Change',
                      numeric: true,
                      sort: (b) => b.visibility_change.delta,
                      render: (b) => <Change metric="score" value={b.visibility_change.delta} test={b.visibility_change} />,
                    },
                    { key: 'share_of_voice', label: 'Share of voice', numeric: true, sort: (b) => b.share_of_voice, render: (b) => formatScore(b.share_of_voice) },
                    { key: 'sentiment_avg', label: 'Sentiment', numeric: true, sort: (b) => b.sentiment_avg, render: (b) => formatSentiment(b.sentiment_avg) },
                    { key: 'position_avg', label: 'Avg. position', numeric: true, sort: (b) => b.position_avg, render: (b) => formatPosition(b.position_avg) },
                    { key: 'mention_count', label: 'Mentions', numeric: true, sort: (b) => b.mention_count, render: (b) => formatCount(b.mention_count) },
                  ]}
                />
              </Section>
              <div className="grid two">
                <Section title="Answers per day">
                  <TrendChart
                    rows={d.daily_trend.map((t) => ({ date: t.date, answers: t.response_count }))}
                    series={[{ key: 'answers', label: 'Answers' }]}
                    label="Answers to this prompt per day"
                    format={formatCount}
                    integer
                  />
                </Section>
                <Section title="Visibility by provider">
                  <DataTable
                    caption="Visibility per provider of the leading brands"
                    rows={d.by_provider}
                    rowKey={(p) => p.provider}
                    columns={[
                      { key: 'provider', label: 'Provider', render: (p) => p.provider },
                      { key: 'answers', label: 'Answers', numeric: true, sort: (p) => p.response_count, render: (p) => formatCount(p.response_count) },
                      ...brandNames.slice(0, 4).map((n) => ({
                        key: n,
                        label: n,
                        numeric: true,
                        sort: (p: PromptDetail['by_provider'][number]) => p.brands[n] ?? 0,
                        render: (p: PromptDetail['by_provider'][number]) => formatScore(p.brands[n]),
                      })),
                    ]}
                  />
                </Section>
              </div>
              <Section title="Top sources">
                <BarsChart rows={d.top_sources.map((s) => ({ name: s.domain, value: s.citation_count }))} label="Most cited domains" valueLabel="Citations" format={formatCount} />
              </Section>
              <p>
                <Change metric="count" value={d.change.response_count} /> answers vs {d.previous_period.start} to {d.previous_period.end}
              </p>
            </>
          )
        }}
      </QueryView>
    </>
  )
}
