import { sql, type Kysely } from 'kysely'

// A running job's heartbeat: refreshed while its handler runs, so a job whose process was
// killed is recognised within a minute and retried, instead of waiting for pg-boss's
// expiry (hours) with the workspace's history half re-analysed. Frozen history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table job add column heartbeat_at timestamptz`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table job drop column heartbeat_at`.execute(db)
}
