import { sql, type Kysely } from 'kysely'

// The distinct cited domains of a dashboard read with tags or models (issue 32: rollup-served
// reads at 10M within 1.5x of 1M). No rollup carried domain × tag, so the count probed the
// citation index once per domain the workspace was ever cited for, after a lookup of the
// tagged prompts, and the probes' cost followed the citations in range: /dashboard for a
// year with two tags and two providers took 51 ms at 1M responses and 246 ms at 3M (on 100k
// and 300k the probes read 989 and 1,313 buffers). This table keeps, per single prompt tag
// × provider × model × domain, the days the domain was cited (a datemultirange, like
// domain_provider_days of 0007): the count is one overlap test per row, and there are at
// most tags × models × domains rows however many facts there are. One tag per row, not the
// prompt's tag set: a distinct count over the single-tag rows a tags filter selects is
// exact, and tag sets multiply the rows (about 120 sets of the benchmark's 10 tags). `tag`
// holds the one tag, or '' for an untagged prompt (matching no tags filter). The tag leads
// the key: a tags filter reads its tags' rows as one index range each (on 300k responses 154
// buffers, against 610 with the provider first, which read every row of the filter's
// providers and dropped four in five on the tags). Plain text, not a one-element text[]:
// under row-level security (the app role) only leakproof operators may become index
// conditions, and text equality is leakproof where array equality is not (with an array the
// read scanned the workspace's rows: 150-280 ms at 1M responses against 27 ms).
//
// The backfill is the family's select over every workspace's facts, in SQL, so the table is
// complete as soon as the migration has run (18 s on 100k responses and 63 s on 300k on a
// loaded 2-core machine).
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

const statements = [
  `create table domain_tag_days (
     workspace_id uuid not null,
     tag text not null,
     provider text not null,
     model text not null,
     domain text not null,
     days datemultirange not null,
     primary key (workspace_id, tag, provider, model, domain)
   )`,
  `insert into domain_tag_days (workspace_id, tag, provider, model, domain, days)
   select d.workspace_id, d.tag, d.provider, d.model, d.domain, range_agg(daterange(d.day, d.day, '[]'))
   from (
     select distinct c.workspace_id, t.tag, c.provider, c.model, c.domain, (c.created_at at time zone 'UTC')::date as day
     from citation c
     join prompt p on p.workspace_id = c.workspace_id and p.id = c.prompt_id
     cross join lateral (select u.tag from unnest(p.tags) as u(tag) union all select '' where cardinality(p.tags) = 0) t
   ) d
   group by 1, 2, 3, 4, 5`,
  `alter table domain_tag_days enable row level security`,
  `alter table domain_tag_days force row level security`,
  `create policy tenant_isolation on domain_tag_days using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists domain_tag_days`.execute(db)
}
