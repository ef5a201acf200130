import { useState, type ReactNode } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ApiError } from '../lib/api'
import { linkHandler, navigate, useLocation } from '../lib/router'
import { changeVerdict, describeVerdict, formatChange, formatCount, formatInterval, formatScore, testedTone, type Metric } from '../lib/format'
import { withParam } from '../lib/url-state'

export function Link({ to, children, className, ...rest }: { to: string; children: ReactNode; className?: string; 'aria-current'?: 'page' }) {
  return (
    <a href={to} onClick={linkHandler(to)} className={className} {...rest}>
      {children}
    </a>
  )
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      {label}
    </p>
  )
}

export function ErrorBox({ error, retry }: { error: ApiError | Error; retry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <strong>Could not load this.</strong> {error.message}
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  )
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>
}

/** Loading, error, then the content for the data. */
export function QueryView<T>({ query, children, empty }: { query: UseQueryResult<T, ApiError>; children: (data: T) => ReactNode; empty?: (data: T) => boolean }) {
  if (query.isPending) return <Loading />
  if (query.isError) return <ErrorBox error={query.error} retry={() => void query.refetch()} />
  if (empty && empty(query.data)) return <Empty>Nothing in this period for these filters. Widen the dates or clear a filter.</Empty>
  return <>{children(query.data)}</>
}

export function Section({ title, children, actions, id }: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <section className="card" aria-labelledby={id ?? slug(title)}>
      <header className="card-head">
        <h2 id={id ?? slug(title)}>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  )
}

export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-')

/** A tested change between periods (docs/uncertainty-and-discovery.md). */
export interface TestedChange {
  p_value: number | null
  significant: boolean | null
}

export function Stat({
  label,
  value,
  change,
  metric,
  testId,
  interval,
  intervalFormat,
  test,
}: {
  label: string
  value: string
  change?: number | null
  metric?: Metric
  testId?: string
  /** the rate's Wilson 95% interval, on the value's scale */
  interval?: { low: number; high: number } | null
  /** how the interval's bounds print (default: a 0–100 score) */
  intervalFormat?: (value: number) => string
  /** the change's significance test; without one a change is shown but never coloured */
  test?: TestedChange | null
}) {
  return (
    <div className="stat" data-testid={testId}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {interval !== undefined && <IntervalNote interval={interval} format={intervalFormat} />}
      {change !== undefined && metric && <Change metric={metric} value={change} test={test} />}
    </div>
  )
}

/** "95% CI 51.58–52.26": the range the true rate is in, given the answers sampled. */
export function IntervalNote({ interval, format }: { interval: { low: number; high: number } | null; format?: (value: number) => string }) {
  return (
    <span className="ci" title="95% confidence interval: AI answers are samples, so the true rate lies in this range (Wilson interval)">
      95% CI <span className="ci-range">{formatInterval(interval, format)}</span>
    </span>
  )
}

/** A rate in a table cell with its interval under it. */
export function RateWithInterval({
  value,
  interval,
  format = formatScore,
}: {
  value: number
  interval: { low: number; high: number } | null | undefined
  format?: (value: number) => string
}) {
  return (
    <>
      <span className="rate">{format(value)}</span>
      {interval !== undefined && <IntervalNote interval={interval} format={format} />}
    </>
  )
}

/**
 * A change vs the previous period. Coloured only when its test calls it significant; a change
 * within noise (or too small a sample to test, or not tested at all) stays neutral, and the
 * verdict is written beside it so colour is never the only signal.
 */
export function Change({ metric, value, test }: { metric: Metric; value: number | null | undefined; test?: TestedChange | null }) {
  const tone = testedTone(metric, value, test)
  const verdict = test === undefined ? null : changeVerdict(test)
  const words = test === undefined ? 'not tested for significance' : describeVerdict(test)
  return (
    <span className={`change ${tone}`} title={`Change vs the previous period of equal length: ${words}`} data-verdict={verdict ?? 'none'}>
      <span className="sr-only">{tone === 'up' ? 'better' : tone === 'down' ? 'worse' : 'no clear change'}: </span>
      {formatChange(metric, value)}
      {verdict && <span className={`verdict ${verdict}`}> {verdict === 'significant' ? 'significant' : verdict === 'noise' ? 'within noise' : 'too few answers'}</span>}
    </span>
  )
}

export interface Column<T> {
  key: string
  label: string
  /** sort value; absent: not sortable */
  sort?: (row: T) => number | string
  render: (row: T) => ReactNode
  numeric?: boolean
}

/**
 * A table sortable by its column headers (the rows of the page the route returned, which
 * keeps the route's own order until a header is chosen) and paged by the route.
 */
export function DataTable<T>({ columns, rows, rowKey, caption, testId }: { columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string; caption: string; testId?: string }) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 } | null>(null)
  const column = sort ? columns.find((c) => c.key === sort.key) : undefined
  const sorted =
    column?.sort && sort
      ? [...rows].sort((a, b) => {
          const x = column.sort!(a)
          const y = column.sort!(b)
          return (x < y ? -1 : x > y ? 1 : 0) * sort.dir
        })
      : rows
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key
              return (
                <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={active ? (sort!.dir === 1 ? 'ascending' : 'descending') : undefined}>
                  {c.sort ? (
                    <button type="button" className="sort" onClick={() => setSort(active && sort!.dir === -1 ? { key: c.key, dir: 1 } : { key: c.key, dir: active ? 1 : -1 })}>
                      {c.label}
                      <span aria-hidden="true">{active ? (sort!.dir === 1 ? ' ▲' : ' ▼') : ' ↕'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? 'num' : undefined} data-col={c.key}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Page controls for a paged route; the page number lives in the URL (`param`). */
export function Pager({ page, perPage, total, param = 'page' }: { page: number; perPage: number; total: number; param?: string }) {
  const { pathname, search } = useLocation()
  const pages = Math.max(1, Math.ceil(total / perPage))
  const go = (to: number) => navigate(pathname + withParam(search, param, to === 1 ? null : to))
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
        ← Previous
      </button>
      <span>
        Page {page} of {pages} · {formatCount(total)} items
      </span>
      <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next →
      </button>
    </nav>
  )
}

export function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: string }) {
  return <span className={`badge ${tone}`}>{children}</span>
}
