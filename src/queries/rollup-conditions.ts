// WHERE conditions for the daily rollups (migration 0003) and the distinct-domain count.
// The rollups carry every analytics filter column (day, provider, model, the prompt's
// tag set), so these conditions give exactly what the raw facts would.
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import { CALENDAR_UNITS, coverRange, type CoverPart, type DateRange } from '../core/date-range.js'
import type { AnalyticsFilters } from './analytics-filters.js'
import { family, rollupServes, type Bucket, type FamilyName } from '../rollups/index.js'

/** Conditions on a rollup table (daily or monthly: dateColumn says which) by alias. */
export function rollupConditions(
  alias: string,
  workspaceId: string,
  filters: Pick<AnalyticsFilters, 'range' | 'providers' | 'modelIds' | 'tags'>,
  dateColumn: Bucket = 'day',
): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`)
  const parts: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`,
    sql<SqlBool>`${col(dateColumn)} >= ${filters.range.start}::date`,
    sql<SqlBool>`${col(dateColumn)} <= ${filters.range.end}::date`,
  ]
  if (filters.providers.length) parts.push(sql<SqlBool>`${col('provider')} = any(${filters.providers}::text[])`)
  if (filters.modelIds.length) parts.push(sql<SqlBool>`${col('model')} = any(${filters.modelIds}::text[])`)
  // A tag set matches when it shares any tag with the filter (OR within the filter).
  if (filters.tags.length) parts.push(sql<SqlBool>`${col('tags')} && ${filters.tags}::text[]`)
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}

/** A calendar rollup's tables: days, whole months (the same grain or a coarser one), and quarters and years when the family keeps them. */
export interface CalendarTables {
  day: string
  month: string
  quarter?: string
  year?: string
}

/**
 * The tables of calendar families, as the registry declares them: the days of `days`, the
 * months (quarters, years) of `months` (by default the same family; a month-only fold for a
 * coarser grain).
 */
export function calendarTables(days: FamilyName, months: FamilyName = days): CalendarTables {
  const day = family(days).tables
  const month = family(months).tables
  if (!('day' in day && day.day) || !('month' in month && month.month)) throw new Error(`rollup families ${days}/${months} keep no days/months`)
  return { day: day.day, month: month.month, quarter: month.quarter, year: month.year }
}

/**
 * The rollup pair for these filters: the tag-free totals when they serve every active
 * filter, else the tag-set grain, whose whole months come without the model when no
 * models filter needs it (half the rows or fewer). All are exact; the totals are far
 * smaller. Filters none serves are a programming error (the dashboard has no path over
 * the facts).
 */
export function rollupTables(filters: Partial<AnalyticsFilters>): { responses: CalendarTables; brands: CalendarTables } {
  if (rollupServes(['response-totals', 'brand-totals'], filters)) {
    return { responses: calendarTables('response-totals'), brands: calendarTables('brand-totals') }
  }
  if (rollupServes(['response-stats', 'mention-stats', 'response-stats-by-provider', 'mention-stats-by-provider'], filters)) {
    return { responses: calendarTables('response-stats', 'response-stats-by-provider'), brands: calendarTables('mention-stats', 'mention-stats-by-provider') }
  }
  if (rollupServes(['response-stats', 'mention-stats'], filters)) {
    return { responses: calendarTables('response-stats'), brands: calendarTables('mention-stats') }
  }
  throw new Error('no rollup serves these filters; declare the filter in a rollup family (src/rollups) or read the facts')
}

/**
 * The rows of a rollup kept by day and by calendar month (migration 0008), and where the
 * family keeps them by quarter and year (0022), that cover `range`, as a subquery for
 * FROM: whole years, quarters and months from their tables, the loose days at either end
 * from the daily one. `where` gives one part's conditions on alias `s`, for its date column
 * and sub-range (first days of the units); `columns` are columns all the tables have. A
 * year reads about 30x fewer rows than by day; by year, one row per key.
 *
 * A year (quarter, month) the range covers only in part is read from its own table too
 * when the workspace has no response on its other days (the usual case at the end of a
 * range ending today, and at the start of the data): every fact (response, mention,
 * citation) lies on its response's day, so that row holds exactly the range's part of it.
 * Else the part is covered by the next finer tier. The test is a subquery of the same
 * statement (one snapshot) on the small daily response totals; PostgreSQL evaluates it
 * once and skips the branch it rules out (a one-time filter), so only one of the two reads runs.
 */
export function calendarRollupRows(
  tables: CalendarTables,
  columns: readonly string[],
  range: DateRange,
  workspaceId: string,
  where: (dateColumn: Bucket, range: DateRange) => RawBuilder<SqlBool>,
): RawBuilder<unknown> {
  const selected = sql.join(columns.map((column) => sql.ref(`s.${column}`)))
  // Coarsest first: the tiers this family keeps, then its days.
  const tiers = [...[...CALENDAR_UNITS].reverse().filter((unit) => tables[unit] !== undefined), 'day' as const]
  const parts: RawBuilder<unknown>[] = []
  const read = (tier: Bucket, units: DateRange, guards: readonly RawBuilder<SqlBool>[]) => {
    const table = tier === 'day' ? tables.day : (tables[tier] as string)
    parts.push(sql`select ${selected} from ${sql.table(table)} s where ${sql.join([where(tier, units), ...guards], sql` and `)}`)
  }
  const emit = (cover: readonly CoverPart[], guards: readonly RawBuilder<SqlBool>[]) => {
    for (const part of cover) {
      if ('units' in part) {
        read(part.tier, part.units, guards)
        continue
      }
      const restEmpty = noResponses(workspaceId, part.rest)
      read(part.tier, { start: part.unit, end: part.unit }, [...guards, restEmpty])
      emit(part.finer, [...guards, sql<SqlBool>`not ${restEmpty}`])
    }
  }
  emit(coverRange(range, tiers), [])
  return sql`(${sql.join(parts, sql` union all `)})`
}

