// prompts-mentions: every (prompt, active brand) with at least one mention in range (docs/exports.md).
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import type { ExportDefinition, ExportFilters, ExportRow } from '../export-types.js'
import { keysetAfter } from '../sql-fragments.js'
import { responseFilterConditions } from '../../queries/analytics-filters.js'
import { measureWith } from './measure-rows.js'

const columns = [
  { name: 'prompt_id', type: 'uuid', nullable: false, description: 'Prompt template ID' },
  { name: 'prompt_text', type: 'string', nullable: false, description: 'Text of the prompt template' },
  { name: 'brand_name', type: 'string', nullable: false, description: 'Name of an active brand mentioned in responses to the prompt' },
  { name: 'mention_count', type: 'integer', nullable: false, description: 'Occurrences of the brand in the responses to the prompt' },
  {
    name: 'avg_sentiment',
    type: 'float',
    nullable: true,
    rounding: 'sentiment',
    description: 'Mean brand sentiment (-1 to 1) over the responses mentioning it, 3 decimals; empty if none of them has a sentiment',
  },
  { name: 'avg_position', type: 'float', nullable: false, rounding: 'position', description: 'Mean position (1 = named first) over the responses mentioning it, 2 decimals' },
] as const satisfies ExportDefinition['columns']

function rows(workspaceId: string, filters: ExportFilters): RawBuilder<ExportRow> {
  // Aggregate the facts first, then attach the two names: one join row per group.
  return sql<ExportRow>`
    select f.prompt_id, p.text as prompt_text, b.name as brand_name, f.mention_count, f.avg_sentiment, f.avg_position
    from (
      select m.prompt_id, m.brand_id, sum(m.occurrences) as mention_count, avg(m.sentiment) as avg_sentiment, avg(m.position) as avg_position
      from mention m
      where ${responseFilterConditions('m', workspaceId, filters)}
      group by m.prompt_id, m.brand_id
    ) as f
    join prompt p on p.workspace_id = ${workspaceId} and p.id = f.prompt_id
    join brand b on b.workspace_id = ${workspaceId} and b.id = f.brand_id
    where b.is_active`
}

const ORDER = sql`order by t.prompt_text collate "C", t.prompt_id, t.brand_name collate "C"`

export const promptsMentionsExport: ExportDefinition = {
  type: 'prompts-mentions',
  title: 'Prompts and mentions',
  summary:
    'Brand mentions per prompt template: one row for every (prompt, active brand) pair with at least one mention in the period (filtered by provider and prompt tags). Ordered by prompt_text, then prompt_id, then brand_name.',
  columns,
  formatOptions: true,
  batchRows: 2000,
  hasContentFilter: false,
  // An aggregate over the whole period: rows change as responses arrive, so no append key.
  incremental: { supported: false, key: '' },

  source(db: DB, workspaceId, filters) {
    const query = rows(workspaceId, filters)
    return {
      all: () => sql<ExportRow>`select * from (${query}) as t ${ORDER}`.compile(db),
      page(after: ExportRow | null, limit: number) {
        const where = after
          ? sql`where ${keysetAfter(
              [sql`t.prompt_text collate "C"`, sql`t.prompt_id`, sql`t.brand_name collate "C"`],
              [after.prompt_text, sql`${after.prompt_id}::uuid`, after.brand_name],
            )}`
          : sql``
        return sql<ExportRow>`select * from (${query}) as t ${where} ${ORDER} limit ${limit}`.compile(db)
      },
    }
  },

  measure(db, workspaceId, filters) {
    return measureWith(db, workspaceId, filters, rows(workspaceId, filters), columns)
  },
}
