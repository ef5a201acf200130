// The dashboard of spec 4.1 with the metric definitions of docs/metrics.md. Sums over the exact
// monthly and daily rollups (every filter is a rollup column) and the distinct sources, in
// one statement; nothing is counted in JS.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { DateRange } from '../../core/date-range.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { distinctDomainsFromRollup, rollupRowsInRange, totalResponsesFromRollup } from '../rollup-conditions.js'
import { percentage, roundPosition, roundSentiment } from '../rounding.js'
import { prepared } from '../../db/prepared-statements.js'

export interface BrandMetrics {
  visibility_score: number
  sentiment_avg: number
  position_avg: number
  mention_count: number
}

export interface Dashboard {
  brands: Record<string, BrandMetrics>
  total_mentions: number
  total_sources: number
  date_range: DateRange
}

interface DashboardRow {
  total_responses: number
  total_sources: number
  /** null on the one row of a workspace without active brands */
  id: string | null
  name: string | null
  responses: number | null
  occurrences: number | null
  sentiment_sum: number | null
  sentiment_count: number | null
  position_sum: number | null
}

export async function getDashboard(db: DB, workspaceId: string, filters: AnalyticsFilters): Promise<Dashboard> {
  // One statement: on PostgreSQL a request's queries share one connection, so each extra
  // statement is a round trip and a plan (the computed dashboard's throughput was bound by
  // them). Distinct sources come from the day sets of cited domains under any filters.
  const sourcesSql = distinctDomainsFromRollup(workspaceId, filters)
  const statement = sql<DashboardRow>`
      with mentions as (
        select s.brand_id, sum(s.responses) as responses, sum(s.occurrences) as occurrences, sum(s.sentiment_sum) as sentiment_sum,
          sum(s.sentiment_count) as sentiment_count, sum(s.position_sum) as position_sum
        from ${rollupRowsInRange('brands', workspaceId, filters, ['brand_id', 'responses', 'occurrences', 'sentiment_sum', 'sentiment_count', 'position_sum'])} s
        group by s.brand_id
      )
      select t.total_responses, t.total_sources, b.id, b.name, m.responses, m.occurrences, m.sentiment_sum, m.sentiment_count, m.position_sum
      from (
        select ${totalResponsesFromRollup(workspaceId, filters)} as total_responses,
          ${sourcesSql} as total_sources
      ) t
      left join (brand b left join mentions m on m.brand_id = b.id) on b.workspace_id = ${workspaceId} and b.is_active
      -- Byte order, not the server's collation: both backends must list brands alike.
      order by b.is_primary desc, lower(b.name) collate "C", b.id`
  // Without tags every read is by workspace and date range, planned alike for any values:
  // prepared once per connection (src/db/prepared-statements.ts). A tags filter is planned
  // for its tags.
  const { rows } = await (filters.tags.length ? statement : prepared(statement)).execute(db)
  const totalResponses = Number(rows[0]?.total_responses ?? 0)
  const map: Record<string, BrandMetrics> = {}
  let totalMentions = 0
  // Only active brands make the map; a mention of a brand deactivated since is left out.
  for (const row of rows) {
    if (row.name === null) continue
    const mentionCount = Number(row.occurrences ?? 0)
    totalMentions += mentionCount
    map[row.name] = {
      visibility_score: percentage(Number(row.responses ?? 0), totalResponses),
      // Means over the responses that mention the brand; null sentiments were never summed.
      sentiment_avg: Number(row.sentiment_count ?? 0) > 0 ? roundSentiment(Number(row.sentiment_sum) / Number(row.sentiment_count)) : 0,
      position_avg: Number(row.responses ?? 0) > 0 ? roundPosition(Number(row.position_sum) / Number(row.responses)) : 0,
      mention_count: mentionCount,
    }
  }
  return { brands: map, total_mentions: totalMentions, total_sources: Number(rows[0]?.total_sources ?? 0), date_range: filters.range }
}
