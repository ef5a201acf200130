// Derives every maintenance statement from the family declarations: incremental upserts
// (scope = a batch's responses), retraction of the mention families, rebuild of a
// workspace. A batch is two statements (URL numbering, then every other table), reading
// its facts by index ((workspace_id, id) for responses, (workspace_id, response_id, …) for
// mentions and citations); a rebuild is a statement per family and time bucket, writing each
// table's difference from the facts (or, into a table without the workspace's rows, its rows).
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.js'
import { CALENDAR_UNITS, type CalendarUnit } from '../core/date-range.js'
import { inTransaction } from '../db/tenant-scope.js'
import { bumpDataVersion } from '../db/data-version.js'
import { FAMILIES, family, isRetractable, type FamilyName } from './registry.js'
import { foldRows, scopeSql, type Bucket, type MergeRule, type RollupFamily, type RollupScope } from './types.js'

interface TablePlan {
  table: string
  bucket: Bucket | null
  /** Conflict target: workspace_id, the bucket column, the dimensions. */
  keys: string[]
  measures: [string, MergeRule][]
  /** This table's rows from the family's select (its rows at the day grain, or undivided). */
  fromSelect(rows: RawBuilder<unknown>): RawBuilder<unknown>
}

// Folding daily rows into months (quarters, years): the same merge rule, as an aggregate.
const AGGREGATE: Record<MergeRule, string> = { sum: 'sum', min: 'min', max: 'max', union: 'range_agg', keep: 'min' }

/**
 * A family's rows at one time bucket, folded from a finer bucket's rows (`rows`: a FROM item,
 * a subquery or a CTE's name): days to months, months to quarters, quarters to years, each
 * measure by its merge rule (exact: every rule is associative).
 */
function foldBucket(rows: RawBuilder<unknown>, from: Bucket, to: CalendarUnit, dims: readonly string[], measures: readonly [string, MergeRule][]): RawBuilder<unknown> {
  return sql`
    select d.workspace_id, date_trunc(${sql.lit(to)}, ${sql.ref(`d.${from}`)})::date as ${sql.ref(to)},
      ${sql.join([...dims.map((d) => sql.ref(`d.${d}`)), ...measures.map(([m, rule]) => sql`${sql.raw(AGGREGATE[rule])}(${sql.ref(`d.${m}`)}) as ${sql.ref(m)}`)])}
    from ${rows} d
    group by ${sql.join([sql.ref('d.workspace_id'), sql`2`, ...dims.map((d) => sql.ref(`d.${d}`))])}`
}

function plans(f: RollupFamily): TablePlan[] {
  const measures = Object.entries(f.measures)
  const dims = [...f.dimensions]
  const asIs = (rows: RawBuilder<unknown>) => rows
  if ('none' in f.tables) return [{ table: f.tables.none, bucket: null, keys: ['workspace_id', ...dims], measures, fromSelect: asIs }]
  const result: TablePlan[] = []
  if (f.tables.day) result.push({ table: f.tables.day, bucket: 'day', keys: ['workspace_id', 'day', ...dims], measures, fromSelect: asIs })
  // The buckets coarser than a day, each folded from the family's daily rows.
  for (const bucket of CALENDAR_UNITS) {
    const table = f.tables[bucket]
    if (!table) continue
    // The monthly (quarterly, yearly) table is the same select folded by calendar month
    // (quarter, year; UTC): exact, since every merge rule is associative.
    const folded = (rows: RawBuilder<unknown>) => foldBucket(sql`(${rows})`, 'day', bucket, dims, measures)
    result.push({ table, bucket, keys: ['workspace_id', bucket, ...dims], measures, fromSelect: folded })
  }
  return result
}

const PLANS = new Map<string, TablePlan[]>(FAMILIES.map((f) => [f.name, plans(f)]))
const plansOf = (f: RollupFamily) => PLANS.get(f.name) ?? plans(f)
const familySelect = (f: RollupFamily, scope: RollupScope) => f.select(scopeSql(scope))

