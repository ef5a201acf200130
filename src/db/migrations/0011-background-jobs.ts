import { sql, type Kysely } from 'kysely'

// Beacon's own record of a background job (docs/jobs.md): which workspace it belongs to, its
// progress and its result, so GET /api/v1/jobs/{id} can answer under row-level security
// without reading pg-boss's tables. The id is the pg-boss job id; pg-boss keeps the queue.
// Frozen history: no application code imported here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table job (
      workspace_id uuid not null references workspace (id) on delete cascade,
      id uuid not null,
      type text not null,
      state text not null default 'queued' check (state in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
      progress_done integer not null default 0,
      progress_total integer not null default 0,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      error_code text,
      error_message text,
      result jsonb,
      primary key (workspace_id, id)
    )`.execute(db)
  const current = `nullif(current_setting('app.workspace_id', true), '')::uuid`
  await sql.raw(`alter table job enable row level security`).execute(db)
  await sql.raw(`alter table job force row level security`).execute(db)
  await sql.raw(`create policy tenant_isolation on job using (workspace_id = ${current}) with check (workspace_id = ${current})`).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table job`.execute(db)
}
