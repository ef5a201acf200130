// dashboard-graph: the dashboard's brand metrics per day, every date of the range × every
// active brand, zero-filled (docs/metrics.md, docs/exports.md).
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../../db/database.js'
import { addDays, rangeBounds } from '../../core/date-range.js'
import type { ExportDefinition, ExportFilters, ExportRow } from '../export-types.js'
import { keysetAfter, utcDay } from '../sql-fragments.js'
import { responseFilterConditions } from '../../queries/analytics-filters.js'
import { measureWith } from './measure-rows.js'

const columns = [
  { name: 'date', type: 'date', nullable: false, description: 'Day (UTC), YYYY-MM-DD' },
  { name: 'brand_name', type: 'string', nullable: false, description: 'Name of an active brand' },
  {
    name: 'visibility_score',
    type: 'float',
    nullable: false,
    rounding: 'score',
    description: "0-100: share of that day's responses (matching the filters) that mention the brand, 2 decimals; 0 when the day has none",
  },
  { name: 'mention_count', type: 'integer', nullable: false, description: 'Occurrences of the brand in that day’s responses' },
  {
    name: 'sentiment_avg',
    type: 'float',
    nullable: false,
    rounding: 'sentiment',
    description: 'Mean brand sentiment (-1 to 1) over that day’s responses mentioning it, 3 decimals; 0 when none',
  },
  {
    name: 'position_avg',
    type: 'float',
    nullable: false,
    rounding: 'position',
    description: 'Mean position (1 = named first) over that day’s responses mentioning it, 2 decimals; 0 when none',
  },
] as const satisfies ExportDefinition['columns']

function rows(workspaceId: string, filters: ExportFilters): RawBuilder<ExportRow> {
  return sql<ExportRow>`
    with days as (
      select to_char(d, 'YYYY-MM-DD') as date
      from generate_series(${filters.range.start}::date, ${filters.range.end}::date, interval '1 day') as d
    ),
    brands as (
      select id, name from brand where workspace_id = ${workspaceId} and is_active
    ),
    totals as (
      select ${utcDay(sql.ref('r.created_at'))} as date, count(*) as responses
      from response r
      where ${responseFilterConditions('r', workspaceId, filters)}
      group by 1
    ),
    facts as (
      select ${utcDay(sql.ref('m.created_at'))} as date, m.brand_id, count(*) as responses,
        sum(m.occurrences) as mentions, avg(m.sentiment) as sentiment, avg(m.position) as position
      from mention m
      where ${responseFilterConditions('m', workspaceId, filters)}
      group by 1, 2
    )
    select days.date, brands.name as brand_name,
      case when t.responses > 0 then 100.0 * coalesce(f.responses, 0) / t.responses else 0 end as visibility_score,
      coalesce(f.mentions, 0) as mention_count,
      coalesce(f.sentiment, 0) as sentiment_avg,
      coalesce(f.position, 0) as position_avg
    from days
    cross join brands
    left join totals t on t.date = days.date
    left join facts f on f.date = days.date and f.brand_id = brands.id`
}

export const dashboardGraphExport: ExportDefinition = {
  type: 'dashboard-graph',
  title: 'Dashboard graph',
  summary:
    'The dashboard brand metrics per day: one row for every date of the period and every active brand, zero-filled (filtered by provider and prompt tags). Ordered by date, then brand_name.',
  columns,
  formatOptions: true,
  batchRows: 2000,
  hasContentFilter: false,
  incremental: { supported: true, key: 'date' },

  source(db: DB, workspaceId, filters) {
    return {
      all: () => sql<ExportRow>`select * from (${rows(workspaceId, filters)}) as t order by t.date, t.brand_name collate "C"`.compile(db),
      page(after: ExportRow | null, limit: number) {
        // A page never needs more than `limit + 1` days from where the last one stopped (at
        // least one row per day), so each page aggregates that window, not the whole period.
        const start = after ? String(after.date) : filters.range.start
        const end = [filters.range.end, addDays(start, limit)].sort()[0]
        const window = { ...filters, range: { start, end }, ...rangeBounds({ start, end }) }
        const where = after ? sql`where ${keysetAfter([sql`t.date`, sql`t.brand_name collate "C"`], [after.date, after.brand_name])}` : sql``
        return sql<ExportRow>`select * from (${rows(workspaceId, window)}) as t ${where} order by t.date, t.brand_name collate "C" limit ${limit}`.compile(db)
      },
    }
  },

  measure(db, workspaceId, filters) {
    return measureWith(db, workspaceId, filters, rows(workspaceId, filters), columns)
  },
}
