// chat-responses: one row per response in range, full text, the brands it names (docs/exports.md).
import { sql, type CompiledQuery, type Expression, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import type { ExportDefinition, ExportFilters, ExportRow } from '../export-types.js'
import { csvTextBytes, isoDateTime, keysetAfter, numberBytes } from '../sql-fragments.js'
import { responseFilterConditions } from '../../queries/analytics-filters.js'

const columns = [
  { name: 'id', type: 'uuid', nullable: false, description: 'Response ID' },
  { name: 'provider', type: 'string', nullable: false, description: 'AI provider: openai, anthropic, google or perplexity' },
  { name: 'model', type: 'string', nullable: false, description: 'Model ID' },
  { name: 'prompt_id', type: 'uuid', nullable: false, description: 'Prompt template ID' },
  { name: 'prompt_text', type: 'string', nullable: false, description: 'Text of the prompt template' },
  { name: 'response_text', type: 'string', nullable: false, description: 'Full content of the response' },
  {
    name: 'mentions',
    type: 'json',
    nullable: false,
    description: 'JSON array of the names of the active brands the response mentions, in order of first appearance (position), ties by name; [] when none',
  },
  {
    name: 'sentiment',
    type: 'float',
    nullable: true,
    rounding: 'sentiment',
    description: 'Sentiment of the whole response, -1 to 1, 3 decimals; empty when the response has no text',
  },
  { name: 'created_at', type: 'datetime', nullable: false, description: 'When the response was produced, ISO 8601 UTC' },
] as const satisfies ExportDefinition['columns']

// Fixed bytes of every record: two UUIDs, the datetime, 8 commas and CRLF (plus "[]" below).
const FIXED_RECORD_BYTES = 36 + 36 + 24 + 8 + 2

function contentCondition(alias: string, filters: ExportFilters): Expression<SqlBool> | undefined {
  if (filters.hasContent === true) return sql<SqlBool>`${sql.ref(`${alias}.content`)} <> ''`
  if (filters.hasContent === false) return sql<SqlBool>`${sql.ref(`${alias}.content`)} = ''`
  return undefined
}

function rows(db: DB, workspaceId: string, filters: ExportFilters) {
  const content = contentCondition('r', filters)
  return (
    db
      // The active brands' names by id, looked up once: joining brand for every mention was a
      // quarter of PostgreSQL's time on a year's export (1M responses: 8.9 s -> 8.0 s).
      .with(
        (cte) => cte('brand_names').materialized(),
        (qb) =>
          qb
            .selectFrom('brand')
            .select(sql<unknown>`jsonb_object_agg(id, name)`.as('names'))
            .where('workspace_id', '=', workspaceId)
            .where('is_active', '=', true),
      )
      .selectFrom('response as r')
      .innerJoin('prompt as p', (join) => join.onRef('p.workspace_id', '=', 'r.workspace_id').onRef('p.id', '=', 'r.prompt_id'))
      .select([
        'r.id',
        'r.provider',
        'r.model',
        'r.prompt_id',
        'p.text as prompt_text',
        'r.content as response_text',
        // Per response through the mention primary key, so the first rows stream at once.
        sql<string[]>`array(
          select n.name from mention m
          cross join lateral (select bn.names ->> m.brand_id::text as name from brand_names bn) n
          where m.workspace_id = r.workspace_id and m.response_id = r.id and n.name is not null
          order by m.position, n.name collate "C")`.as('mentions'),
        'r.sentiment',
        isoDateTime(sql.ref('r.created_at')).as('created_at'),
      ])
      .where(responseFilterConditions('r', workspaceId, filters))
      .$if(content !== undefined, (qb) => qb.where(content!))
      .orderBy('r.created_at')
      .orderBy('r.id')
  )
}

/**
 * The whole file in one query, for COPY (copy-export.ts). The same rows and cells as rows(),
 * but each response's brand names come from one ordered pass over the range's mentions,
 * merge-joined to the responses on (created_at, id) — a mention carries its response's
 * created_at (ingestion and re-analysis copy it) — instead of an index probe, a sort and
 * an array per response: on a year of 300,000 responses that probe was over half of
 * PostgreSQL's time for the file. rows() keeps the probe, which pages need (a page would
 * otherwise aggregate the whole range's mentions).
 */
function fileRows(db: DB, workspaceId: string, filters: ExportFilters): CompiledQuery<ExportRow> {
  const content = contentCondition('r', filters)
  return sql<ExportRow>`
    with brand_names as materialized (
      select jsonb_object_agg(id, name) as names from brand where workspace_id = ${workspaceId} and is_active = true
    ),
    mention_names as (
      -- array_agg takes its input in the order of the sorted subquery (a subquery with an
      -- ORDER BY is planned on its own and keeps it); an ORDER BY inside array_agg would
      -- sort each response's few names apart, 300,000 small sorts.
      select n.created_at, n.response_id, array_agg(n.name) filter (where n.name is not null) as names
      from (
        select m.created_at, m.response_id, (bn.names ->> m.brand_id::text) collate "C" as name
        from mention m cross join brand_names bn
        where ${responseFilterConditions('m', workspaceId, filters)}
        order by m.created_at, m.response_id, m.position, name
      ) n
      group by n.created_at, n.response_id
    )
    select r.id, r.provider, r.model, r.prompt_id, p.text as prompt_text, r.content as response_text,
      coalesce(mn.names, '{}') as mentions, r.sentiment, ${isoDateTime(sql.ref('r.created_at'))} as created_at
    from response r
    join prompt p on p.workspace_id = r.workspace_id and p.id = r.prompt_id
    left join mention_names mn on mn.created_at = r.created_at and mn.response_id = r.id
    where ${responseFilterConditions('r', workspaceId, filters)} ${content ? sql`and ${content}` : sql``}
    order by r.created_at, r.id
  `.compile(db)
}

export const chatResponsesExport: ExportDefinition = {
  type: 'chat-responses',
  title: 'Chat responses',
  summary:
    'One row per AI response in the period (filtered by provider, prompt tags and has_content), with its full text and the brands it mentions. Ordered by created_at, then id.',
  columns,
  formatOptions: true,
  // Full answers run to kilobytes: with 100 rows in flight the server's heap stays flat
  // (measured: 500 rows let ~100 MB of promoted garbage build up on a 370 MB export).
  batchRows: 100,
  hasContentFilter: true,
  incremental: { supported: true, key: 'created_at' },

  source(db, workspaceId, filters) {
    return {
      all: () => fileRows(db, workspaceId, filters),
      page(after: ExportRow | null, limit: number) {
        // created_at as text keeps its microseconds, which the ISO column rounds away.
        let query = rows(db, workspaceId, filters).select(sql<string>`r.created_at::text`.as('_after_created_at'))
        if (after) {
          query = query.where(keysetAfter([sql`r.created_at`, sql`r.id`], [sql`${after._after_created_at}::timestamptz`, sql`${after.id}::uuid`]))
        }
        return query.limit(limit).compile()
      },
    }
  },

  // Cheap: sizes the stored text (octet_length needs no detoasting) per prompt and model,
  // and the mentions JSON from the mention rows; it does not build a single row.
  async measure(db, workspaceId, filters) {
    const content = contentCondition('response', filters)
    const responses = db
      .selectFrom('response')
      .select((eb) => [
        'prompt_id',
        'provider',
        'model',
        eb.fn.countAll<number>().as('n'),
        // Long answers nearly always hold a comma or a newline, so count their quotes.
        sql<number>`sum(octet_length(content) + case when content = '' then 0 else 2 end)`.as('content_bytes'),
        sql<number>`sum(${numberBytes(sql.ref('sentiment'), 3)})`.as('sentiment_bytes'),
        eb.fn.max('ingested_at').as('last_updated'),
      ])
      .where(responseFilterConditions('response', workspaceId, filters))
      .$if(content !== undefined, (qb) => qb.where(content!))
      .groupBy(['prompt_id', 'provider', 'model'])
    const [totals, mentions] = await Promise.all([
      db
        .selectFrom(responses.as('g'))
        .innerJoin('prompt as p', (join) => join.on('p.workspace_id', '=', workspaceId).onRef('p.id', '=', 'g.prompt_id'))
        .select([
          sql<number>`coalesce(sum(g.n), 0)`.as('rows'),
          sql<number>`coalesce(sum(
            g.n * (${sql.lit(FIXED_RECORD_BYTES + 2)} + ${csvTextBytes(sql.ref('p.text'))} + ${csvTextBytes(sql.ref('g.provider'))} + ${csvTextBytes(sql.ref('g.model'))})
            + g.content_bytes + g.sentiment_bytes), 0)`.as('bytes'),
          sql<Date | null>`max(g.last_updated)`.as('last_updated'),
        ])
        .executeTakeFirstOrThrow(),
      // Empty responses mention nobody.
      filters.hasContent === false
        ? { responses: 0, mentions: 0, name_bytes: 0 }
        : db
            .selectFrom('mention as m')
            .innerJoin('brand as b', (join) => join.onRef('b.workspace_id', '=', 'm.workspace_id').onRef('b.id', '=', 'm.brand_id'))
            .select([
              sql<number>`count(distinct m.response_id)`.as('responses'),
              sql<number>`count(*)`.as('mentions'),
              sql<number>`coalesce(sum(octet_length(b.name)), 0)`.as('name_bytes'),
            ])
            .where(responseFilterConditions('m', workspaceId, filters))
            .where('b.is_active', '=', true)
            .executeTakeFirstOrThrow(),
    ])
    // Every row was counted with "[]" (2 bytes) above. A list of n names is the quoted CSV
    // of a JSON array, "[""A"",""B""]": 3 + Σ(name + 5) bytes, so 1 + Σ(name + 5) more.
    const mentionBytes = Number(mentions.responses) + 5 * Number(mentions.mentions) + Number(mentions.name_bytes)
    return {
      rows: Number(totals.rows),
      bytes: Number(totals.bytes) + mentionBytes,
      lastUpdated: totals.last_updated ? new Date(totals.last_updated) : null,
    }
  },
}
