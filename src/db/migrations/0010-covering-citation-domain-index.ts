import { sql, type Kysely } from 'kysely'

// The dashboard's distinct-source count under model or tag filters probes each domain's
// citations in the period for one matching the filters. With the filter columns in the
// index the probe never visits the table: a year under tags + models went from about
// 46 ms of heap reads to an index-only scan.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index citation_domain_facts_idx on citation (workspace_id, domain, created_at) include (provider, model, prompt_id)`.execute(db)
  await sql`drop index if exists citation_domain_idx`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists citation_domain_idx on citation (workspace_id, domain, created_at)`.execute(db)
  await sql`drop index if exists citation_domain_facts_idx`.execute(db)
}