const refs = (alias: string, columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(`${alias}.${c}`)))
const names = (columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(c)))

function mergeExpression(column: string, rule: MergeRule): RawBuilder<unknown> {
  const current = sql.ref(`s.${column}`)
  const incoming = sql.ref(`excluded.${column}`)
  switch (rule) {
    case 'sum':
    case 'union':
      return sql`${current} + ${incoming}`
    case 'min':
      return sql`least(${current}, ${incoming})`
    case 'max':
      return sql`greatest(${current}, ${incoming})`
    case 'keep':
      return current
  }
}

/**
 * Adds (sign 1) or subtracts (sign -1, sums only) the scope's rows. Rows are inserted in
 * key order so concurrent batches lock them in one order and cannot deadlock.
 */
function upsert(plan: TablePlan, rows: RawBuilder<unknown>, sign: 1 | -1): RawBuilder<unknown> {
  const measureNames = plan.measures.map(([m]) => m)
  const selected = [...plan.keys.map((k) => sql.ref(`d.${k}`)), ...measureNames.map((m) => (sign === 1 ? sql.ref(`d.${m}`) : sql`-${sql.ref(`d.${m}`)}`))]
  const updates = plan.measures.filter(([, rule]) => rule !== 'keep')
  // A day set already holding these days needs no new row version.
  const unionOnly = updates.length > 0 && updates.every(([, rule]) => rule === 'union')
  const onConflict =
    updates.length === 0
      ? sql`on conflict (${names(plan.keys)}) do nothing`
      : sql`on conflict (${names(plan.keys)}) do update set ${sql.join(updates.map(([m, rule]) => sql`${sql.ref(m)} = ${mergeExpression(m, rule)}`))}
          ${
            unionOnly
              ? sql`where not ${sql.join(
                  updates.map(([m]) => sql`s.${sql.ref(m)} @> excluded.${sql.ref(m)}`),
                  sql` and `,
                )}`
              : sql``
          }`
  return sql`
    insert into ${sql.table(plan.table)} as s (${names([...plan.keys, ...measureNames])})
    select ${sql.join(selected)} from (${plan.fromSelect(rows)}) d
    order by ${refs('d', plan.keys)}
    ${onConflict}`
}

/** After a subtraction: rows of the scope's keys whose every measure reached zero. */
function deleteEmptied(plan: TablePlan, rows: RawBuilder<unknown>): RawBuilder<unknown> {
  const matches = plan.keys.map((k) => sql`s.${sql.ref(k)} = d.${sql.ref(k)}`)
  const zero = plan.measures.map(([m]) => sql`s.${sql.ref(m)} = 0`)
  return sql`delete from ${sql.table(plan.table)} s using (${plan.fromSelect(rows)}) d where ${sql.join([...matches, ...zero], sql` and `)}`
}

/**
 * One statement that applies `write` to every table of these families: each family's
 * select runs once (a materialized CTE), probing the batch's facts by index, and feeds its
 * daily and monthly tables. The data-modifying CTEs run in the same order for every batch,
 * so row locks are taken in one order across tables too.
 */
function batchStatement(
  families: readonly RollupFamily[],
  rollupScope: RollupScope,
  write: (plan: TablePlan, rows: RawBuilder<unknown>) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  const scope = scopeSql(rollupScope)
  const ctes: RawBuilder<unknown>[] = []
  const writes: RawBuilder<unknown>[] = []
  families.forEach((f, i) => {
    const name = `rollup_rows_${i}`
    // A fold of a family maintained in this statement sums that family's rows.
    const source = f.foldOf ? families.indexOf(f.foldOf) : -1
    const rows = source >= 0 && source < i ? foldRows(sql`select * from ${sql.ref(`rollup_rows_${source}`)}`, f.dimensions, Object.keys(f.measures)) : f.select(scope)
    ctes.push(sql`${sql.ref(name)} as materialized (${rows})`)
    for (const plan of plansOf(f)) writes.push(write(plan, sql`select * from ${sql.ref(name)}`))
  })
  const last = writes.pop()!
  writes.forEach((statement, i) => ctes.push(sql`${sql.ref(`rollup_write_${i}`)} as (${statement})`))
  return sql`with ${sql.join(ctes)} ${last}`
}

