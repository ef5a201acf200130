// The rows of a per-prompt rollup kept by day and by month (migration 0025) that sum to a
// range, with a month the range covers only in part read as the month minus the days it
// leaves out when those are fewer than the days it covers. GET /prompts/{id}'s 30 days
// usually span two months: the previous period of a range ending today covered about 28
// days of last month, whose rest held answers, so calendarRollupRows read it day by day
// (brands x providers x 28 days, 1,424 mention rows at 10M against 680 at 1M); month minus
// three days reads four days' worth (the busiest prompt at 1M: 705 rows became 177, and
// the whole rollup statement read 971 rows instead of 1,499). Exact for sums (every measure of these families is a
// sum): a key whose parts cancel out sums to zero and is dropped by the reader's HAVING,
// as the facts never produce it. Days after today, or without answers, have no rows and cost
// an index probe.
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import { coverRange, type DateRange } from '../../core/date-range.js'
import { noResponses } from '../rollup-conditions.js'

/** One read of a cover: a run of whole months (first days) or of days, added or subtracted. */
export interface SignedPart {
  tier: 'month' | 'day'
  units: DateRange
  sign: 1 | -1
  /**
   * A partial month read by its days: the month and the days it leaves out. Its row holds
   * exactly those days when the workspace has no answer on the others (a range ending
   * today early in the month), which the reader tests as calendarRollupRows does.
   */
  month?: { unit: string; rest: DateRange[] }
}

/**
 * `range` as months and days: whole months by month; a partial month by its days when they
 * are no more than the days of the month it leaves out, else as the month minus those days.
 */
export function signedMonthCover(range: DateRange): SignedPart[] {
  const parts: SignedPart[] = []
  for (const part of coverRange(range, ['month', 'day'])) {
    if (!('rest' in part)) {
      parts.push({ tier: part.tier === 'day' ? 'day' : 'month', units: part.units, sign: 1 })
      continue
    }
    // A partial month: with days as the only finer tier, coverRange gives its covered days
    // as one part.
    const [finer] = part.finer
    if (!finer || 'rest' in finer) throw new Error('signedMonthCover: a partial month must be covered by one run of days')
    const covered = finer.units
    const restDays = part.rest.reduce((n, run) => n + dayCount(run), 0)
    if (dayCount(covered) <= restDays) {
      parts.push({ tier: 'day', units: covered, sign: 1, month: { unit: part.unit, rest: part.rest } })
      continue
    }
    parts.push({ tier: 'month', units: { start: part.unit, end: part.unit }, sign: 1 })
    for (const run of part.rest) parts.push({ tier: 'day', units: run, sign: -1 })
  }
  return parts
}

const dayCount = (run: DateRange) => Math.round((Date.parse(run.end) - Date.parse(run.start)) / 86_400_000) + 1

/**
 * The cover as a subquery for FROM (alias it `s`): `keys` as they are, `measures` negated in
 * the subtracted parts. `where` gives one part's conditions on alias `s` for its date column
 * and units. The reader groups and keeps only keys whose sums are not zero.
 */
export function signedRollupRows(
  tables: { day: string; month: string },
  keys: readonly string[],
  measures: readonly string[],
  range: DateRange,
  workspaceId: string,
  where: (bucket: 'day' | 'month', units: DateRange) => RawBuilder<SqlBool>,
): RawBuilder<unknown> {
  const selects: RawBuilder<unknown>[] = []
  const read = (tier: 'day' | 'month', units: DateRange, sign: 1 | -1, guard?: RawBuilder<SqlBool>) => {
    const columns = [
      ...keys.map((key) => sql.ref(`s.${key}`)),
      ...measures.map((measure) => (sign === 1 ? sql.ref(`s.${measure}`) : sql`-${sql.ref(`s.${measure}`)} as ${sql.ref(measure)}`)),
    ]
    const conditions = guard ? sql`${where(tier, units)} and ${guard}` : where(tier, units)
    selects.push(sql`select ${sql.join(columns)} from ${sql.table(tables[tier])} s where ${conditions}`)
  }
  for (const part of signedMonthCover(range)) {
    if (!part.month) {
      read(part.tier, part.units, part.sign)
      continue
    }
    // PostgreSQL evaluates the uncorrelated test once and runs one of the two reads.
    const restEmpty = noResponses(workspaceId, part.month.rest)
    read('month', { start: part.month.unit, end: part.month.unit }, 1, restEmpty)
    read('day', part.units, 1, sql<SqlBool>`not ${restEmpty}`)
  }
  return sql`(${sql.join(selects, sql` union all `)})`
}
