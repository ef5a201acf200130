import { sql, type Kysely } from 'kysely'

// Exact rollups of the citations (docs/performance.md), for /sources, /urls, /urls-detailed and the
// top sources of a brand; per-prompt daily counts for /prompts and a brand's top prompts;
// per-prompt indexes for the one-prompt views.
//
// Their grain leaves out provider and model (and, for citations, the prompt): a realistic
// year holds about 2,000 cited URLs, 330 cited domains and 200 prompts a day, so a
// full-year ranking reads tens of thousands of rows instead of four million citations.
// Reads use them only when the filters allow it (the read rule of src/rollups); other
// filter combinations read the facts.
//
// Distinct counts (prompts and providers citing a domain, providers citing a URL, prompts
// with responses) cannot be summed over days, so those pairs keep the set of days they
// occur on as a datemultirange: "cited in the range" is one overlap test per pair, and
// consecutive days collapse into one range.
const tenantTables = [
  'workspace_url',
  'daily_domain_stats',
  'monthly_domain_stats',
  'daily_url_stats',
  'monthly_url_stats',
  'daily_brand_domain_stats',
  'domain_prompt_days',
  'domain_provider_days',
  'url_provider_days',
  'prompt_days',
  'daily_prompt_stats',
  'daily_prompt_brand_stats',
]

// Daily and whole-month (UTC) tables of the same measures: a year reads twelve months
// plus the loose days at either end. Keys and measures sit in the primary key index, so
// ranges are read by index-only scans.
const calendarTables = (bucket: 'day' | 'month') => [
  `create table ${bucket === 'day' ? 'daily' : 'monthly'}_domain_stats (
     workspace_id uuid not null,
     ${bucket} date not null,
     domain text not null,
     citations integer not null,
     responses integer not null,
     last_cited timestamptz not null,
     primary key (workspace_id, ${bucket}, domain) include (citations, responses, last_cited)
   )`,
  `create table ${bucket === 'day' ? 'daily' : 'monthly'}_url_stats (
     workspace_id uuid not null,
     ${bucket} date not null,
     url_id bigint not null,
     citations integer not null,
     first_cited timestamptz not null,
     last_cited timestamptz not null,
     primary key (workspace_id, ${bucket}, url_id) include (citations, first_cited, last_cited)
   )`,
]

const statements = [
  // Cited URLs get a number: rollups group and join on it instead of on long text.
  `create table workspace_url (
     workspace_id uuid not null,
     id bigint generated always as identity,
     url text not null,
     domain text not null,
     primary key (workspace_id, id)
   )`,
  `create unique index workspace_url_url_idx on workspace_url (workspace_id, url)`,
  `create index workspace_url_domain_idx on workspace_url (workspace_id, domain)`,
  ...calendarTables('day'),
  ...calendarTables('month'),
  // A page's daily charts read a few URLs or domains across the range.
  `create index daily_url_stats_url_idx on daily_url_stats (workspace_id, url_id, day) include (citations, first_cited, last_cited)`,
  `create index daily_domain_stats_domain_idx on daily_domain_stats (workspace_id, domain, day) include (citations, responses)`,
  // Citations of the responses that mention a brand.
  `create table daily_brand_domain_stats (
     workspace_id uuid not null,
     brand_id uuid not null,
     day date not null,
     domain text not null,
     citations integer not null,
     primary key (workspace_id, brand_id, day, domain)
   )`,
  `create table domain_prompt_days (
     workspace_id uuid not null,
     domain text not null,
     prompt_id uuid not null,
     days datemultirange not null,
     primary key (workspace_id, domain, prompt_id)
   )`,
  `create table domain_provider_days (
     workspace_id uuid not null,
     domain text not null,
     provider text not null,
     days datemultirange not null,
     primary key (workspace_id, domain, provider)
   )`,
  `create table url_provider_days (
     workspace_id uuid not null,
     url_id bigint not null,
     provider text not null,
     days datemultirange not null,
     primary key (workspace_id, url_id, provider)
   )`,
  `create table prompt_days (
     workspace_id uuid not null,
     prompt_id uuid not null,
     days datemultirange not null,
     primary key (workspace_id, prompt_id)
   )`,
  `create table daily_prompt_stats (
     workspace_id uuid not null,
     day date not null,
     prompt_id uuid not null,
     responses integer not null,
     primary key (workspace_id, day, prompt_id) include (responses)
   )`,
  // Responses mentioning a brand, per prompt and day.
  `create table daily_prompt_brand_stats (
     workspace_id uuid not null,
     brand_id uuid not null,
     day date not null,
     prompt_id uuid not null,
     responses integer not null,
     occurrences bigint not null,
     primary key (workspace_id, brand_id, day, prompt_id) include (responses, occurrences)
   )`,
  // mention_facts_idx (0003) leads with the same columns and covers more; one index fewer
  // to maintain on every ingested mention.
  `drop index if exists mention_created_idx`,
  // One prompt's facts over a period (GET /prompts/{id}, prompt_template_id filters).
  `create index response_prompt_idx on response (workspace_id, prompt_id, created_at) include (provider, model, sentiment)`,
  `create index mention_prompt_idx on mention (workspace_id, prompt_id, created_at) include (brand_id, provider, model, occurrences, position, sentiment, response_id)`,
  // A URL's latest title in a period is one backward probe.
  `create index citation_url_idx on citation (workspace_id, url, created_at) include (title, response_id)`,
  `create index citation_prompt_idx on citation (workspace_id, prompt_id, created_at) include (domain, url, provider, model, response_id)`,
]

