import { sql, type Kysely } from 'kysely'

// Indexes for the reads that still scanned (issue "Performance and scale-out"), measured on
// 1M responses on PostgreSQL with the machine under load (about 5 on 2 cores):
// - /dashboard with tags and providers summed the monthly mention rollup by a sequential
//   scan of every workspace's rows (about 145 ms for a year); led by provider and carrying
//   the measures, the read is an index-only scan of the matching providers' rows (about 20 ms).
// - /aio-metrics read aio_appearance by a sequential scan (it had no period index: 21 ms
//   for 30 days) and aio_observation through the table; both are index-only scans now
//   (1.4 ms and 1.7 ms).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index monthly_mention_stats_provider_idx on monthly_mention_stats (workspace_id, provider, month, tags)
    include (brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)`.execute(db)
  await sql`create index aio_observation_period_idx on aio_observation (workspace_id, observed_at) include (has_aio, prompt_id)`.execute(db)
  await sql`drop index if exists aio_observation_observed_idx`.execute(db)
  await sql`create index aio_appearance_period_idx on aio_appearance (workspace_id, observed_at) include (brand_id, position, prompt_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists aio_appearance_period_idx`.execute(db)
  await sql`create index if not exists aio_observation_observed_idx on aio_observation (workspace_id, observed_at)`.execute(db)
  await sql`drop index if exists aio_observation_period_idx`.execute(db)
  await sql`drop index if exists monthly_mention_stats_provider_idx`.execute(db)
}
