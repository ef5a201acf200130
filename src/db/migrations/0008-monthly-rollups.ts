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

// Existing data: the daily rows summed by calendar month, exact by construction. Frozen
// SQL (migrations never import application code).
const month = `date_trunc('month', day)::date`
const backfill = [
  `insert into monthly_response_stats (workspace_id, month, provider, model, tags, responses)
   select workspace_id, ${month}, provider, model, tags, sum(responses) from daily_response_stats group by 1, 2, 3, 4, 5`,
  `insert into monthly_response_totals (workspace_id, month, provider, model, responses)
   select workspace_id, ${month}, provider, model, sum(responses) from daily_response_totals group by 1, 2, 3, 4`,
  `insert into monthly_mention_stats (workspace_id, month, provider, model, tags, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   select workspace_id, ${month}, provider, model, tags, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
   from daily_mention_stats group by 1, 2, 3, 4, 5, 6`,
  `insert into monthly_brand_totals (workspace_id, month, provider, model, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   select workspace_id, ${month}, provider, model, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
   from daily_brand_totals group by 1, 2, 3, 4, 5`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
  for (const statement of backfill) await sql.raw(statement).execute(db)
  for (const statement of rowLevelSecurity) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) await sql.raw(`drop table if exists ${table}`).execute(db)
}