const rowLevelSecurity = tenantTables.flatMap((table) => [
  `alter table ${table} enable row level security`,
  `alter table ${table} force row level security`,
  `create policy tenant_isolation on ${table} using (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) with check (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid)`,
])

// Existing data: every workspace's new rollups from its facts. Frozen SQL (migrations never
// import application code); later changes to the rollups ship as `beacon rollups rebuild`.
const backfill = [
  `insert into workspace_url (workspace_id, url, domain)
   select workspace_id, url, min(domain) from citation group by 1, 2 order by 1, 2
   on conflict (workspace_id, url) do nothing`,
  `insert into daily_domain_stats (workspace_id, day, domain, citations, responses, last_cited)
   select workspace_id, (created_at at time zone 'UTC')::date, domain, count(*), count(distinct response_id), max(created_at)
   from citation group by 1, 2, 3`,
  `insert into monthly_domain_stats (workspace_id, month, domain, citations, responses, last_cited)
   select workspace_id, date_trunc('month', day)::date, domain, sum(citations), sum(responses), max(last_cited)
   from daily_domain_stats group by 1, 2, 3`,
  `insert into daily_url_stats (workspace_id, day, url_id, citations, first_cited, last_cited)
   select c.workspace_id, (c.created_at at time zone 'UTC')::date, u.id, count(*), min(c.created_at), max(c.created_at)
   from citation c join workspace_url u on u.workspace_id = c.workspace_id and u.url = c.url
   group by 1, 2, 3`,
  `insert into monthly_url_stats (workspace_id, month, url_id, citations, first_cited, last_cited)
   select workspace_id, date_trunc('month', day)::date, url_id, sum(citations), min(first_cited), max(last_cited)
   from daily_url_stats group by 1, 2, 3`,
  ...[
    ['domain_prompt_days', 'domain, prompt_id', 'c.domain', 'c.prompt_id', 'citation c'],
    ['domain_provider_days', 'domain, provider', 'c.domain', 'c.provider', 'citation c'],
    ['url_provider_days', 'url_id, provider', 'u.id', 'c.provider', 'citation c join workspace_url u on u.workspace_id = c.workspace_id and u.url = c.url'],
  ].map(
    ([table, columns, subject, other, source]) => `insert into ${table} (workspace_id, ${columns}, days)
     select workspace_id, subject, other, range_agg(daterange(day, day, '[]'))
     from (
       select distinct c.workspace_id, ${subject} as subject, ${other} as other, (c.created_at at time zone 'UTC')::date as day
       from ${source}
     ) d
     group by 1, 2, 3`,
  ),
  `insert into daily_prompt_stats (workspace_id, day, prompt_id, responses)
   select workspace_id, (created_at at time zone 'UTC')::date, prompt_id, count(*) from response group by 1, 2, 3`,
  `insert into prompt_days (workspace_id, prompt_id, days)
   select workspace_id, prompt_id, range_agg(daterange(day, day, '[]')) from daily_prompt_stats group by 1, 2`,
  `insert into daily_brand_domain_stats (workspace_id, brand_id, day, domain, citations)
   select m.workspace_id, m.brand_id, (m.created_at at time zone 'UTC')::date, c.domain, count(*)
   from mention m join citation c on c.workspace_id = m.workspace_id and c.response_id = m.response_id
   group by 1, 2, 3, 4`,
  `insert into daily_prompt_brand_stats (workspace_id, brand_id, day, prompt_id, responses, occurrences)
   select workspace_id, brand_id, (created_at at time zone 'UTC')::date, prompt_id, count(*), sum(occurrences)
   from mention group by 1, 2, 3, 4`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
  for (const statement of backfill) await sql.raw(statement).execute(db)
  for (const statement of rowLevelSecurity) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists mention_created_idx on mention (workspace_id, created_at, brand_id)`.execute(db)
  for (const index of ['citation_url_idx', 'response_prompt_idx', 'mention_prompt_idx', 'citation_prompt_idx']) await sql.raw(`drop index if exists ${index}`).execute(db)
  for (const table of tenantTables) await sql.raw(`drop table if exists ${table}`).execute(db)
}
