import { sql, type Kysely } from 'kysely'

// The fact tables' covering indexes predate the rollups and had grown larger than the
// tables: at 1M responses (+180k in other workspaces) 3.9 GB of index against 2.0 GB of heap,
// about a quarter of the dataset's build time, and every ingested row maintains them
// (issue 32). Since 0007-0025 the rollups serve every default read; these indexes are read
// only by the computed fallbacks (filters no rollup serves), exports, the digest and one
// title probe. Audited with bench/fact-index-audit.ts on a copy of the 1M dataset (each
// statement explained with and without them in one run):
//
// - citation_domain_facts_idx (0010) covered the dashboard's distinct-source count under
//   models/tags, which domain_tag_days (0023) now serves; nothing reads its INCLUDE columns
//   any more. Back to 0010's predecessor, the plain (workspace_id, domain, created_at).
// - mention_facts_idx (0003) fed the dashboard's mention reads (now rollups); today only
//   exports and the prompts/brand fallbacks read it. Mentions sit on the heap in the order
//   their responses arrived, so a period is a bitmap scan over a narrow (workspace_id,
//   created_at) index on nearly the same pages.
// - citation_prompt_idx, mention_prompt_idx (0007): one prompt's facts over a period are a
//   few hundred rows; fetching them from the heap costs a few hundred buffers, not the
//   covering copy of every citation's domain, url, provider, model and response.
// - citation_url_idx (0007): the latest title of a URL is one backward probe on
//   (workspace_id, url, created_at) and a heap fetch, as before but for the fetch.
//
// Keys stay as they were, so every plan keeps its index range; only the copies of the
// other columns go. Measured on a copy of the 1M dataset (bench/results/2026-11-27-fact-
// indexes-0026.json): the fact indexes 4,049 → 2,198 MB (3.2 → 1.7 GB per million answers),
// their builds 235 → 168 s; one prompt's year of facts 228-386 → 4,528-5,355 buffers
// (22 → 48 ms, 23 → 59 ms), the domain_tag_days rebuild a sequential scan (82 → 48-63 s).
// This migration took 82 s there (down: 117 s).
const covering = {
  citation_domain_facts_idx: sql`create index citation_domain_facts_idx on citation (workspace_id, domain, created_at) include (provider, model, prompt_id)`,
  mention_facts_idx: sql`create index mention_facts_idx on mention (workspace_id, created_at) include (brand_id, provider, model, prompt_id, occurrences, position, sentiment, response_id)`,
  citation_prompt_idx: sql`create index citation_prompt_idx on citation (workspace_id, prompt_id, created_at) include (domain, url, provider, model, response_id)`,
  mention_prompt_idx: sql`create index mention_prompt_idx on mention (workspace_id, prompt_id, created_at) include (brand_id, provider, model, occurrences, position, sentiment, response_id)`,
  citation_url_idx: sql`create index citation_url_idx on citation (workspace_id, url, created_at) include (title, response_id)`,
}

const narrow = {
  citation_domain_idx: sql`create index citation_domain_idx on citation (workspace_id, domain, created_at)`,
  mention_created_idx: sql`create index mention_created_idx on mention (workspace_id, created_at)`,
  citation_prompt_idx: sql`create index citation_prompt_idx on citation (workspace_id, prompt_id, created_at)`,
  mention_prompt_idx: sql`create index mention_prompt_idx on mention (workspace_id, prompt_id, created_at)`,
  citation_url_idx: sql`create index citation_url_idx on citation (workspace_id, url, created_at)`,
}

// The old indexes are dropped before the new ones are built: the disk never holds both sets
// (2.8 GB and 0.9 GB at 1M responses).
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(covering)) await sql`drop index if exists ${sql.ref(name)}`.execute(db)
  for (const statement of Object.values(narrow)) await statement.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(narrow)) await sql`drop index if exists ${sql.ref(name)}`.execute(db)
  for (const statement of Object.values(covering)) await statement.execute(db)
}
