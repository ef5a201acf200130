// Derives every maintenance statement from the family declarations: incremental upserts
// (scope = a batch's responses), retraction of the mention families, rebuild of a
// workspace. A batch is two statements (URL numbering, then every other table), reading
// its facts by index ((workspace_id, id) for responses, (workspace_id, response_id, …) for
// mentions and citations); a rebuild is a delete and an insert per table.
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.js'
import { CALENDAR_UNITS } from '../core/date-range.js'
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
    const folded = (rows: RawBuilder<unknown>) => sql`
      select d.workspace_id, date_trunc(${sql.lit(bucket)}, d.day)::date as ${sql.ref(bucket)},
        ${sql.join([...dims.map((d) => sql.ref(`d.${d}`)), ...measures.map(([m, rule]) => sql`${sql.raw(AGGREGATE[rule])}(${sql.ref(`d.${m}`)}) as ${sql.ref(m)}`)])}
      from (${rows}) d
      group by ${sql.join([sql.ref('d.workspace_id'), sql`2`, ...dims.map((d) => sql.ref(`d.${d}`))])}`
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
function batchStatement(families: readonly RollupFamily[], scope: RollupScope, write: (plan: TablePlan, rows: RawBuilder<unknown>) => RawBuilder<unknown>): RawBuilder<unknown> {
  const ctes: RawBuilder<unknown>[] = []
  const writes: RawBuilder<unknown>[] = []
  families.forEach((f, i) => {
    const name = `rollup_rows_${i}`
    // A fold of a family maintained in this statement sums that family's rows.
    const source = f.foldOf ? families.indexOf(f.foldOf) : -1
    const rows = source >= 0 && source < i ? foldRows(sql`select * from ${sql.ref(`rollup_rows_${source}`)}`, f.dimensions, Object.keys(f.measures)) : familySelect(f, scope)
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
}

/**
 * Recomputes a workspace's rollups from its facts in one transaction (delete + insert from
 * each family's select), then bumps the data version so cached reads are dropped.
 */
export async function rebuildRollups(db: DB, workspaceId: string, options: RebuildOptions = {}): Promise<void> {
  const selected = options.families ? FAMILIES.filter((f) => options.families!.includes(f.name)) : FAMILIES
  const scope = { workspaceId }
  const numbering = selected.filter((f) => f.stableIds)
  const rest = selected.filter((f) => !f.stableIds)
  await inTransaction(db, async (trx) => {
    for (const f of numbering) {
      for (const plan of plansOf(f)) {
        await upsert(plan, familySelect(f, scope), 1).execute(trx)
        options.onTable?.(plan.table)
      }
    }
    const tables = rest.flatMap((f) => plansOf(f))
    for (const plan of tables) await sql`delete from ${sql.table(plan.table)} where workspace_id = ${workspaceId}`.execute(trx)
    // One statement for the rest, as a batch is: each family's select runs once over the
    // workspace's facts and feeds its daily and monthly tables (and the families folded
    // from it). Running it per table computed the daily rows again for every month table:
    // 79 s -> s for a 200,000-response workspace (bench/generate-data.ts).
    if (rest.length) {
      await batchStatement(rest, scope, (plan, rows) => {
        const columns = [...plan.keys, ...plan.measures.map(([m]) => m)]
        return sql`insert into ${sql.table(plan.table)} (${names(columns)}) select ${refs('d', columns)} from (${plan.fromSelect(rows)}) d`
      }).execute(trx)
    }
    for (const plan of tables) options.onTable?.(plan.table)
    await bumpDataVersion(trx, workspaceId)
  })
}

export { family }
