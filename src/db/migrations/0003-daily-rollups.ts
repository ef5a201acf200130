import { sql, type Kysely } from 'kysely'

// Exact daily rollups (docs/performance.md). The grain keeps every analytics filter exact:
// day (UTC) × provider × model × the prompt's tag set (× brand). A tags filter matches
// the rows whose tag set overlaps it, so prompts with several tags are never counted
// twice. Sums, not averages, so any range or filter combination adds up exactly;
// sentiment sums are numeric so their order of addition cannot change a rounded result.
const statements = [
  `create table daily_response_stats (
     workspace_id uuid not null,
     day date not null,
     provider text not null,
     model text not null,
     tags text[] not null,
     responses integer not null,
     primary key (workspace_id, day, provider, model, tags)
   )`,
  `create table daily_mention_stats (
     workspace_id uuid not null,
     day date not null,
     provider text not null,
     model text not null,
     tags text[] not null,
     brand_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     position_sum bigint not null,
     sentiment_sum numeric not null,
     sentiment_count integer not null,
     primary key (workspace_id, day, provider, model, tags, brand_id)
   )`,
  // The distinct domains a workspace has ever been cited for: distinct-domain counts
  // probe each one with an index lookup instead of scanning every citation in range.
  `create table workspace_domain (
     workspace_id uuid not null,
     domain text not null,
     primary key (workspace_id, domain)
   )`,
  `insert into workspace_domain (workspace_id, domain) select distinct workspace_id, domain from citation`,
  // Covering index for reads that need the raw facts (per-prompt and per-source views).
  `create index mention_facts_idx on mention (workspace_id, created_at) include (brand_id, provider, model, prompt_id, occurrences, position, sentiment, response_id)`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists mention_facts_idx').execute(db)
  for (const table of ['workspace_domain', 'daily_mention_stats', 'daily_response_stats']) await sql.raw(`drop table if exists ${table}`).execute(db)
}
