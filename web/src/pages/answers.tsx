import type { Pagination, ResponseDetail, ResponsePreview } from '../lib/api'
import { formatCount, formatDateTime, formatSentiment } from '../lib/format'
import { withExtra } from '../lib/params'
import { useApi } from '../lib/session'
import { useFilters, usePage } from '../lib/use-filters'
import { apiParams } from '../lib/url-state'
import { FilterBar } from '../components/filter-bar'
import { AnswerMarkdown } from '../components/answer-markdown'
import { Badge, DataTable, Link, Pager, QueryView, Section } from '../components/ui'

const PER_PAGE = 20

export default function Answers({ id }: { id: string | null }) {
  return id ? <AnswerView id={id} /> : <AnswerList />
}

function AnswerList() {
  const page = usePage()
  const list = useApi<{ responses: ResponsePreview[]; pagination: Pagination }>('/responses', withExtra(apiParams(useFilters()), { page, per_page: PER_PAGE }))
  const search = window.location.search
  return (
    <>
      <h1>Answers</h1>
      <FilterBar />
      <QueryView query={list} empty={(d) => d.pagination.total_items === 0}>
        {(data) => (
          <Section title="Stored answers, newest first">
            <DataTable
              testId="answers-table"
              caption="Stored answers"
              rows={data.responses}
              rowKey={(r) => r.id}
              columns={[
                { key: 'created_at', label: 'When', sort: (r) => r.created_at, render: (r) => <Link to={`/answers/${r.id}${search}`}>{formatDateTime(r.created_at)}</Link> },
                { key: 'provider', label: 'Provider', sort: (r) => r.provider, render: (r) => r.provider },
                { key: 'model', label: 'Model', sort: (r) => r.model, render: (r) => r.model },
                { key: 'preview', label: 'Answer', render: (r) => <span className="preview">{r.content_preview || '(empty answer)'}</span> },
              ]}
            />
            <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
          </Section>
        )}
      </QueryView>
    </>
  )
}

function AnswerView({ id }: { id: string }) {
  const answer = useApi<ResponseDetail>(`/responses/${encodeURIComponent(id)}`)
  const search = window.location.search
  return (
    <>
      <p className="crumbs">
        <Link to={`/answers${search}`}>Answers</Link> /
      </p>
      <QueryView query={answer}>
        {(a) => (
          <>
            <h1>{a.prompt}</h1>
            <p className="period">
              {a.provider} · {a.model} · {formatDateTime(a.created_at)} · sentiment {formatSentiment(a.sentiment)} ·{' '}
              <Link to={`/prompts/${a.prompt_id}${search}`}>prompt details</Link>
            </p>
            <div className="grid answer">
              <Section title="Answer">
                <div className="answer-text" data-testid="answer-text">
                  {a.content ? <AnswerMarkdown content={a.content} mentions={a.mentions} /> : <em>The provider returned an empty answer.</em>}
                </div>
              </Section>
              <div>
                <Section title="Brands mentioned">
                  {a.mentions.length === 0 ? (
                    <p className="state empty">No tracked brand is named in this answer.</p>
                  ) : (
                    <DataTable
                      testId="answer-mentions"
                      caption="Brands named in this answer"
                      rows={a.mentions}
                      rowKey={(m) => m.brand_id}
                      columns={[
                        {
                          key: 'name',
                          label: 'Brand',
                          render: (m) => (
                            <span>
                              <span className={`swatch brand-${a.mentions.indexOf(m) % 10}`} aria-hidden="true" /> <Link to={`/brands/${m.brand_id}${search}`}>{m.name}</Link>
                            </span>
                          ),
                        },
                        { key: 'position', label: 'Position', numeric: true, sort: (m) => m.position, render: (m) => formatCount(m.position) },
                        { key: 'occurrences', label: 'Times named', numeric: true, sort: (m) => m.occurrences, render: (m) => formatCount(m.occurrences) },
                        { key: 'sentiment', label: 'Sentiment', numeric: true, sort: (m) => m.sentiment ?? 0, render: (m) => formatSentiment(m.sentiment) },
                      ]}
                    />
                  )}
                </Section>
                <Section title="Citations">
                  {a.citations.length === 0 ? (
                    <p className="state empty">This answer cites no sources.</p>
                  ) : (
                    <ul className="plain-list" data-testid="answer-citations">
                      {a.citations.map((c) => (
                        <li key={c.url}>
                          <Badge tone={c.source_type}>{c.source_type}</Badge>{' '}
                          <a href={c.url} target="_blank" rel="noopener noreferrer nofollow">
                            {c.title || c.url}
                          </a>{' '}
                          <span className="muted">{c.domain}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </Section>
                <Section title="What the engine searched">
                  {a.search_queries.length === 0 ? (
                    <p className="state empty">The engine reported no web searches for this answer.</p>
                  ) : (
                    <ol className="plain-list" data-testid="answer-searches">
                      {a.search_queries.map((q) => (
                        <li key={q}>{q}</li>
                      ))}
                    </ol>
                  )}
                  <p className="hint">
                    <Link to={`/searches${search}`}>What the engines searched for all prompts</Link>
                  </p>
                </Section>
              </div>
            </div>
          </>
        )}
      </QueryView>
    </>
  )
}
