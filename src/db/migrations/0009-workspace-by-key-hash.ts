import { sql, type Kysely } from 'kysely'

// Authentication reads the key and its workspace in one query, before the request knows
// which workspace it is in: the workspace row becomes visible, like the key row already
// is, through the hash being looked up. Writes still need app.workspace_id.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`
const KEY_HASH = `nullif(current_setting('app.key_hash', true), '')`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop policy if exists tenant_isolation on workspace`).execute(db)
  await sql
    .raw(
      `create policy tenant_isolation on workspace
         using (id = ${CURRENT} or exists (select 1 from api_key k where k.workspace_id = workspace.id and k.key_hash = ${KEY_HASH}))
         with check (id = ${CURRENT})`,
    )
    .execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`drop policy if exists tenant_isolation on workspace`).execute(db)
  await sql.raw(`create policy tenant_isolation on workspace using (id = ${CURRENT}) with check (id = ${CURRENT})`).execute(db)
}
