import { sql, type Kysely } from 'kysely'

// Query fan-out (docs/collection.md): the web searches an engine ran itself while writing an
// answer (OpenAI web_search_call actions, Anthropic server_tool_use inputs, Gemini
// webSearchQueries, Perplexity's search queries), one row per distinct search of an answer,
// in the order the engine ran them. The answer's filter columns (prompt, provider, model,
// created_at) sit beside it as on mention and citation, so the ranking in
// GET /api/v1/search-queries reads this table alone.
// - query: as the engine sent it (shown on the answer); query_key: its grouping form
//   (NFKC, lower case, spaces collapsed), written by the application.
// - The covering index on (workspace_id, created_at) answers the ranking of a period, with
//   or without provider/model/prompt filters, by an index-only scan; queries are cut at 400
//   characters by the application so a key always fits a btree entry.
// Deleted with its answer (foreign key), and with the workspace's data (a tenant table).
// Tenant table with the same row-level security as the others (0004, 0014).
// Frozen history: no application code imported here.
const CURRENT = `nullif(current_setting('app.workspace_id', true), '')::uuid`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table search_query (
      workspace_id uuid not null,
      response_id uuid not null,
      position integer not null check (position > 0),
      query text not null,
      query_key text not null,
      prompt_id uuid not null,
      provider text not null,
      model text not null,
      created_at timestamptz not null,
      primary key (workspace_id, response_id, position),
      foreign key (workspace_id, response_id) references response (workspace_id, id) on delete cascade
    )`.execute(db)
  await sql`create index search_query_period_idx on search_query (workspace_id, created_at) include (query_key, provider, model, prompt_id)`.execute(db)
  await sql`alter table search_query enable row level security`.execute(db)
  await sql`alter table search_query force row level security`.execute(db)
  await sql.raw(`create policy tenant_isolation on search_query using (workspace_id = ${CURRENT}) with check (workspace_id = ${CURRENT})`).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists search_query`.execute(db)
}
