// The tenant tables, from the catalog: every table of the current schema with a
// workspace_id column (docs/rollups.md). New tables are included without anyone keeping a list.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { bumpDataVersion } from '../db/data-version.js'

/**
 * Every table with a `workspace_id` column, in an order that deletes rows before the rows
 * they reference (foreign keys among the tables), ties broken by name.
 */
export async function tenantTables(db: DB): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string }>`
    select c.relname as name
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    order by 1`.execute(db)
  const { rows: references } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint k
    join pg_class child on child.oid = k.conrelid
    join pg_class parent on parent.oid = k.confrelid
    where k.contype = 'f' and child.relnamespace = current_schema()::regnamespace and k.conrelid <> k.confrelid`.execute(db)
  return deleteOrder(
    tables.map((t) => t.name),
    references.map((r) => [r.child, r.parent] as const),
  )
}

/** Children before parents (Kahn's algorithm over the tables given); cycles keep name order. */
export function deleteOrder(tables: readonly string[], references: readonly (readonly [child: string, parent: string])[]): string[] {
  const names = [...tables].sort()
  const inSet = new Set(names)
  // A table can go once every table referencing it has gone.
  const referencedBy = new Map(names.map((t) => [t, new Set<string>()]))
  for (const [child, parent] of references) if (inSet.has(child) && inSet.has(parent) && child !== parent) referencedBy.get(parent)!.add(child)
  const order: string[] = []
  const done = new Set<string>()
  while (order.length < names.length) {
    const next = names.find((t) => !done.has(t) && [...referencedBy.get(t)!].every((child) => done.has(child)))
    const pick = next ?? names.find((t) => !done.has(t))!
    order.push(pick)
    done.add(pick)
  }
  return order
}

/**
 * Deletes every row of the workspace from every tenant table (the workspace row stays),
 * then bumps its data version. Call inside a transaction. `keep` names tables to leave
 * alone (the demo keeps its API keys, which it revokes itself).
 */
export async function deleteWorkspaceData(trx: DB, workspaceId: string, options: { keep?: readonly string[] } = {}): Promise<void> {
  for (const table of await tenantTables(trx)) {
    if (options.keep?.includes(table)) continue
    await sql`delete from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(trx)
  }
  await bumpDataVersion(trx, workspaceId)
}

/** Row-level security for a tenant table, as migrations 0004/0005/0007/0008 wrote it. */
export function rowLevelSecurityStatements(table: string): string[] {
  const current = `nullif(current_setting('app.workspace_id', true), '')::uuid`
  return [
    `alter table ${table} enable row level security`,
    `alter table ${table} force row level security`,
    `create policy tenant_isolation on ${table} using (workspace_id = ${current}) with check (workspace_id = ${current})`,
  ]
}
