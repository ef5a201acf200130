import { sql, type Kysely } from 'kysely'

// Competitor discovery (docs/uncertainty-and-discovery.md): the evidence behind a suggested brand. A suggestion is
// an ordinary brand row (discovery_status 'suggested', is_active false); this table holds
// why it was proposed: how many stored answers name it, when first, a few example snippets
// and the structural cues seen. One row per discovered brand, removed with the brand.
//
// `name_key` is the folded name the scan matched (lower case, no diacritics), kept apart from
// the brand's name so a rejected suggestion stays rejected even after it is renamed.
//
// Backfill: none is needed. brand.discovery_status exists since 0001 (not null, default
// 'confirmed'), so every brand configured before discovery is 'confirmed' and has no row
// here; its detail simply shows no discovery evidence. Frozen history: no application code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table brand_discovery (
      workspace_id uuid not null,
      brand_id uuid not null,
      name_key text not null,
      responses integer not null,
      score double precision not null,
      first_seen timestamptz not null,
      last_seen timestamptz not null,
      signals jsonb not null,
      examples jsonb not null,
      job_id uuid,
      updated_at timestamptz not null default now(),
      primary key (workspace_id, brand_id),
      foreign key (workspace_id, brand_id) references brand (workspace_id, id) on delete cascade
    )`.execute(db)
  await sql`create unique index brand_discovery_name_key_idx on brand_discovery (workspace_id, name_key)`.execute(db)
  const current = `nullif(current_setting('app.workspace_id', true), '')::uuid`
  await sql.raw(`alter table brand_discovery enable row level security`).execute(db)
  await sql.raw(`alter table brand_discovery force row level security`).execute(db)
  await sql.raw(`create policy tenant_isolation on brand_discovery using (workspace_id = ${current}) with check (workspace_id = ${current})`).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table brand_discovery`.execute(db)
}
