import { describe, expect, it } from 'vitest'
import { zeroFilledCharts } from '../../src/queries/sources/daily-chart.js'

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
