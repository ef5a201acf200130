import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { addDays, eachDay, splitIntoMonths } from '../../src/core/date-range.js'

describe('splitIntoMonths', () => {
  it('splits a year into whole months and the loose days at each end', () => {
    expect(splitIntoMonths({ start: '2025-11-22', end: '2026-11-21' })).toEqual({
      months: { first: '2025-12-01', last: '2026-10-01' },
      days: [
        { start: '2025-11-22', end: '2025-11-30', month: '2025-11-01' },
        { start: '2026-11-01', end: '2026-11-21', month: '2026-11-01' },
      ],
    })
  })

  it('keeps a range inside one month as days', () => {
    expect(splitIntoMonths({ start: '2026-02-03', end: '2026-02-27' })).toEqual({ months: null, days: [{ start: '2026-02-03', end: '2026-02-27', month: '2026-02-01' }] })
  })

  it('takes a whole month exactly, leap February included', () => {
    expect(splitIntoMonths({ start: '2028-02-01', end: '2028-02-29' })).toEqual({ months: { first: '2028-02-01', last: '2028-02-01' }, days: [] })
    expect(splitIntoMonths({ start: '2026-02-01', end: '2026-02-27' })).toEqual({ months: null, days: [{ start: '2026-02-01', end: '2026-02-27', month: '2026-02-01' }] })
  })

  it('splits loose days at month boundaries, so each run can stand in for its month', () => {
    expect(splitIntoMonths({ start: '2026-10-27', end: '2026-11-25' })).toEqual({
      months: null,
      days: [
        { start: '2026-10-27', end: '2026-10-31', month: '2026-10-01' },
        { start: '2026-11-01', end: '2026-11-25', month: '2026-11-01' },
      ],
    })
  })

  it('covers every day of any range exactly once', () => {
    const day = fc.integer({ min: 0, max: 1500 }).map((n) => addDays('2024-01-01', n))
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 800 }), (start, length) => {
        const range = { start, end: addDays(start, length) }
        const split = splitIntoMonths(range)
        const covered: string[] = []
        if (split.months) {
          for (let m = split.months.first; m <= split.months.last;) {
            const first = m
            const next = new Date(`${m}T00:00:00Z`)
            next.setUTCMonth(next.getUTCMonth() + 1)
            m = next.toISOString().slice(0, 10)
            covered.push(...eachDay({ start: first, end: addDays(m, -1) }))
          }
        }
        for (const run of split.days) {
          // Every run lies inside the month it names.
          expect(run.start.slice(0, 7)).toBe(run.month.slice(0, 7))
          expect(run.end.slice(0, 7)).toBe(run.month.slice(0, 7))
          expect(run.month.endsWith('-01')).toBe(true)
          covered.push(...eachDay({ start: run.start, end: run.end }))
        }
        expect(covered.sort()).toEqual(eachDay(range))
      }),
    )
  })
})

describe('eachDay', () => {
  it('lists every day from start to end, inclusive, across month, year and leap-day boundaries', () => {
    expect(eachDay({ start: '2028-02-27', end: '2028-03-01' })).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01'])
    expect(eachDay({ start: '2026-12-31', end: '2027-01-01' })).toEqual(['2026-12-31', '2027-01-01'])
    expect(eachDay({ start: '2026-05-02', end: '2026-05-01' })).toEqual([])
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 400 }), (offset, length) => {
        const start = addDays('2024-01-01', offset)
        const days = eachDay({ start, end: addDays(start, length) })
        expect(days).toHaveLength(length + 1)
        days.forEach((day, i) => expect(day).toBe(addDays(start, i)))
      }),
      { numRuns: 50 },
    )
  })
})
