import { sql, type Kysely } from 'kysely'

// Row-level security: a second wall behind the workspace filter every query already has.
// Each tenant table admits only rows of the workspace named by the transaction-local
// setting app.workspace_id; api_key rows are also visible by the hash being looked up.
// FORCE applies the policies to the table owner too. Superusers bypass RLS, so the
// service switches to the unprivileged role beacon_app inside each request transaction
// (src/db/tenant-scope.ts); the CLI and migrations keep their own privileges.
// On PGlite the only user is a superuser: the policies exist but do not apply there.
const TENANT_TABLES = [
  'api_key',
  'model',
  'brand',
  'prompt',
  'response',
  'mention',
  'citation',
  'aio_observation',
  'aio_appearance',
  'export_log',
  'daily_response_stats',
  'daily_mention_stats',
  'workspace_domain',
]
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

const statements = [
  `do $$ begin
     if not exists (select 1 from pg_roles where rolname = 'beacon_app') then
       create role beacon_app nologin nosuperuser nobypassrls;
     end if;
   exception when insufficient_privilege then
     raise notice 'not allowed to create role beacon_app; row-level security will rely on the connecting role';
   end $$`,
  ...TENANT_TABLES.flatMap((table) => [
    `alter table ${table} enable row level security`,
    `alter table ${table} force row level security`,
    table === 'api_key'
      ? `create policy tenant_isolation on api_key
           using (workspace_id = ${CURRENT} or key_hash = nullif(current_setting('app.key_hash', true), ''))
           with check (workspace_id = ${CURRENT})`
      : `create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`,
  ]),
  `alter table workspace enable row level security`,
  `alter table workspace force row level security`,
  `create policy tenant_isolation on workspace using (id = ${CURRENT}) with check (id = ${CURRENT})`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TENANT_TABLES, 'workspace']) {
    await sql.raw(`drop policy if exists tenant_isolation on ${table}`).execute(db)
    await sql.raw(`alter table ${table} no force row level security`).execute(db)
    await sql.raw(`alter table ${table} disable row level security`).execute(db)
  }
}