// A batch's rollup statements run in chunks of this many responses. On the embedded database
// every statement runs on the event loop's thread: one mention-rollup statement over a whole
// ingest call of answers naming hundreds of brands took 90–190 ms, the worst /healthz of
// bench:heavy-tenants on PGlite (180–187 ms on a quiet machine; 112–132 ms with chunks of 50 at
// the same throughput; chunks of 25 cost throughput). The driver yields between statements
// (src/db/dialect.ts). Sums are commutative, so chunking changes no total; a retracted row is
// deleted only when every measure is zero, which it cannot be while another chunk's responses
// still count in it. Ids are made unique before chunking: a repeat in two chunks would count twice.
const ROLLUP_CHUNK = 50

function chunkScopes(workspaceId: string, responseIds: readonly string[]): Required<RollupScope>[] {
  // Each id is probed once: a repeated id would count its facts twice.
  const ids = [...new Set(responseIds)]
  const scopes: Required<RollupScope>[] = []
  for (let i = 0; i < ids.length; i += ROLLUP_CHUNK) scopes.push({ workspaceId, responseIds: ids.slice(i, i + ROLLUP_CHUNK) })
  return scopes
}

/** A batch's add statements, in order: numbering tables first (the next one reads their numbers), then the rest. */
function addStatements(families: readonly RollupFamily[], scope: Required<RollupScope>): RawBuilder<unknown>[] {
  const numbering = families.filter((f) => f.stableIds)
  const rest = families.filter((f) => !f.stableIds)
  return [numbering, rest].filter((group) => group.length > 0).map((group) => batchStatement(group, scope, (plan, rows) => upsert(plan, rows, 1)))
}

async function addBatch(db: DB, families: readonly RollupFamily[], scope: Required<RollupScope>): Promise<void> {
  for (const statement of addStatements(families, scope)) await statement.execute(db)
}

/**
 * The statements maintainRollups runs for these responses (for EXPLAIN in tests and
 * benchmarks: their plans must not depend on what the planner knows of the workspace).
 */
export function maintenanceStatements(workspaceId: string, responseIds: readonly string[]): RawBuilder<unknown>[] {
  return chunkScopes(workspaceId, responseIds).flatMap((scope) => addStatements(FAMILIES, scope))
}

/**
 * Adds just-inserted responses (with their mentions and citations) to every rollup. Call
 * inside the transaction that inserted them, after the facts.
 */
export async function maintainRollups(trx: DB, workspaceId: string, responseIds: readonly string[]): Promise<void> {
  for (const scope of chunkScopes(workspaceId, responseIds)) await addBatch(trx, FAMILIES, scope)
}

const MENTION_FAMILIES = FAMILIES.filter((f) => f.facts === 'mention')

/**
 * Subtracts these responses' mentions from the mention rollups and deletes rows that
 * reach zero. Call in the re-analysis transaction BEFORE deleting the old mentions.
 */
export async function retractMentionRollups(trx: DB, workspaceId: string, responseIds: readonly string[]): Promise<void> {
  if (responseIds.length === 0) return
  for (const f of MENTION_FAMILIES) {
    if (!isRetractable(f)) throw new Error(`rollup family ${f.name} has a measure that is not a sum; it cannot be retracted`)
  }
  for (const scope of chunkScopes(workspaceId, responseIds)) {
    // Subtract, then (next statement, which sees the result) delete the rows left at zero.
    await batchStatement(MENTION_FAMILIES, scope, (plan, rows) => upsert(plan, rows, -1)).execute(trx)
    await batchStatement(MENTION_FAMILIES, scope, deleteEmptied).execute(trx)
  }
}

/** Adds these responses' mentions to the mention rollups. Call AFTER inserting the new mentions. */
export async function addMentionRollups(trx: DB, workspaceId: string, responseIds: readonly string[]): Promise<void> {
  for (const scope of chunkScopes(workspaceId, responseIds)) await addBatch(trx, MENTION_FAMILIES, scope)
}

