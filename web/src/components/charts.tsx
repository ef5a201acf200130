// Charts: every one has a legend and a tooltip, and a text alternative for screen readers.
import { formatCount } from '../lib/format'
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

// Distinguishable on white and for common colour-vision deficiencies (Okabe–Ito based).
export const PALETTE = ['#0b6bcb', '#d55e00', '#009e73', '#9c4dcc', '#b8860b', '#cc3366', '#00838f', '#555555', '#6a8d00', '#8b4513']

export interface Series {
  key: string
  label: string
}

/** Lines over days: `rows` are `{date, [series.key]: number}`. */
export function TrendChart({
  rows,
  series,
  label,
  format,
  testId,
  height = 280,
  integer = false,
}: {
  rows: Record<string, number | string>[]
  series: Series[]
  label: string
  format: (v: number) => string
  testId?: string
  height?: number
  /** counts: whole-number axis ticks */
  integer?: boolean
}) {
  return (
    <figure className="chart" data-testid={testId} aria-label={label}>
      <ResponsiveContainer width="100%" height={height}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#e3e6ea" vertical={false} />
          <XAxis dataKey="date" tick={{ fontSize: 12 }} minTickGap={24} />
          <YAxis tick={{ fontSize: 12 }} width={48} allowDecimals={!integer} tickFormatter={(v: number) => format(v)} />
          <Tooltip formatter={(value) => format(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          {series.map((s, i) => (
            <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={PALETTE[i % PALETTE.length]} strokeWidth={2} dot={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="sr-only">{label}</figcaption>
    </figure>
  )
}

/** Horizontal bars, one per row. */
export function BarsChart({
  rows,
  label,
  valueLabel,
  format,
  testId,
  height,
}: {
  rows: { name: string; value: number }[]
  label: string
  valueLabel: string
  format: (v: number) => string
  testId?: string
  height?: number
}) {
  return (
    <figure className="chart" data-testid={testId} aria-label={label}>
      <ResponsiveContainer width="100%" height={height ?? Math.max(120, rows.length * 32 + 40)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="#e3e6ea" horizontal={false} />
          <XAxis type="number" tick={{ fontSize: 12 }} allowDecimals={format !== formatCount} tickFormatter={(v: number) => format(v)} />
          <YAxis type="category" dataKey="name" tick={{ fontSize: 12 }} width={110} />
          <Tooltip formatter={(value) => format(Number(value))} />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Bar dataKey="value" name={valueLabel} fill={PALETTE[0]} isAnimationActive={false}>
            {rows.map((row, i) => (
              <Cell key={row.name} fill={PALETTE[i % PALETTE.length]} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
      <figcaption className="sr-only">{label}</figcaption>
    </figure>
  )
}
