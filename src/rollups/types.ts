// The shape of a rollup family declaration (see README.md). A family is one aggregate of
// the facts kept in one or two tables (by day and by calendar month) or, for the day-set
// and numbering tables, in one table without a time bucket.
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { CalendarUnit } from '../core/date-range.js'

/**
 * How two rows with the same key combine. `sum`, `min`, `max` as the words say; `union`
 * adds datemultiranges (`+`); `keep` keeps the value first written (numbering tables).
 */
export type MergeRule = 'sum' | 'min' | 'max' | 'union' | 'keep'

/**
 * The read filters a family can be asked to apply. `range` is the period (every family has
 * a time dimension or a day set); the others are the analytics filters and read scopes.
 */
export type FilterName = 'range' | 'providers' | 'modelIds' | 'tags' | 'promptId' | 'domains' | 'urls'

/** Which facts a family is computed from; the mention families can be retracted. */
export type FactTable = 'response' | 'mention' | 'citation'

/** Where a family's select reads: the whole workspace, or the facts of some responses. */
export interface RollupScope {
  workspaceId: string
  /** Only the facts of these responses (a just-ingested or re-analysed batch). */
  responseIds?: readonly string[]
}

/** What a declaration's select gets: the scope's facts, for its FROM and WHERE. */
export interface ScopeSql {
  workspaceId: string
  /**
   * A fact table as `alias` in FROM: the whole table, or for a batch one probe of its primary
   * key per response id (see scopeSql: the plan must not depend on what the planner's
   * statistics say about the workspace). Join other tables after it; a second fact table of
   * the same responses is a second `facts` joined on the response id.
   */
  facts(table: FactTable, alias: string): RawBuilder<unknown>
  /**
   * `join table as alias on …` for a table read by key beside the facts (prompt,
   * workspace_url): a join for a rebuild; for a batch, one probe per fact row (a lateral
   * subquery with `offset 0`). Under row-level security the policy names the workspace
   * through a setting the planner evaluates, so a workspace the statistics do not know made
   * the joined table look like one row, and the plan scanned it first and probed the
   * batch's facts again for each of its rows: a new workspace's URLs times its batch.
   */
  lookup(table: 'prompt' | 'workspace_url', alias: string, on: RawBuilder<SqlBool>): RawBuilder<unknown>
  /**
   * `alias.workspace_id = …`: every select's WHERE has it. For a batch it is `true`: the
   * probes already hold the workspace, and a constant here would reach the joined tables
   * (prompt, workspace_url) with the workspace's estimate.
   */
  on(alias: string): RawBuilder<SqlBool>
}

/**
 * Calendar quarters and years of a calendar family, folded from its days as the month is
 * (each measure's merge rule): a long range reads one row per URL for a whole year instead
 * of twelve (src/queries/rollup-conditions.ts, calendarRollupRows).
 */
export interface CoarserTiers {
  quarter?: string
  year?: string
}

/** The time buckets of calendar families, finest first; each is a column of its table. */
export type Bucket = 'day' | CalendarUnit

export interface RollupFamily<Name extends string = string> {
  name: Name
  /**
   * The tables kept: `day` and/or `month` for calendar families (a month-only family is a
   * coarser grain read for whole months beside another family's days), optionally `quarter`
   * and `year` beside them, `none` for the others.
   */
  tables: (({ day: string; month?: string } | { day?: undefined; month: string }) & CoarserTiers) | { none: string }
  /** Key columns besides workspace_id and the time bucket, in primary-key order. */
  dimensions: readonly string[]
  /** Measure columns and how rows with the same key merge. */
  measures: Readonly<Record<string, MergeRule>>
  /** Filters a read of this family may carry (allow-list; anything else reads the facts). */
  serves: readonly FilterName[]
  facts: FactTable
  /**
   * Rebuild adds missing rows instead of replacing them: the table hands out numbers
   * (workspace_url ids) that other rollups store.
   */
  stableIds?: boolean
  /**
   * The select keeps few of the rows it reads (a day set's distinct pairs and days; the
   * brands × domains of mention × citation pairs): a rebuild lets the planner hash its
   * aggregates, which it does not for the others, whose groups are nearly as many as their
   * facts (engine.ts, REBUILD_SETTINGS).
   */
  fewGroups?: boolean
  /**
   * One `SELECT … FROM facts … GROUP BY grain` for the scope, with columns named as the
   * table's: workspace_id, `day` (calendar families), the dimensions, the measures.
   */
  select(scope: ScopeSql): RawBuilder<unknown>
  /**
   * Set by `defineFold`: this family's rows are `foldOf`'s summed over the dimensions it
   * drops. A batch that maintains both sums the rows the source just read instead of reading
   * the facts again.
   */
  foldOf?: RollupFamily
}

