import { sql, type Kysely } from 'kysely'

// Notification channels (docs/agents-and-notifications.md): Slack incoming webhooks and
// e-mail recipients that hear of the webhook events and a weekly digest. The target (the
// Slack URL, which is itself a credential, or the addresses) is stored sealed under
// BEACON_SECRET_KEY like webhook secrets; `target_hint` is what lists show (a masked URL,
// or the addresses). The digest's schedule is a day, hour and IANA time zone;
// `digest_last_slot` is the latest slot already claimed, so one instance sends each digest.
// Deliveries and attempts have the webhooks' shape (0014) so the log reads the same.
// Tenant tables with the same row-level security as the others (0004, 0011, 0014).
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notification_channel (
      workspace_id uuid not null references workspace (id) on delete cascade,
      id uuid not null,
      kind text not null check (kind in ('slack', 'email')),
      target_sealed text not null,
      target_hint text not null,
      events text[] not null,
      digest_day smallint check (digest_day between 0 and 6),
      digest_hour smallint check (digest_hour between 0 and 23),
      digest_timezone text,
      digest_last_slot timestamptz,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      primary key (workspace_id, id)
    )`.execute(db)
  await sql`
    create table notification_delivery (
      workspace_id uuid not null,
      id uuid not null,
      channel_id uuid not null,
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
      foreign key (workspace_id, channel_id) references notification_channel (workspace_id, id) on delete cascade
    )`.execute(db)
  await sql`create index notification_delivery_by_channel on notification_delivery (workspace_id, channel_id, created_at desc, id desc)`.execute(db)
  await sql`
    create table notification_attempt (
      workspace_id uuid not null,
      delivery_id uuid not null,
      attempt integer not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      at timestamptz not null default now(),
      primary key (workspace_id, delivery_id, attempt),
      foreign key (workspace_id, delivery_id) references notification_delivery (workspace_id, id) on delete cascade
    )`.execute(db)
  for (const table of ['notification_channel', 'notification_delivery', 'notification_attempt']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db)
    await sql.raw(`alter table ${table} force row level security`).execute(db)
    await sql.raw(`create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`).execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table notification_attempt`.execute(db)
  await sql`drop table notification_delivery`.execute(db)
  await sql`drop table notification_channel`.execute(db)
}
