import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { addDays, coverRange, eachDay, nextUnit, type CalendarUnit, type CoverPart } from '../../src/core/date-range.js'

type Tier = CalendarUnit | 'day'
const ALL: Tier[] = ['year', 'quarter', 'month', 'day']
const MONTHS: Tier[] = ['month', 'day']

/**
 * The days a cover reads, each partial unit either whole (`whole` says so: its rest is
 * taken to be empty, so it stands for the range's part of it) or through its finer cover.
 */
function daysRead(cover: readonly CoverPart[], whole: (unit: string) => boolean): string[] {
  return cover.flatMap((part) => {
    if ('units' in part) {
      if (part.tier === 'day') return eachDay(part.units)
      const tier = part.tier
      const days: string[] = []
      for (let unit = part.units.start; unit <= part.units.end; unit = nextUnit(unit, tier)) days.push(...eachDay({ start: unit, end: addDays(nextUnit(unit, tier), -1) }))
      return days
    }
    const tier = part.tier
    const unitDays = eachDay({ start: part.unit, end: addDays(nextUnit(part.unit, tier), -1) })
    const rest = new Set(part.rest.flatMap((run) => eachDay(run)))
    // The rest lies inside the unit and the finer cover is exactly the unit without it.
    expect(part.rest.flatMap((run) => eachDay(run)).every((day) => unitDays.includes(day))).toBe(true)
    expect(daysRead(part.finer, () => false)).toEqual(unitDays.filter((day) => !rest.has(day)))
    return whole(part.unit) ? unitDays.filter((day) => !rest.has(day)) : daysRead(part.finer, whole)
  })
}

describe('coverRange', () => {
  it('covers a year ending mid-month with years, quarters, months and loose days', () => {
    const cover = coverRange({ start: '2025-11-22', end: '2026-11-21' }, ALL)
    expect(cover.map((part) => ('units' in part ? [part.tier, part.units.start, part.units.end] : [part.tier, part.unit]))).toEqual([
      ['year', '2025-01-01'],
      ['year', '2026-01-01'],
    ])
    const [first, second] = cover as Extract<CoverPart, { unit: string }>[]
    expect(first.rest).toEqual([{ start: '2025-01-01', end: '2025-11-21' }])
    expect(second.rest).toEqual([{ start: '2026-11-22', end: '2026-12-31' }])
    // 2025: Nov 22-30 by day (or November whole), December by month (its quarter is partial).
    expect(first.finer).toEqual([
      {
        tier: 'quarter',
        unit: '2025-10-01',
        rest: [{ start: '2025-10-01', end: '2025-11-21' }],
        finer: [
          { tier: 'month', unit: '2025-11-01', rest: [{ start: '2025-11-01', end: '2025-11-21' }], finer: [{ tier: 'day', units: { start: '2025-11-22', end: '2025-11-30' } }] },
          { tier: 'month', units: { start: '2025-12-01', end: '2025-12-01' } },
        ],
      },
    ])
    // 2026: three whole quarters, then October whole and November's days.
    expect(second.finer.slice(0, 1)).toEqual([{ tier: 'quarter', units: { start: '2026-01-01', end: '2026-07-01' } }])
  })

  it('with months only, takes whole months and the loose days at each end', () => {
    expect(coverRange({ start: '2028-02-01', end: '2028-02-29' }, MONTHS)).toEqual([{ tier: 'month', units: { start: '2028-02-01', end: '2028-02-01' } }])
    expect(coverRange({ start: '2026-02-03', end: '2026-02-27' }, MONTHS)).toEqual([
      {
        tier: 'month',
        unit: '2026-02-01',
        rest: [
          { start: '2026-02-01', end: '2026-02-02' },
          { start: '2026-02-28', end: '2026-02-28' },
        ],
        finer: [{ tier: 'day', units: { start: '2026-02-03', end: '2026-02-27' } }],
      },
    ])
  })

  it('covers every day of any range exactly once, whichever way each partial unit is read', () => {
    const day = fc.integer({ min: 0, max: 1500 }).map((n) => addDays('2024-01-01', n))
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 800 }),
        fc.constantFrom(ALL, MONTHS, ['quarter', 'day'] as Tier[]),
        fc.integer({ min: 0, max: 7 }),
        (start, length, tiers, seed) => {
          const range = { start, end: addDays(start, length) }
          const whole = (unit: string) => (Number(unit.slice(5, 7)) + seed) % 2 === 0
          expect(daysRead(coverRange(range, tiers), whole).sort()).toEqual(eachDay(range))
        },
      ),
      { numRuns: 100 },
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
