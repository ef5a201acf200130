// Request-scoped database access under row-level security (PostgreSQL). Every API
// request runs its queries in one transaction that switches to the unprivileged role and
// names the workspace with transaction-local settings, so a pooled connection carries
// nothing over to the next request. On PGlite requests use the shared handle directly
// (one embedded, single-user database; the workspace filter in every query is the wall).
import { sql, type ControlledTransaction } from 'kysely'
import type { DB } from './database.js'
import type { Database } from './schema.js'

export const APP_ROLE = 'beacon_app'

/**
 * A request's reads are rollup rows and index ranges: PostgreSQL's parallel workers cost more
 * to start than they save there, and on a small server they take the cores other requests
 * wait for. Measured: /dashboard with tags and models on 5M answers planned a parallel scan
 * for a branch its one-time filter then skipped, and launching the workers took 37 of the
 * statement's 109 ms. Jobs (rollup rebuilds, which do use them) keep the server's setting.
 */
export const NO_PARALLEL_WORKERS = sql`set_config('max_parallel_workers_per_gather', '0', true)`

/** Grants the service role what it needs on this schema's tables; idempotent, run after migrating. */
export async function grantAppRole(db: DB): Promise<void> {
  // Most databases (the embedded one always) have no service role: one plain read settles
  // that, instead of compiling the PL/pgSQL block below on every start.
  const { rows } = await sql<{ present: boolean }>`select exists (select 1 from pg_roles where rolname = ${APP_ROLE}) as present`.execute(db)
  if (!rows[0]?.present) return
  await sql
    .raw(
      `do $$ begin
         if exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
           execute format('grant usage on schema %I to ${APP_ROLE}', current_schema());
           execute format('grant select, insert, update, delete on all tables in schema %I to ${APP_ROLE}', current_schema());
           execute format('grant usage on all sequences in schema %I to ${APP_ROLE}', current_schema());
         end if;
       exception when insufficient_privilege then
         raise notice 'not allowed to grant to ${APP_ROLE}';
       end $$`,
    )
    .execute(db)
}

/** Whether this connection can switch to the service role (it exists and we may use it). */
export async function canUseAppRole(db: DB): Promise<boolean> {
  const { rows } = await sql<{ usable: boolean }>`
    select exists (select 1 from pg_roles where rolname = ${APP_ROLE}) and pg_has_role(current_user, ${APP_ROLE}, 'MEMBER') as usable`.execute(db)
  return rows[0]?.usable === true
}

/**
 * Whether the connecting role reads past row-level security (a superuser, or BYPASSRLS):
 * then a request's key lookup can run before the switch to the service role, and make it.
 */
export async function bypassesRowSecurity(db: DB): Promise<boolean> {
  const { rows } = await sql<{ bypasses: boolean }>`select rolsuper or rolbypassrls as bypasses from pg_roles where rolname = current_user`.execute(db)
  return rows[0]?.bypasses === true
}

export type ScopedTransaction = ControlledTransaction<Database>

/**
 * Starts a request transaction. With `keyHash`, the role switch and the key hash are set
 * in the same round trip as each other (set_config('role') is SET LOCAL ROLE).
 */
export async function beginScoped(db: DB, options: { useRole: boolean; keyHash?: string }): Promise<ScopedTransaction> {
  const trx = await db.startTransaction().execute()
  try {
    const settings = [
      ...(options.useRole ? [sql`set_config('role', ${APP_ROLE}, true)`] : []),
      ...(options.keyHash !== undefined ? [sql`set_config('app.key_hash', ${options.keyHash}, true)`] : []),
    ]
    // No parallel workers in the same round trip, when there is one anyway (the lookup-first
    // path sets it with the key lookup).
    if (settings.length) await sql`select ${sql.join([...settings, NO_PARALLEL_WORKERS])}`.execute(trx)
  } catch (error) {
    await rollbackQuietly(trx)
    throw error
  }
  return trx
}

/** Rolls back a transaction that failed; a rollback that fails too (connection gone) changes nothing. */
export async function rollbackQuietly(trx: ScopedTransaction): Promise<void> {
  await trx
    .rollback()
    .execute()
    .catch(() => {})
}

export async function setScope(trx: DB, name: 'app.workspace_id' | 'app.key_hash', value: string): Promise<void> {
  await sql`select set_config(${name}, ${value}, true)`.execute(trx)
}

/** Runs fn in a transaction, or directly when the caller already holds one. */
export async function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db)
  return db.transaction().execute(fn)
}

/** Runs fn in a transaction scoped to one workspace (row-level security on PostgreSQL), as jobs and tasks do outside requests. */
export function inWorkspace<T>(db: DB, workspaceId: string, fn: (trx: DB) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await setScope(trx, 'app.workspace_id', workspaceId)
    return fn(trx)
  })
}
