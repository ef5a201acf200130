import { sql, type Kysely } from 'kysely'

// The URL rollups by calendar quarter and year (issue 32, point 4: /urls-detailed for a
// year within 2x /sources). Ranking a year's cited URLs summed eleven or twelve rows of
// monthly_url_stats per URL: on 300,000 responses (PostgreSQL 15, loaded 2-core machine)
// 68,000 rows for 12,500 URLs, 55-60 ms of the route's database time, where /sources sums
// 4,100 rows of monthly_domain_stats. A range ending today reads the current year's row
// per URL (nothing lies after today), the whole quarters and months before it and a few
// loose days. Same columns and merge rules as the monthly table (sum, min, max), folded
// from it here; the rollup engine keeps both from then on (src/rollups/families/url-stats.ts).
const tiers = [
  ['quarterly_url_stats', 'quarter'],
  ['yearly_url_stats', 'year'],
] as const

const statements = [
  ...tiers.flatMap(([table, bucket]) => [
    `create table ${table} (
       workspace_id uuid not null,
       ${bucket} date not null,
       url_id bigint not null,
       citations integer not null,
       first_cited timestamptz not null,
       last_cited timestamptz not null,
       primary key (workspace_id, ${bucket}, url_id) include (citations, first_cited, last_cited)
     )`,
    `insert into ${table} (workspace_id, ${bucket}, url_id, citations, first_cited, last_cited)
       select workspace_id, date_trunc('${bucket}', month)::date, url_id, sum(citations), min(first_cited), max(last_cited)
       from monthly_url_stats group by 1, 2, 3`,
    // As every tenant table (0004-row-level-security.ts).
    `alter table ${table} enable row level security`,
    `alter table ${table} force row level security`,
    `create policy tenant_isolation on ${table} using (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid) with check (workspace_id = nullif(current_setting('app.workspace_id', true), '')::uuid)`,
  ]),
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table] of tiers) await sql.raw(`drop table if exists ${table}`).execute(db)
}
