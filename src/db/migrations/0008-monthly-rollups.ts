import { sql, type Kysely } from 'kysely'

// Whole calendar months (UTC) of the four dashboard rollups (0003, 0005). A year's
// dashboard reads eleven or twelve months of these plus the loose days at either end
// from the daily tables: with a tags filter that is about 60,000 rows instead of a
// million. Same grain and measures as the daily tables, so sums over both stay exact.
const tables = ['monthly_response_stats', 'monthly_mention_stats', 'monthly_response_totals', 'monthly_brand_totals']

const statements = [
  `create table monthly_response_stats (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     model text not null,
     tags text[] not null,
     responses integer not null,
     primary key (workspace_id, month, provider, model, tags) include (responses)
   )`,
  `create table monthly_mention_stats (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     model text not null,
     tags text[] not null,
     brand_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, month, provider, model, tags, brand_id) include (responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   )`,
  `create table monthly_response_totals (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     model text not null,
     responses integer not null,
     primary key (workspace_id, month, provider, model) include (responses)
   )`,
  `create table monthly_brand_totals (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     model text not null,
     brand_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, month, provider, model, brand_id) include (responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   )`,
]

const rowLevelSecurity = tables.flatMap((table) => [
  `alter table ${table} enable row level security`,
  `alter table ${table} force row level security`,
  `create policy tenant_isolation on ${table} using (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) with check (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid)`,
])

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
  const { fillMonthlyRollups } = await import('../../ingest/rollups.js')
  const { rows } = await sql<{ id: string }>`select id from workspace`.execute(db)
  for (const row of rows) await fillMonthlyRollups(db as never, row.id)
  for (const statement of rowLevelSecurity) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) await sql.raw(`drop table if exists ${table}`).execute(db)
}
