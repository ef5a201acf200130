import { sql, type Kysely } from 'kysely'

// Plain SQL so the same statements run on PostgreSQL and PGlite. Tenant tables are keyed
// (workspace_id, id) and every foreign key carries workspace_id, ready for Citus.
const statements = [
  `create table workspace (
     id uuid primary key,
     name text not null check (length(btrim(name)) > 0),
     tier text not null check (tier in ('basic', 'premium')),
     created_at timestamptz not null default now()
   )`,
  `create table api_key (
     workspace_id uuid not null references workspace (id) on delete cascade,
     id uuid not null,
     name text not null default '',
     key_prefix text not null,
     key_hash text not null,
     scopes text[] not null,
     created_at timestamptz not null default now(),
     expires_at timestamptz,
     revoked_at timestamptz,
     last_used_at timestamptz,
     primary key (workspace_id, id)
   )`,
  // Keys are looked up by hash before the workspace is known.
  `create unique index api_key_hash_idx on api_key (key_hash)`,
  `create table provider (
     id text primary key,
     name text not null
   )`,
  `insert into provider (id, name) values
     ('openai', 'OpenAI'), ('anthropic', 'Anthropic'), ('google', 'Google'), ('perplexity', 'Perplexity')`,
  `create table model (
     workspace_id uuid not null references workspace (id) on delete cascade,
     id text not null,
     provider text not null references provider (id),
     name text not null,
     created_at timestamptz not null default now(),
     primary key (workspace_id, id)
   )`,
  `create table brand (
     workspace_id uuid not null references workspace (id) on delete cascade,
     id uuid not null,
     name text not null check (length(btrim(name)) > 0),
     domain text,
     aliases text[] not null default '{}',
     icon_url text,
     is_primary boolean not null default false,
     is_active boolean not null default true,
     discovery_status text not null default 'confirmed' check (discovery_status in ('confirmed', 'suggested', 'rejected')),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     primary key (workspace_id, id)
   )`,
  `create unique index brand_one_primary_idx on brand (workspace_id) where is_primary`,
  `create unique index brand_name_idx on brand (workspace_id, lower(name))`,
  `create table prompt (
     workspace_id uuid not null references workspace (id) on delete cascade,
     id uuid not null,
     text text not null check (length(btrim(text)) > 0),
     tags text[] not null default '{}',
     is_active boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     primary key (workspace_id, id)
   )`,
  `create table response (
     workspace_id uuid not null,
     id uuid not null,
     prompt_id uuid not null,
     provider text not null references provider (id),
     model text not null,
     content text not null,
     created_at timestamptz not null,
     external_id text,
     sentiment double precision,
     ingested_at timestamptz not null default now(),
     primary key (workspace_id, id),
     foreign key (workspace_id, prompt_id) references prompt (workspace_id, id),
     foreign key (workspace_id, model) references model (workspace_id, id)
   )`,
  `create unique index response_external_id_idx on response (workspace_id, external_id) where external_id is not null`,
  `create index response_created_idx on response (workspace_id, created_at)`,
  `create table mention (
     workspace_id uuid not null,
     response_id uuid not null,
     brand_id uuid not null,
     prompt_id uuid not null,
     provider text not null,
     model text not null,
     created_at timestamptz not null,
     occurrences integer not null check (occurrences > 0),
     position integer not null check (position > 0),
     sentiment double precision,
     primary key (workspace_id, response_id, brand_id),
     foreign key (workspace_id, response_id) references response (workspace_id, id) on delete cascade,
     foreign key (workspace_id, brand_id) references brand (workspace_id, id) on delete cascade
   )`,
  `create index mention_created_idx on mention (workspace_id, created_at, brand_id)`,
  `create index mention_brand_idx on mention (workspace_id, brand_id, created_at)`,
  `create table citation (
     workspace_id uuid not null,
     response_id uuid not null,
     url text not null,
     domain text not null,
     title text not null default '',
     prompt_id uuid not null,
     provider text not null,
     model text not null,
     created_at timestamptz not null,
     primary key (workspace_id, response_id, url),
     foreign key (workspace_id, response_id) references response (workspace_id, id) on delete cascade
   )`,
  `create index citation_created_idx on citation (workspace_id, created_at)`,
  `create index citation_domain_idx on citation (workspace_id, domain, created_at)`,
  `create table aio_observation (
     workspace_id uuid not null,
     id uuid not null,
     prompt_id uuid not null,
     observed_at timestamptz not null,
     has_aio boolean not null,
     overview_text text,
     external_id text,
     ingested_at timestamptz not null default now(),
     primary key (workspace_id, id),
     foreign key (workspace_id, prompt_id) references prompt (workspace_id, id)
   )`,
  `create unique index aio_observation_external_id_idx on aio_observation (workspace_id, external_id) where external_id is not null`,
  `create index aio_observation_observed_idx on aio_observation (workspace_id, observed_at)`,
  `create table aio_appearance (
     workspace_id uuid not null,
     observation_id uuid not null,
     brand_id uuid not null,
     prompt_id uuid not null,
     observed_at timestamptz not null,
     position integer not null check (position > 0),
     primary key (workspace_id, observation_id, brand_id),
     foreign key (workspace_id, observation_id) references aio_observation (workspace_id, id) on delete cascade,
     foreign key (workspace_id, brand_id) references brand (workspace_id, id) on delete cascade
   )`,
  `create table export_log (
     workspace_id uuid not null references workspace (id) on delete cascade,
     id uuid not null default gen_random_uuid(),
     export_type text not null,
     created_at timestamptz not null default now(),
     primary key (workspace_id, id)
   )`,
  `create index export_log_created_idx on export_log (workspace_id, created_at)`,
]

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['export_log', 'aio_appearance', 'aio_observation', 'citation', 'mention', 'response', 'prompt', 'brand', 'model', 'provider', 'api_key', 'workspace']) {
    await sql.raw(`drop table if exists ${table} cascade`).execute(db)
  }
}
