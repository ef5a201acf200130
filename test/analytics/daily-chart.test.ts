import { describe, expect, it } from 'vitest'
import { chartsFromSeries, zeroFilledCharts } from '../../src/queries/sources/daily-chart.js'

describe('zeroFilledCharts', () => {
  it('gives every key every day of the range, with the rows’ counts and zeros elsewhere', () => {
    const charts = zeroFilledCharts(
      { start: '2026-02-27', end: '2026-03-02' },
      ['a.com', 'b.com', 'c.com'],
      [
        { key: 'a.com', day: '2026-02-27', count: 3 },
        { key: 'a.com', day: '2026-03-02', count: 1 },
        { key: 'b.com', day: '2026-03-01', count: 7 },
        // Rows outside the keys or the range are not charted.
        { key: 'z.com', day: '2026-03-01', count: 9 },
        { key: 'a.com', day: '2026-03-03', count: 9 },
      ],
    )
    expect([...charts.keys()]).toEqual(['a.com', 'b.com', 'c.com'])
    expect(charts.get('a.com')).toEqual([
      { date: '2026-02-27', count: 3 },
      { date: '2026-02-28', count: 0 },
      { date: '2026-03-01', count: 0 },
      { date: '2026-03-02', count: 1 },
    ])
    expect(charts.get('b.com')?.map((point) => point.count)).toEqual([0, 0, 7, 0])
    expect(charts.get('c.com')?.map((point) => point.count)).toEqual([0, 0, 0, 0])
  })
})

describe('chartsFromSeries', () => {
  it('places each count at its day offset, zeros elsewhere, for every key asked for', () => {
    const charts = chartsFromSeries(
      { start: '2026-02-27', end: '2026-03-02' },
      ['a.com', 'b.com', 'c.com'],
      new Map([
        ['a.com', { offsets: [3, 0], counts: [1, 3] }],
        // No rows: both arrays null, as array_agg gives them.
        ['b.com', { offsets: null, counts: null }],
        ['z.com', { offsets: [1], counts: [9] }],
      ]),
    )
    expect([...charts.keys()]).toEqual(['a.com', 'b.com', 'c.com'])
    expect(charts.get('a.com')).toEqual([
      { date: '2026-02-27', count: 3 },
      { date: '2026-02-28', count: 0 },
      { date: '2026-03-01', count: 0 },
      { date: '2026-03-02', count: 1 },
    ])
    expect(charts.get('b.com')?.map((point) => point.count)).toEqual([0, 0, 0, 0])
    expect(charts.get('c.com')?.map((point) => point.count)).toEqual([0, 0, 0, 0])
  })
})
