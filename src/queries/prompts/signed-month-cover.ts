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
import { addDays, nextUnit, unitStart, type DateRange } from '../../core/date-range.js'

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
  let whole: DateRange | undefined
  for (let month = unitStart(range.start, 'month'); month <= range.end; month = nextUnit(month, 'month')) {
    const monthEnd = addDays(nextUnit(month, 'month'), -1)
    const covered = { start: month < range.start ? range.start : month, end: monthEnd > range.end ? range.end : monthEnd }
    if (covered.start === month && covered.end === monthEnd) {
      // Consecutive whole months are one read.
      if (whole) whole.end = month
      else parts.push({ tier: 'month', units: (whole = { start: month, end: month }), sign: 1 })
      continue
    }
    whole = undefined
    const rest = [
      { start: month, end: addDays(covered.start, -1) },
      { start: addDays(covered.end, 1), end: monthEnd },
    ].filter((run) => run.start <= run.end)
    const days = (run: DateRange) => Math.round((Date.parse(run.end) - Date.parse(run.start)) / 86_400_000) + 1
    const restDays = rest.reduce((n, run) => n + days(run), 0)
    if (days(covered) <= restDays) {
      parts.push({ tier: 'day', units: covered, sign: 1, month: { unit: month, rest } })
      continue
    }
    parts.push({ tier: 'month', units: { start: month, end: month }, sign: 1 })
    for (const run of rest) parts.push({ tier: 'day', units: run, sign: -1 })
  }
  return parts
}

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

/** True when the workspace has no response on any day of these runs (daily_response_totals, migration 0003). */
function noResponses(workspaceId: string, runs: readonly DateRange[]): RawBuilder<SqlBool> {
  const tests = runs.map(
    (run) => sql<SqlBool>`not exists (select 1 from daily_response_totals t
        where t.workspace_id = ${workspaceId} and t.day >= ${run.start}::date and t.day <= ${run.end}::date)`,
  )
  return sql<SqlBool>`(${sql.join(tests, sql` and `)})`
}
