import { describe, expect, it } from 'vitest'
import {
  changeTone,
  changeVerdict,
  describeVerdict,
  formatInterval,
  testedTone,
  formatChange,
  formatCount,
  formatDateTime,
  formatMegabytes,
  formatPosition,
  formatRatioPercent,
  formatScore,
  formatSentiment,
  parseDisplayed,
} from '../../web/src/lib/format.js'

describe('dashboard number formatting (as the API rounds)', () => {
  it('shows scores and percentages with the 2 decimals the API keeps, grouped', () => {
    expect(formatScore(58.6)).toBe('58.60')
    expect(formatScore(100)).toBe('100.00')
    expect(formatScore(0)).toBe('0.00')
    expect(formatScore(1234.5)).toBe('1,234.50')
  })

  it('shows sentiment with 3 decimals and positions with 2', () => {
    expect(formatSentiment(0.227)).toBe('0.227')
    expect(formatSentiment(-0.05)).toBe('-0.050')
    expect(formatPosition(1.9)).toBe('1.90')
  })

  it('shows counts whole and grouped', () => {
    expect(formatCount(12037)).toBe('12,037')
    expect(formatCount(0)).toBe('0')
  })

  it('turns a 4-decimal ratio into a 2-decimal percentage without rounding drift', () => {
    expect(formatRatioPercent(0.6465)).toBe('64.65%')
    expect(formatRatioPercent(0.0001)).toBe('0.01%')
    expect(formatRatioPercent(1)).toBe('100.00%')
    // 0.5789 * 100 is 57.889999… in binary floating point
    expect(formatRatioPercent(0.5789)).toBe('57.89%')
  })

  it('marks missing values instead of printing NaN or 0', () => {
    for (const f of [formatScore, formatSentiment, formatPosition, formatCount, formatRatioPercent]) {
      expect(f(null)).toBe('–')
      expect(f(undefined)).toBe('–')
      expect(f(Number.NaN)).toBe('–')
    }
  })

  it('signs changes and says whether they are good news (a lower position is better)', () => {
    expect(formatChange('score', 4.61)).toBe('+4.61')
    expect(formatChange('position', -0.12)).toBe('-0.12')
    expect(formatChange('count', 315)).toBe('+315')
    expect(formatChange('sentiment', 0)).toBe('0.000')
    expect(changeTone('score', 4.61)).toBe('up')
    expect(changeTone('score', -1)).toBe('down')
    expect(changeTone('position', -0.12)).toBe('up')
    expect(changeTone('position', 0.5)).toBe('down')
    expect(changeTone('count', 0)).toBe('flat')
  })

  it('prints times in UTC and sizes in MB', () => {
    expect(formatDateTime('2026-11-25T19:50:28.042Z')).toBe('2026-11-25 19:50 UTC')
    expect(formatDateTime('nonsense')).toBe('–')
    expect(formatMegabytes(3.498622)).toBe('3.5 MB')
    expect(formatMegabytes(0.020518)).toBe('0.021 MB')
  })

  it('reads back what it printed', () => {
    for (const value of [58.6, 0.227, 12037, 1.91, -0.05]) {
      expect(parseDisplayed(formatScore(value))).toBeCloseTo(value, 2)
    }
    expect(parseDisplayed('12,037')).toBe(12037)
    expect(parseDisplayed('64.65%')).toBe(64.65)
    expect(parseDisplayed('–')).toBeNull()
  })

  it('shows an interval on the rate’s own scale, and marks a missing one', () => {
    expect(formatInterval({ low: 51.58, high: 52.26 })).toBe('51.58–52.26')
    expect(formatInterval({ low: 0.0512, high: 0.0934 }, formatRatioPercent)).toBe('5.12%–9.34%')
    expect(formatInterval(null)).toBe('–')
  })

  it('colours a change only when the test calls it significant, and says so in words', () => {
    // The 1M benchmark workspace's primary brand: +0.06 with p = 0.82 is noise, not good news.
    const noise = { delta: 0.06, p_value: 0.82, significant: false }
    expect(changeVerdict(noise)).toBe('noise')
    expect(testedTone('score', 0.06, noise)).toBe('flat')
    expect(describeVerdict(noise)).toBe('within noise (p = 0.82)')
    const real = { delta: -4.2, p_value: 0.0004, significant: true }
    expect(testedTone('score', -4.2, real)).toBe('down')
    expect(testedTone('position', -0.5, real)).toBe('up')
    expect(describeVerdict(real)).toBe('significant (p < 0.001)')
    const small = { delta: 1, p_value: 0.0123, significant: true }
    expect(describeVerdict(small)).toBe('significant (p = 0.012)')
    const few = { delta: 12, p_value: 0.3, significant: null }
    expect(changeVerdict(few)).toBe('untested')
    expect(testedTone('score', 12, few)).toBe('flat')
    expect(describeVerdict(few)).toBe('too few answers to test')
    // Without a test nothing is coloured.
    expect(testedTone('count', 315, undefined)).toBe('flat')
  })
})
