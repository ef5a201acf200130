import { sql, type Kysely } from 'kysely'

// Webhooks (docs/agents-and-notifications.md): a workspace's subscriptions, one delivery per event and
// subscription, and a log of every attempt to deliver it (what the receiver answered, how
// long it took). The signing secret is stored sealed (AES-256-GCM under BEACON_SECRET_KEY),
// never in plain text: it is shown once, at creation. The payload is kept as the exact
// JSON text sent (jsonb would reorder its keys), so every retry sends the same bytes.
// Tenant tables with the same row-level security as the others (0004, 0011).
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook (
      workspace_id uuid not null references workspace (id) on delete cascade,
      id uuid not null,
      url text not null,
      events text[] not null,
      secret_sealed text not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      primary key (workspace_id, id)
    )`.execute(db)
  await sql`
    create table webhook_delivery (
      workspace_id uuid not null,
      id uuid not null,
      webhook_id uuid not null,
      event text not null,
      payload text not null,
      state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      primary key (workspace_id, id),
      foreign key (workspace_id, webhook_id) references webhook (workspace_id, id) on delete cascade
    )`.execute(db)
  // The delivery log of one webhook, newest first.
  await sql`create index webhook_delivery_by_webhook on webhook_delivery (workspace_id, webhook_id, created_at desc, id desc)`.execute(db)
  await sql`
    create table webhook_attempt (
      workspace_id uuid not null,
      delivery_id uuid not null,
      attempt integer not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      at timestamptz not null default now(),
      primary key (workspace_id, delivery_id, attempt),
      foreign key (workspace_id, delivery_id) references webhook_delivery (workspace_id, id) on delete cascade
    )`.execute(db)
  for (const table of ['webhook', 'webhook_delivery', 'webhook_attempt']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db)
    await sql.raw(`alter table ${table} force row level security`).execute(db)
    await sql.raw(`create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`).execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webhook_attempt`.execute(db)
  await sql`drop table webhook_delivery`.execute(db)
  await sql`drop table webhook`.execute(db)
}
