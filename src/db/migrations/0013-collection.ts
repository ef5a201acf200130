import { sql, type Kysely } from 'kysely'

// Collection (docs/collection.md): what to ask (targets), with which provider key (credentials,
// sealed with AES-256-GCM under BEACON_SECRET_KEY), the runs that ask, their errors folded
// by (run, target, code), each answer's outcome and provider metadata (beside the response,
// keyed by its external_id), and the USD spent per workspace and day (the budget).
// Every table is workspace-scoped with row-level security like migrations 0004 and 0011.
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`
const TABLES = ['collection_target', 'collection_credential', 'collection_run', 'collection_run_error', 'collection_answer', 'collection_spend']

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table collection_credential (
      workspace_id uuid not null references workspace (id) on delete cascade,
      name text not null,
      provider text not null,
      sealed text not null,
      last_four text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (workspace_id, name)
    )`.execute(db)
  await sql`
    create table collection_target (
      workspace_id uuid not null references workspace (id) on delete cascade,
      id uuid not null,
      kind text not null default 'answer' check (kind in ('answer', 'aio')),
      provider text check (provider in ('openai', 'anthropic', 'google', 'perplexity')),
      model text,
      api text check (api in ('native', 'openai_compatible', 'demo')),
      base_url text,
      web_search boolean not null default false,
      serp text check (serp in ('serpapi', 'dataforseo')),
      locale text,
      samples integer not null default 1 check (samples between 1 and 10),
      schedule text not null default '0 6 * * *',
      timezone text not null default 'UTC',
      enabled boolean not null default true,
      credential text,
      flagged boolean not null default false,
      flag_code text,
      flag_reason text,
      flagged_at timestamptz,
      last_scheduled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (workspace_id, id),
      check ((kind = 'answer' and provider is not null and model is not null and api is not null) or (kind = 'aio' and serp is not null and locale is not null))
    )`.execute(db)
  await sql`
    create table collection_run (
      workspace_id uuid not null references workspace (id) on delete cascade,
      id uuid not null,
      state text not null default 'queued' check (state in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
      trigger text not null default 'manual' check (trigger in ('manual', 'schedule')),
      target_ids uuid[],
      prompt_ids uuid[],
      planned integer not null default 0,
      planned_at timestamptz,
      succeeded integer not null default 0,
      failed integer not null default 0,
      duplicates integer not null default 0,
      skipped integer not null default 0,
      tokens_in bigint not null default 0,
      tokens_out bigint not null default 0,
      cost_usd numeric(14, 6) not null default 0,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      primary key (workspace_id, id)
    )`.execute(db)
  await sql`create index collection_run_created on collection_run (workspace_id, created_at desc)`.execute(db)
  await sql`
    create table collection_run_error (
      workspace_id uuid not null,
      run_id uuid not null,
      target_id uuid not null,
      code text not null,
      message text not null,
      count integer not null default 1,
      primary key (workspace_id, run_id, target_id, code),
      foreign key (workspace_id, run_id) references collection_run (workspace_id, id) on delete cascade
    )`.execute(db)
  // One row per planned answer once it has an outcome: the row's insert is what counts it
  // in the run, so an answer task run again after a crash never counts twice.
  await sql`
    create table collection_answer (
      workspace_id uuid not null,
      external_id text not null,
      run_id uuid not null,
      target_id uuid not null,
      prompt_id uuid not null,
      sample integer not null,
      outcome text not null check (outcome in ('succeeded', 'failed', 'duplicate', 'skipped')),
      model_served text,
      tokens_in integer,
      tokens_out integer,
      web_search_calls integer,
      cost_usd numeric(14, 6),
      latency_ms integer,
      raw jsonb,
      created_at timestamptz not null default now(),
      primary key (workspace_id, external_id),
      foreign key (workspace_id, run_id) references collection_run (workspace_id, id) on delete cascade
    )`.execute(db)
  await sql`create index collection_answer_run on collection_answer (workspace_id, run_id)`.execute(db)
  await sql`
    create table collection_spend (
      workspace_id uuid not null references workspace (id) on delete cascade,
      day date not null,
      usd numeric(14, 6) not null default 0,
      primary key (workspace_id, day)
    )`.execute(db)
  for (const table of TABLES) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db)
    await sql.raw(`alter table ${table} force row level security`).execute(db)
    await sql.raw(`create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`).execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql.raw(`drop table ${table}`).execute(db)
}
