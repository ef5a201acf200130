import { sql, type Kysely } from 'kysely'

// The tag-set rollups of a year's dashboard without the model (issue "Performance and
// scale-out"). A tags filter (with or without providers) summed eleven months of the
// monthly tag-set rollups, whose rows are per model as well: on 1M responses (PostgreSQL,
// quiet 2-core machine) /dashboard for a year with tags and two providers read 52,700 index
// entries of monthly_mention_stats and summed 25,800 of them, 17 ms of its 26 ms. Without
// the model each month has half the rows (two models per provider in the benchmark, more in
// real workspaces); the same read takes 10.5 ms. Monthly only: the loose days at either end
// of a range still come from the daily tag-set rollups, whose daily rows seldom share a
// provider across models (folding them would save a fifth, for 450 MB more).
const statements = [
  `create table monthly_response_stats_by_provider (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     tags text[] not null,
     responses integer not null,
     primary key (workspace_id, month, provider, tags) include (responses)
   )`,
  `create table monthly_mention_stats_by_provider (
     workspace_id uuid not null,
     month date not null,
     provider text not null,
     tags text[] not null,
     brand_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, month, provider, tags, brand_id) include (responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   )`,
  // As for monthly_mention_stats (0016): a providers filter reads only its providers' rows.
  `create index monthly_mention_stats_by_provider_provider_idx on monthly_mention_stats_by_provider (workspace_id, provider, month, tags)
     include (brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)`,
  // The same grain folded over models: exact, every measure is a sum.
  `insert into monthly_response_stats_by_provider (workspace_id, month, provider, tags, responses)
     select workspace_id, month, provider, tags, sum(responses) from monthly_response_stats group by 1, 2, 3, 4`,
  `insert into monthly_mention_stats_by_provider (workspace_id, month, provider, tags, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
     select workspace_id, month, provider, tags, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
     from monthly_mention_stats group by 1, 2, 3, 4, 5`,
  ...['monthly_response_stats_by_provider', 'monthly_mention_stats_by_provider'].flatMap((table) => [
    `alter table ${table} enable row level security`,
    `alter table ${table} force row level security`,
    `create policy tenant_isolation on ${table} using (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) with check (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid)`,
  ]),
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['monthly_mention_stats_by_provider', 'monthly_response_stats_by_provider']) await sql.raw(`drop table if exists ${table}`).execute(db)
}
