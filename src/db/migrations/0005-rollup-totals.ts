import { sql, type Kysely } from 'kysely'

// Tag-free daily totals beside the tag-set rollups of 0003. The tag-set grain stays exact
// under a tags filter but is barely smaller than the facts at realistic densities (many
// tag sets × models per day); without a tags filter, day × provider × model (× brand)
// answers a full year from a few tens of thousands of rows.
const statements = [
  `create table daily_response_totals (
     workspace_id uuid not null,
     day date not null,
     provider text not null,
     model text not null,
     responses integer not null,
     primary key (workspace_id, day, provider, model)
   )`,
  `create table daily_brand_totals (
     workspace_id uuid not null,
     day date not null,
     provider text not null,
     model text not null,
     brand_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, day, provider, model, brand_id)
   )`,
  `insert into daily_response_totals select workspace_id, day, provider, model, sum(responses) from daily_response_stats group by 1, 2, 3, 4`,
  `insert into daily_brand_totals
     select workspace_id, day, provider, model, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
     from daily_mention_stats group by 1, 2, 3, 4, 5`,
  ...['daily_response_totals', 'daily_brand_totals'].flatMap((table) => [
    `alter table ${table} enable row level security`,
    `alter table ${table} force row level security`,
    `create policy tenant_isolation on ${table} using (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) with check (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid)`,
  ]),
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['daily_brand_totals', 'daily_response_totals']) await sql.raw(`drop table if exists ${table}`).execute(db)
}
