import { sql, type Kysely } from 'kysely'

// An answer counts only when the engine completed it (issue 27, docs/collection.md). Refusals,
// answers cut by the output limit, failed engine searches and exhausted quotas were stored as
// responses and diluted visibility (40 where every real answer named the brand). Now:
// - collection_answer has four more outcomes, and the run a counter for each beside `failed`
//   (succeeded + failed + duplicates + skipped + refused + incomplete + search_failed +
//   quota_exhausted = planned);
// - collection_non_answer keeps what the provider sent for each attempt that was not an
//   answer (also the ones retried: the first `incomplete`, a transient `search_failed`), with
//   its raw JSON, for audit. One row per (answer, attempt): a task run again after a crash
//   inserts nothing twice.
const OUTCOMES = ['succeeded', 'failed', 'duplicate', 'skipped', 'refused', 'incomplete', 'search_failed', 'quota_exhausted']
const COUNTERS = ['refused', 'incomplete', 'search_failed', 'quota_exhausted']
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const counter of COUNTERS) await sql.raw(`alter table collection_run add column ${counter} integer not null default 0`).execute(db)
  await sql`alter table collection_answer drop constraint collection_answer_outcome_check`.execute(db)
  await sql.raw(`alter table collection_answer add constraint collection_answer_outcome_check check (outcome in (${OUTCOMES.map((o) => `'${o}'`).join(', ')}))`).execute(db)
  await sql`
    create table collection_non_answer (
      workspace_id uuid not null,
      id uuid not null,
      run_id uuid not null,
      target_id uuid not null,
      prompt_id uuid not null,
      external_id text not null,
      sample integer not null,
      attempt integer not null,
      outcome text not null check (outcome in ('refused', 'incomplete', 'search_failed', 'quota_exhausted', 'unexpected_stop')),
      reason text not null,
      provider text,
      model_served text,
      tokens_in integer not null default 0,
      tokens_out integer not null default 0,
      cost_usd numeric(14, 6) not null default 0,
      raw jsonb,
      created_at timestamptz not null default now(),
      primary key (workspace_id, id),
      unique (workspace_id, external_id, attempt),
      foreign key (workspace_id, run_id) references collection_run (workspace_id, id) on delete cascade
    )`.execute(db)
  await sql`create index collection_non_answer_run on collection_non_answer (workspace_id, run_id)`.execute(db)
  await sql`alter table collection_non_answer enable row level security`.execute(db)
  await sql`alter table collection_non_answer force row level security`.execute(db)
  await sql.raw(`create policy tenant_isolation on collection_non_answer using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists collection_non_answer`.execute(db)
  await sql`delete from collection_answer where outcome in ('refused', 'incomplete', 'search_failed', 'quota_exhausted')`.execute(db)
  await sql`alter table collection_answer drop constraint collection_answer_outcome_check`.execute(db)
  await sql`alter table collection_answer add constraint collection_answer_outcome_check check (outcome in ('succeeded', 'failed', 'duplicate', 'skipped'))`.execute(db)
  for (const counter of COUNTERS) await sql.raw(`alter table collection_run drop column ${counter}`).execute(db)
}