export interface RebuildOptions {
  /** Only these families (default: all). */
  families?: readonly FamilyName[]
  /** Called after each table is rebuilt (progress bars). */
  onTable?: (table: string) => void
  /**
   * ANALYZE the fact tables first if their statistics are missing or stale, and
   * workspace_url after numbering if that added many URLs (`beacon rollups rebuild`; see
   * analyzeIfStale). Off for the small rebuild of a prompt's tag edit.
   */
  analyze?: boolean
}

/**
 * ANALYZEs those of `tables` that were never analysed or have changed by more than a tenth
 * (plus 1,000 rows) since, and returns their names. A rebuild right after a bulk load (an
 * import, a restore, bench:data) otherwise plans from the size of the files alone: at 10M
 * responses the URL families then joined each URL to its citations through an index, a
 * heap page per citation, and ran for more than 40 minutes; with statistics 931 s (README,
 * "Beyond one server"). ANALYZE samples (seconds at 10M). A role that does not own a table
 * gets a warning, not an error, and the rebuild goes on.
 */
export async function analyzeIfStale(db: DB, tables: readonly string[] = ['response', 'mention', 'citation']): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name
    from unnest(${tables}::text[]) as t(name)
    join pg_class c on c.oid = to_regclass(t.name)
    left join pg_stat_user_tables s on s.relid = c.oid
    where c.reltuples < 0 or coalesce(s.n_mod_since_analyze, 0) > c.reltuples / 10 + 1000`.execute(db)
  for (const { name } of rows) await sql`analyze ${sql.table(name)}`.execute(db)
  return rows.map((r) => r.name)
}

/**
 * The key columns of each table's primary key, in the index's order (which need not be the
 * family's: daily_prompt_mention_stats leads with the prompt). A rebuild inserts its rows in
 * this order, so they fill the key's leaves one after the other as an index build does,
 * instead of each going to a random leaf (a page read, and after a checkpoint a whole page
 * in the WAL) once the index outgrows shared_buffers. Not shown to help at 1M responses: a
 * month of the mention families into empty tables took 17.7 s ordered, 18.6 s not, and full
 * bench:data rollup phases (203-296 s with it, 265-397 s without) moved with the machine's
 * load more than with the order; at 10M the largest rollup indexes are gigabytes. Measured
 * by parts at 300,000 responses (daily_mention_stats' 729,907 rows copied into a table with
 * its key): sorting them took 2.9 s and inserting them sorted 4.7 s, unsorted 7.3 s; without
 * the key 1.3 s (adding the key after: 5.1 s). Kept: the sort pays for itself while the index
 * is cached and saves page reads once it is not.
 */
async function primaryKeyOrder(db: DB, plans: readonly TablePlan[]): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ name: string; columns: string[] }>`
    select t.name, array_agg(a.attname::text order by k.position) as columns
    from unnest(${plans.map((p) => p.table)}::text[]) as t(name)
    join pg_index i on i.indrelid = to_regclass(t.name) and i.indisprimary
    cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where k.position <= i.indnkeyatts
    group by t.name`.execute(db)
  const known = new Map(plans.map((p) => [p.table, new Set([...p.keys, ...p.measures.map(([m]) => m)])]))
  // Only columns the rows have (an expression index would have attnum 0).
  return new Map(rows.filter((r) => r.columns.every((c) => known.get(r.name)?.has(c))).map((r) => [r.name, r.columns]))
}

/**
 * The settings of the rebuild's statements, restored after it (a rebuild may run inside the
 * caller's transaction: a prompt's tag edit). `jit`: compiling the expressions of the
 * mention group's statement took 9.7 s of its 144 s at 300,000 responses (inlining and
 * optimisation: EXPLAIN ANALYZE), and its aggregates are sorts, not expression evaluation.
 * `work_mem` and `enable_hashagg`: the grouping sorts (751,765 mentions for mention-stats at
 * 300,000 responses: 145 MB) and the hash full joins of replaceRows (the table's rows of the
 * workspace) fit in memory instead of external merges and 37-batch hashes, 19.2 s against
 * 22.5 s for mention-stats' statement in the same minute; the selects' aggregates stay sorts
 * (hash aggregation off per statement: selectAggregation), since with
 * this much memory the planner chose a hash aggregate of nearly as many groups as facts,
 * which took 18 s where the sort took 8 (src/rollups/README.md, Performance). At most this
 * much per sort or hash node, for the duration of one statement.
 */
const REBUILD_SETTINGS: Record<string, string> = { jit: 'off', work_mem: '256MB' }

/**
 * Hash aggregation stays as it was for families whose select keeps few of its rows
 * (`fewGroups`): with it off, domain_tag_days took 39.1 s against 11.6 and
 * domain_provider_days 11.6 against 2.6, daily_brand_domain_stats 11.0 against 9.6
 * (300,000 responses, the same run).
 */
const selectAggregation = (unit: readonly RollupFamily[]): Aggregation => (unit.some((f) => f.fewGroups) ? 'planner' : 'sort')

/**
 * How a rebuild statement aggregates: `sort` (hash aggregation off), as the planner chooses,
 * or `hash` (sorts off, so aggregates hash; the ordered inserts still sort, having no other
 * plan). A fold reads the finer table its previous statement has just filled, whose
 * statistics are those of before the rebuild (98 rows of daily_mention_stats' 596,875 at
 * 300,000 responses into emptied tables): planned as a few rows it was a sort, 3.7 s of
 * the monthly statement's 11 under EXPLAIN ANALYZE.
 */
type Aggregation = 'sort' | 'planner' | 'hash'
const AGGREGATION_SETTINGS: Record<Aggregation, (previous: (name: string) => string) => Record<string, string>> = {
  sort: (previous) => ({ enable_hashagg: 'off', enable_sort: previous('enable_sort') }),
  planner: (previous) => ({ enable_hashagg: previous('enable_hashagg'), enable_sort: previous('enable_sort') }),
  hash: () => ({ enable_hashagg: 'on', enable_sort: 'off' }),
}

/**
 * Runs `fn` under REBUILD_SETTINGS; `fn` sets enable_hashagg and enable_sort per statement
 * (AGGREGATION_SETTINGS). All of them are restored after.
 */
async function withRebuildSettings<T>(trx: DB, fn: (previous: (name: string) => string) => Promise<T>): Promise<T> {
  const names = [...Object.keys(REBUILD_SETTINGS), 'enable_hashagg', 'enable_sort']
  const { rows } = await sql<{ previous: string[] }>`
    select array_agg(current_setting(s.name) order by s.i) as previous
    from unnest(${names}::text[]) with ordinality as s(name, i)`.execute(trx)
  for (const [name, value] of Object.entries(REBUILD_SETTINGS)) await sql`select set_config(${name}, ${value}, true)`.execute(trx)
  const previous = (name: string) => rows[0].previous[names.indexOf(name)]
  const result = await fn(previous)
  for (const name of names) await sql`select set_config(${name}, ${previous(name)}, true)`.execute(trx)
  return result
}

/**
 * Makes a table's rows of the workspace equal `rows` (a FROM item's select, named as the
 * table's columns) by writing only the difference: a full join of the computed rows with the
 * table's rows of the workspace on the key finds the keys to insert, the rows whose measures
 * changed (compared as text, so a sum of the same value at another numeric scale is rewritten
 * too: a rebuild leaves exactly the rows a delete and insert would) and the rows to delete.
 * A rebuild used to delete every row and insert it again: at 300,000 responses the inserts
 * were most of the mention group's time (daily_mention_stats' 596,875 rows 16 s of its
 * statement's 50, each new key checked against the row version just deleted), while a rebuild
 * of rollups that are already right (a repair, `beacon rollups rebuild`, a tag edit's
 * families, most of whose rows keep their values) writes nothing now. Returns the CTEs, in
 * order; `tag` makes their names unique within the statement.
 */
function replaceRows(plan: TablePlan, rows: RawBuilder<unknown>, workspaceId: string, keyOrder: readonly string[], tag: string, empty: boolean): RawBuilder<unknown>[] {
  const measureNames = plan.measures.map(([m]) => m)
  const table = sql.table(plan.table)
  // Every row is the workspace's: ordered by the rest of the key, the rows a grouping already
  // emits in that order need no sort (the planner knows the workspace_id of a subquery's rows
  // only as a column, not as the one value).
  const order = keyOrder.filter((k) => k !== 'workspace_id')
  // No row of the workspace to compare with (bench:data, a new table's first rebuild): every
  // computed row is new, so they go straight in, without the full join and the materialized
  // difference in between.
  if (empty) {
    return [
      sql`${sql.ref(`rebuild_insert_${tag}`)} as (insert into ${table} (${names([...plan.keys, ...measureNames])})
        select ${refs('c', [...plan.keys, ...measureNames])} from (${rows}) c order by ${refs('c', order)})`,
    ]
  }
  const diff = sql.ref(`rebuild_diff_${tag}`)
  const sameKey = (a: string, b: string) =>
    sql.join(
      plan.keys.map((k) => sql`${sql.ref(`${a}.${k}`)} = ${sql.ref(`${b}.${k}`)}`),
      sql` and `,
    )
  const changed = sql.join(
    measureNames.map((m) => sql`${sql.ref(`s.${m}`)}::text is distinct from ${sql.ref(`n.${m}`)}::text`),
    sql` or `,
  )
  // Keys are never null: a row absent on one side has a null workspace_id there.
  const columns = [
    ...plan.keys.map((k) => sql`coalesce(${sql.ref(`n.${k}`)}, ${sql.ref(`s.${k}`)}) as ${sql.ref(k)}`),
    ...measureNames.map((m) => sql`${sql.ref(`n.${m}`)} as ${sql.ref(m)}`),
    sql`s.workspace_id is not null as rebuild_old`,
    sql`n.workspace_id is not null as rebuild_new`,
  ]
  return [
    sql`${diff} as materialized (
      select ${sql.join(columns)}
      from (${rows}) n
      full join (select * from ${table} where workspace_id = ${workspaceId}) s on ${sameKey('n', 's')}
      where s.workspace_id is null or n.workspace_id is null${measureNames.length ? sql` or ${changed}` : sql``})`,
    sql`${sql.ref(`rebuild_delete_${tag}`)} as (delete from ${table} s using ${diff} c where not c.rebuild_new and ${sameKey('s', 'c')})`,
    ...(measureNames.length
      ? [
          sql`${sql.ref(`rebuild_update_${tag}`)} as (update ${table} s set ${sql.join(measureNames.map((m) => sql`${sql.ref(m)} = ${sql.ref(`c.${m}`)}`))}
            from ${diff} c where c.rebuild_old and c.rebuild_new and ${sameKey('s', 'c')})`,
        ]
      : []),
    // New keys in the primary key's order (see primaryKeyOrder).
    sql`${sql.ref(`rebuild_insert_${tag}`)} as (insert into ${table} (${names([...plan.keys, ...measureNames])})
      select ${refs('c', [...plan.keys, ...measureNames])} from ${diff} c where not c.rebuild_old order by ${refs('c', order)})`,
  ]
}

/** The tables of these families that hold no row of the workspace (an index probe each). */
async function tablesWithoutRows(trx: DB, workspaceId: string, unit: readonly RollupFamily[]): Promise<Set<string>> {
  const empty = new Set<string>()
  for (const { table } of unit.flatMap((f) => plansOf(f))) {
    const { rows } = await sql<{ found: boolean }>`select exists (select from ${sql.table(table)} where workspace_id = ${workspaceId}) as found`.execute(trx)
    if (!rows[0].found) empty.add(table)
  }
  return empty
}

/** One statement of a rebuild: the tables it fills, and whether the planner may hash its aggregates. */
interface RebuildStep {
  statement: RawBuilder<unknown>
  tables: string[]
  aggregation: Aggregation
}

/**
 * One family's rebuild, with the folds of it (`unit`: the family, then folds of it whose
 * measures are sums), a statement per time bucket. The first runs the family's select once
 * over the workspace's facts and fills its daily table (or its one table); each coarser
 * bucket is then folded from the rows the finer table now holds (a year from four quarters'
 * rows, not 365 days'), and a fold's table from the source's rows at that bucket
 * (mention-stats-by-provider's months sum the monthly mention rows over the models, not the
 * daily rows). Each table gets the difference from its current rows (replaceRows), so after
 * a step the finer table holds exactly the computed rows, and folding them is folding those.
 *
 * Folds are statements of their own so that the planner may hash them: a month has a fifth
 * of its days' rows or fewer, and in the one statement they were sorts, since the select's
 * grouping needs hash aggregation off (selectAggregation). At 300,000 responses the sort of
 * daily_mention_stats' 596,875 rows for the months took 4.8 s under EXPLAIN ANALYZE (text
 * and text[] keys compared by collation), their hash aggregate under a second; at 10M the
 * sort no longer fits in memory while a month's groups mostly do.
 */
function rebuildSteps(unit: readonly RollupFamily[], workspaceId: string, order: ReadonlyMap<string, string[]>, empty: ReadonlySet<string>): RebuildStep[] {
  const [source] = unit
  const measures = Object.entries(source.measures)
  const measureNames = measures.map(([m]) => m)
  const all = unit.flatMap((f) => plansOf(f).map((plan) => ({ f, plan })))
  const rows = sql.ref('rebuild_rows')
  const write = (plan: TablePlan, f: RollupFamily, bucket: Bucket, i: number, from: RawBuilder<unknown>) =>
    replaceRows(
      plan,
      f === source
        ? from
        : // A fold sums the source's rows at its bucket over the dimensions it leaves out.
          sql`select * from (${foldRows(sql`select workspace_id, ${sql.ref(bucket)} as day, ${names([...source.dimensions, ...measureNames])} from ${rows}`, f.dimensions, measureNames)})
            f (${names(['workspace_id', bucket, ...f.dimensions, ...measureNames])})`,
      workspaceId,
      order.get(plan.table) ?? plan.keys,
      String(i),
      empty.has(plan.table),
    )
  const stepOf = (from: RawBuilder<unknown>, bucket: Bucket | null, aggregation: Aggregation): RebuildStep | null => {
    const here = all.filter(({ plan }) => plan.bucket === bucket)
    if (here.length === 0) return null
    // The source's one table of this bucket reads the rows as a subquery, not a materialized
    // CTE: the planner then knows they come out of the grouping in its key's order, and an
    // insert in the primary key's order (the same, where the key is the family's columns in
    // order) needs no second sort of them (at 10M responses, of gigabytes: an external merge).
    const inline = here.length === 1 && here[0].f === source
    const ctes = inline
      ? write(here[0].plan, source, bucket ?? 'day', 0, from)
      : [sql`${rows} as materialized (${from})`, ...here.flatMap(({ f, plan }, i) => write(plan, f, bucket ?? 'day', i, sql`select * from ${rows}`))]
    // Data-modifying CTEs run to completion whether or not the statement reads them.
    return { statement: sql`with ${sql.join(ctes)} select 1`, tables: here.map(({ plan }) => plan.table), aggregation }
  }
  const select = source.select(scopeSql({ workspaceId }))
  const tables = source.tables
  if ('none' in tables) return [stepOf(select, null, selectAggregation(unit))].filter((s) => s !== null)
  const steps = [stepOf(select, 'day', selectAggregation(unit))]
  // The finer rows a bucket is folded from: the source's table at the finer bucket, which the
  // previous step made right, or (no such table) those rows computed again in the statement.
  const tableOf = (bucket: Bucket) => (bucket === 'day' ? tables.day : tables[bucket])
  const finerRows = (bucket: Bucket, computed: RawBuilder<unknown>) => {
    const table = tableOf(bucket)
    return table ? sql`(select ${names(['workspace_id', bucket, ...source.dimensions, ...measureNames])} from ${sql.table(table)} where workspace_id = ${workspaceId})` : computed
  }
  let finer: Bucket = 'day'
  let computed = sql`(${select})`
  const needed = new Set(all.map(({ plan }) => plan.bucket))
  for (const bucket of CALENDAR_UNITS) {
    if (!CALENDAR_UNITS.slice(CALENDAR_UNITS.indexOf(bucket)).some((b) => needed.has(b))) break
    const folded = foldBucket(finerRows(finer, computed), finer, bucket, source.dimensions, measures)
    steps.push(stepOf(folded, bucket, 'hash'))
    computed = sql`(${folded})`
    finer = bucket
  }
  return steps.filter((s) => s !== null)
}

/**
 * The rebuild's statements: a family with the folds of it being rebuilt (they sum its rows,
 * mention-stats-by-provider from mention-stats), in list order.
 */
function rebuildUnits(rest: readonly RollupFamily[]): RollupFamily[][] {
  return rest.filter((f) => !f.foldOf || !rest.includes(f.foldOf)).map((f) => [f, ...rest.filter((g) => g.foldOf === f)])
}

/**
 * Recomputes the tables of these families (none of them a numbering table), statements per
 * family (rebuildSteps): its select runs once over the workspace's facts and fills its daily
 * table; its monthly, quarterly and yearly tables and the folds of it follow, each from the
 * finer rows. All families in one statement held every family's sorts and hashes at once and
 * could not be given memory for them.
 */
async function rebuildRest(trx: DB, workspaceId: string, rest: readonly RollupFamily[], onTable?: (table: string) => void): Promise<void> {
  if (rest.length === 0) return
  const order = await primaryKeyOrder(
    trx,
    rest.flatMap((f) => plansOf(f)),
  )
  await withRebuildSettings(trx, async (previous) => {
    for (const unit of rebuildUnits(rest)) {
      for (const step of rebuildSteps(unit, workspaceId, order, await tablesWithoutRows(trx, workspaceId, unit))) {
        for (const [name, value] of Object.entries(AGGREGATION_SETTINGS[step.aggregation](previous))) await sql`select set_config(${name}, ${value}, true)`.execute(trx)
        await step.statement.execute(trx)
        for (const table of step.tables) onTable?.(table)
      }
    }
  })
}

/**
 * Recomputes a workspace's rollups from its facts in one transaction (each table given the
 * difference from its family's select), then bumps the data version so cached reads are dropped.
 */
export async function rebuildRollups(db: DB, workspaceId: string, options: RebuildOptions = {}): Promise<void> {
  const selected = options.families ? FAMILIES.filter((f) => options.families!.includes(f.name)) : FAMILIES
  const scope = { workspaceId }
  const numbering = selected.filter((f) => f.stableIds)
  const rest = selected.filter((f) => !f.stableIds)
  if (options.analyze) await analyzeIfStale(db)
  await inTransaction(db, async (trx) => {
    let numbered = 0
    for (const f of numbering) {
      for (const plan of plansOf(f)) {
        numbered += Number((await upsert(plan, familySelect(f, scope), 1).execute(trx)).numAffectedRows ?? 0)
        options.onTable?.(plan.table)
      }
    }
    // The URL families join workspace_url: a first rebuild after a bulk load numbers every
    // URL in this transaction, which the table's statistics (if any) know nothing of. Its
    // own uncommitted rows are what ANALYZE samples here.
    if (options.analyze && numbered > 0) {
      const { rows } = await sql<{
        stale: boolean
      }>`select reltuples < 0 or ${numbered} > reltuples / 10 + 1000 as stale from pg_class where oid = to_regclass('workspace_url')`.execute(trx)
      if (rows[0]?.stale) await sql`analyze workspace_url`.execute(trx)
    }
    await rebuildRest(trx, workspaceId, rest, options.onTable)
    await bumpDataVersion(trx, workspaceId)
  })
}

export { family }