const RESPONSE_COLUMN: Record<FactTable, string> = { response: 'id', mention: 'response_id', citation: 'response_id' }

/**
 * A batch reads its facts by one probe of the table's primary key per response id: mention
 * (workspace_id, response_id, brand_id), citation (workspace_id, response_id, url), response
 * (workspace_id, id). The probe is a lateral subquery (`offset 0` keeps the planner from
 * flattening it into a scan of the workspace's facts joined to the id list) whose workspace
 * is an uncorrelated subselect, not a constant, so that the planner estimates it from the
 * column's number of distinct workspaces and never from the workspace's own statistics. With
 * the constant, a workspace created after the last ANALYZE of the fact tables was estimated
 * at one row: every index leading with workspace_id then looked as good as the key, the
 * smallest one won, and each probe read all of the workspace's facts (75 s for one statement
 * of a 500-response batch of a workspace of 83,000 citations; README, "Beyond one server").
 * PGlite, which has no statistics, plans the same probe.
 */
export function scopeSql(scope: RollupScope): ScopeSql {
  const { workspaceId, responseIds } = scope
  if (responseIds === undefined) {
    return {
      workspaceId,
      facts: (table, alias) => sql`${sql.table(table)} as ${sql.ref(alias)}`,
      lookup: (table, alias, on) => sql`join ${sql.table(table)} as ${sql.ref(alias)} on ${on}`,
      on: (alias) => sql<SqlBool>`${sql.ref(`${alias}.workspace_id`)} = ${workspaceId}`,
    }
  }
  return {
    workspaceId,
    facts(table, alias) {
      const ids = `${alias}_scope`
      return sql`(unnest(${responseIds}::uuid[]) as ${sql.ref(ids)}(id)
        cross join lateral (
          select * from ${sql.table(table)} f
          where f.workspace_id = (select ${workspaceId}::uuid) and ${sql.ref(`f.${RESPONSE_COLUMN[table]}`)} = ${sql.ref(`${ids}.id`)}
          offset 0) as ${sql.ref(alias)})`
    },
    lookup: (table, alias, on) => sql`cross join lateral (select * from ${sql.table(table)} as ${sql.ref(alias)} where ${on} offset 0) as ${sql.ref(alias)}`,
    on: () => sql<SqlBool>`true`,
  }
}

/** The UTC day of a fact's created_at, as every calendar family buckets it. */
export const utcDay = (alias: string) => sql`(${sql.ref(`${alias}.created_at`)} at time zone 'UTC')::date`

export function defineFamily<const Name extends string>(family: RollupFamily<Name>): RollupFamily<Name> {
  return family
}

/**
 * A coarser grain of a calendar family whose measures are all sums: the same rows summed
 * over the dimensions left out (exact, since sums are associative). Its select folds the
 * source's; the engine folds the source's batch rows directly when it maintains both.
 */
export function defineFold<const Name extends string>(fold: {
  name: Name
  source: RollupFamily
  tables: RollupFamily['tables']
  dimensions: readonly string[]
  serves: readonly FilterName[]
}): RollupFamily<Name> {
  const { source } = fold
  const measures = Object.keys(source.measures)
  if (Object.values(source.measures).some((rule) => rule !== 'sum')) throw new Error(`rollup family ${fold.name}: ${source.name} has a measure that is not a sum`)
  const missing = fold.dimensions.filter((d) => !source.dimensions.includes(d))
  if (missing.length) throw new Error(`rollup family ${fold.name}: ${source.name} has no dimension ${missing.join(', ')}`)
  return {
    name: fold.name,
    tables: fold.tables,
    dimensions: fold.dimensions,
    measures: source.measures,
    serves: fold.serves,
    facts: source.facts,
    foldOf: source,
    select: (scope) => foldRows(source.select(scope), fold.dimensions, measures),
  }
}

/** Day rows summed to a coarser set of dimensions (workspace_id and day kept). */
export function foldRows(rows: RawBuilder<unknown>, dimensions: readonly string[], measures: readonly string[]): RawBuilder<unknown> {
  const keys = ['workspace_id', 'day', ...dimensions].map((c) => sql.ref(`f.${c}`))
  return sql`select ${sql.join([...keys, ...measures.map((m) => sql`sum(${sql.ref(`f.${m}`)}) as ${sql.ref(m)}`)])}
    from (${rows}) f group by ${sql.join(keys)}`
}
