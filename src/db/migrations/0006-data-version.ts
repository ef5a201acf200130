import { sql, type Kysely } from 'kysely'

// A counter bumped in the same transaction as every write that changes what analytics
// report; response caches key on it, so a cached answer can never outlive its data.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table workspace add column data_version bigint not null default 0`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table workspace drop column data_version`.execute(db)
}
