import { sql, type Kysely } from 'kysely'

// GET /prompts/{id} summed its responses of the previous period, and the responses with a
// mention in both periods, from the daily rows of 0025 alone: 4 providers x 30 days per
// read, about 350 of the 970 rollup rows it read for the busiest prompt at 1M responses
// (against 80 for a prompt with a tenth of the answers). By month, with a partial month as
// the month minus the days the range leaves out when those are fewer (as the mention and
// domain rows of 0025 are read), the same sums are a few rows per provider. The daily trend
// still reads the days.
//
// The backfill folds 0025's daily rows by month, in SQL, so the tables are complete as
// soon as the migration has run (a read of the daily tables, not of the facts).
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

const rls = (table: string) => [
  `alter table ${table} enable row level security`,
  `alter table ${table} force row level security`,
  `create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`,
]

const statements = [
  `create table monthly_prompt_response_stats (
     workspace_id uuid not null,
     prompt_id uuid not null,
     month date not null,
     provider text not null,
     responses integer not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, prompt_id, month, provider) include (responses, sentiment_sum, sentiment_count)
   )`,
  `create table monthly_prompt_mentioned_responses (
     workspace_id uuid not null,
     prompt_id uuid not null,
     month date not null,
     provider text not null,
     responses integer not null,
     primary key (workspace_id, prompt_id, month, provider) include (responses)
   )`,
  `insert into monthly_prompt_response_stats (workspace_id, prompt_id, month, provider, responses, sentiment_sum, sentiment_count)
   select workspace_id, prompt_id, date_trunc('month', day)::date, provider, sum(responses), sum(sentiment_sum), sum(sentiment_count)
   from daily_prompt_response_stats group by 1, 2, 3, 4`,
  `insert into monthly_prompt_mentioned_responses (workspace_id, prompt_id, month, provider, responses)
   select workspace_id, prompt_id, date_trunc('month', day)::date, provider, sum(responses)
   from daily_prompt_mentioned_responses group by 1, 2, 3, 4`,
  ...['monthly_prompt_response_stats', 'monthly_prompt_mentioned_responses'].flatMap(rls),
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['monthly_prompt_mentioned_responses', 'monthly_prompt_response_stats']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db)
  }
}
