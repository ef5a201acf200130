import { sql, type Kysely } from 'kysely'

// GET /prompts/{id} read the prompt's own facts: its responses by provider and day, their
// mentions by brand and provider, the distinct responses that mention a brand, and its
// citations by domain, for the range and the previous period. Those rows grow with the
// answers (at 200 prompts, 30 days: about 400 responses, 1,000 mentions and 1,650
// citations of one prompt per million answers), and the read took 7.4 ms at 1M responses
// and 15.7 ms at 5M (README, "Beyond one server"; issue 32 asks for 1.5x at most). These
// tables keep the same sums per prompt: at most 4 provider rows a day for the responses,
// brands x providers for the mentions, and the prompt's cited domains, however many
// answers there are. Keyed by prompt before the day: a read takes one prompt's days as one
// index range (with the day first it would read every prompt's rows of the range). The
// measures are in the key index, so reads are index-only. The mention tables hold sums
// only (re-analysis retracts them); the distinct responses with a mention are a sum too,
// since a response lies on one day and one provider.
//
// The backfill is each family's select over every workspace's facts, in SQL, so the tables
// are complete as soon as the migration has run.
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`
const DAY = `(created_at at time zone 'UTC')::date`

const rls = (table: string) => [
  `alter table ${table} enable row level security`,
  `alter table ${table} force row level security`,
  `create policy tenant_isolation on ${table} using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`,
]

const mentionTable = (bucket: 'day' | 'month') => `create table ${bucket === 'day' ? 'daily' : 'monthly'}_prompt_mention_stats (
     workspace_id uuid not null,
     prompt_id uuid not null,
     ${bucket} date not null,
     brand_id uuid not null,
     provider text not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, prompt_id, ${bucket}, brand_id, provider) include (responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   )`

const domainTable = (bucket: 'day' | 'month') => `create table ${bucket === 'day' ? 'daily' : 'monthly'}_prompt_domain_stats (
     workspace_id uuid not null,
     prompt_id uuid not null,
     ${bucket} date not null,
     domain text not null,
     citations integer not null,
     primary key (workspace_id, prompt_id, ${bucket}, domain) include (citations)
   )`

const statements = [
  `create table daily_prompt_response_stats (
     workspace_id uuid not null,
     prompt_id uuid not null,
     day date not null,
     provider text not null,
     responses integer not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, prompt_id, day, provider) include (responses, sentiment_sum, sentiment_count)
   )`,
  mentionTable('day'),
  mentionTable('month'),
  `create table daily_prompt_mentioned_responses (
     workspace_id uuid not null,
     prompt_id uuid not null,
     day date not null,
     provider text not null,
     responses integer not null,
     primary key (workspace_id, prompt_id, day, provider) include (responses)
   )`,
  domainTable('day'),
  domainTable('month'),
  `insert into daily_prompt_response_stats (workspace_id, prompt_id, day, provider, responses, sentiment_sum, sentiment_count)
   select workspace_id, prompt_id, ${DAY}, provider, count(*), coalesce(sum(sentiment::numeric), 0), count(sentiment)
   from response group by 1, 2, 3, 4`,
  `insert into daily_prompt_mention_stats (workspace_id, prompt_id, day, brand_id, provider, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   select workspace_id, prompt_id, ${DAY}, brand_id, provider, count(*), sum(occurrences), sum(position), coalesce(sum(sentiment::numeric), 0), count(sentiment)
   from mention group by 1, 2, 3, 4, 5`,
  `insert into monthly_prompt_mention_stats (workspace_id, prompt_id, month, brand_id, provider, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
   select workspace_id, prompt_id, date_trunc('month', day)::date, brand_id, provider, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
   from daily_prompt_mention_stats group by 1, 2, 3, 4, 5`,
  `insert into daily_prompt_mentioned_responses (workspace_id, prompt_id, day, provider, responses)
   select workspace_id, prompt_id, ${DAY}, provider, count(distinct response_id)
   from mention group by 1, 2, 3, 4`,
  `insert into daily_prompt_domain_stats (workspace_id, prompt_id, day, domain, citations)
   select workspace_id, prompt_id, ${DAY}, domain, count(*)
   from citation group by 1, 2, 3, 4`,
  `insert into monthly_prompt_domain_stats (workspace_id, prompt_id, month, domain, citations)
   select workspace_id, prompt_id, date_trunc('month', day)::date, domain, sum(citations)
   from daily_prompt_domain_stats group by 1, 2, 3, 4`,
  ...[
    'daily_prompt_response_stats',
    'daily_prompt_mention_stats',
    'monthly_prompt_mention_stats',
    'daily_prompt_mentioned_responses',
    'daily_prompt_domain_stats',
    'monthly_prompt_domain_stats',
  ].flatMap(rls),
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'monthly_prompt_domain_stats',
    'daily_prompt_domain_stats',
    'daily_prompt_mentioned_responses',
    'monthly_prompt_mention_stats',
    'daily_prompt_mention_stats',
    'daily_prompt_response_stats',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db)
  }
}