/** True when the workspace has no response on any day of these runs. */
export function noResponses(workspaceId: string, runs: readonly DateRange[]): RawBuilder<SqlBool> {
  const tests = runs.map(
    (run) => sql<SqlBool>`not exists (select 1 from daily_response_totals t
        where t.workspace_id = ${workspaceId} and t.day >= ${run.start}::date and t.day <= ${run.end}::date)`,
  )
  return sql<SqlBool>`(${sql.join(tests, sql` and `)})`
}

/** The dashboard rollup rows (responses or brands) covering the filters; see calendarRollupRows. */
export function rollupRowsInRange(
  kind: 'responses' | 'brands',
  workspaceId: string,
  filters: Pick<AnalyticsFilters, 'range' | 'providers' | 'modelIds' | 'tags'>,
  columns: readonly string[],
): RawBuilder<unknown> {
  return calendarRollupRows(rollupTables(filters)[kind], columns, filters.range, workspaceId, (dateColumn, range) =>
    rollupConditions('s', workspaceId, { ...filters, range }, dateColumn),
  )
}

/**
 * The number of responses matching the filters, as a scalar subquery over the response
 * rollups (exact: every response counts once, on its day). The dashboard's total and the
 * /responses page's total_items; it does not grow with the facts as a count over them does.
 */
export function totalResponsesFromRollup(workspaceId: string, filters: Pick<AnalyticsFilters, 'range' | 'providers' | 'modelIds' | 'tags'>): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(s.responses), 0) from ${rollupRowsInRange('responses', workspaceId, filters, ['responses'])} s)`
}

/**
 * Distinct cited domains matching the filters, as a scalar subquery over the day sets of
 * cited domains (migrations 0007, 0023): per (domain, provider) for a date range with or
 * without providers (about a thousand rows), else per provider × model × single prompt tag
 * × domain, which serves models and tags too (at most domains × models × (tags + 1) rows,
 * however many citations there are). One overlap test per row either way. Filters neither
 * serves are a programming error, as in rollupTables.
 */
export function distinctDomainsFromRollup(workspaceId: string, filters: AnalyticsFilters): RawBuilder<number> {
  if (rollupServes('domain-provider-days', filters)) {
    const providers = filters.providers.length ? sql<SqlBool>`and p.provider = any(${filters.providers}::text[])` : sql``
    return sql<number>`(select count(distinct p.domain) from domain_provider_days p
      where p.workspace_id = ${workspaceId} and p.days && ${rangeOfDays(filters)} ${providers})`
  }
  if (rollupServes('domain-tag-days', filters)) {
    // rollupConditions' filter columns without its date columns: the days are a set here.
    const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`t.workspace_id = ${workspaceId}`, sql<SqlBool>`t.days && ${rangeOfDays(filters)}`]
    if (filters.providers.length) parts.push(sql<SqlBool>`t.provider = any(${filters.providers}::text[])`)
    if (filters.modelIds.length) parts.push(sql<SqlBool>`t.model = any(${filters.modelIds}::text[])`)
    // One tag per row ('' for an untagged prompt): a row matches the filter exactly when its
    // tag is one of the filter's, and the distinct count over those rows is exact. Text
    // equality is leakproof, so even under row-level security each tag is an index range on
    // the key (workspace_id, tag, …) instead of a test on every row of the workspace.
    if (filters.tags.length) parts.push(sql<SqlBool>`t.tag = any(${filters.tags}::text[])`)
    return sql<number>`(select count(distinct t.domain) from domain_tag_days t where ${sql.join(parts, sql` and `)})`
  }
  throw new Error('no rollup serves these filters for distinct domains; declare the filter in a rollup family (src/rollups) or read the facts')
}

/** The filters' range as a daterange, for overlap tests on datemultirange columns. */
export function rangeOfDays(filters: Pick<AnalyticsFilters, 'range'>): RawBuilder<unknown> {
  return sql`daterange(${filters.range.start}::date, ${filters.range.end}::date, '[]')`
}

/** Which path a read takes: the fast one where the filters allow it, or always the facts (tests compare them). */
export type ReadStrategy = 'auto' | 'facts'

/** Date-range conditions on a rollup's `day` (or `month`) column, by alias. */
export function dayConditions(alias: string, workspaceId: string, filters: Pick<AnalyticsFilters, 'range'>, dateColumn: Bucket = 'day'): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`)
  return sql<SqlBool>`(${col('workspace_id')} = ${workspaceId} and ${col(dateColumn)} >= ${filters.range.start}::date and ${col(dateColumn)} <= ${filters.range.end}::date)`
}
