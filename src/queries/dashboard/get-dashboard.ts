// The dashboard of spec 4.1 with the metric definitions of DESIGN §7. Sums over the exact
// monthly and daily rollups (every filter is a rollup column) and a per-domain probe for distinct
// sources, run together; nothing is counted in JS.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { DateRange } from '../../http/date-range.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { countDistinctDomains, rollupRowsInRange } from '../rollup-conditions.js'
import { percentage, roundPosition, roundSentiment } from '../rounding.js'

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

export async function getDashboard(db: DB, workspaceId: string, filters: AnalyticsFilters): Promise<Dashboard> {
  const [brands, mentions, responses, sources] = await Promise.all([
    db
      .selectFrom('brand')
      .select(['id', 'name'])
      .where('workspace_id', '=', workspaceId)
      .where('is_active', '=', true)
      // Byte order, not the server's collation: both backends must list brands alike.
      .orderBy('is_primary', 'desc')
      .orderBy(sql`lower(name) collate "C"`)
      .orderBy('id')
      .execute(),
    sql<{ brand_id: string; responses: number; occurrences: number; sentiment_sum: number; sentiment_count: number; position_sum: number }>`
      select s.brand_id, sum(s.responses) as responses, sum(s.occurrences) as occurrences, sum(s.sentiment_sum) as sentiment_sum,
        sum(s.sentiment_count) as sentiment_count, sum(s.position_sum) as position_sum
      from ${rollupRowsInRange('brands', workspaceId, filters, ['brand_id', 'responses', 'occurrences', 'sentiment_sum', 'sentiment_count', 'position_sum'])} s
      group by s.brand_id`
      .execute(db)
      .then((result) => result.rows),
    sql<{ n: number }>`select coalesce(sum(s.responses), 0) as n from ${rollupRowsInRange('responses', workspaceId, filters, ['responses'])} s`
      .execute(db)
      .then((result) => result.rows[0]),
    countDistinctDomains(db, workspaceId, filters),
  ])

  const byBrand = new Map(mentions.map((row) => [row.brand_id, row]))
  const map: Record<string, BrandMetrics> = {}
  let totalMentions = 0
  // Only active brands make the map; a mention of a brand deactivated since is left out.
  for (const brand of brands) {
    const row = byBrand.get(brand.id)
    const mentionCount = Number(row?.occurrences ?? 0)
    totalMentions += mentionCount
    map[brand.name] = {
      visibility_score: percentage(Number(row?.responses ?? 0), Number(responses.n)),
      // Means over the responses that mention the brand; null sentiments were never summed.
      sentiment_avg: row && Number(row.sentiment_count) > 0 ? roundSentiment(Number(row.sentiment_sum) / Number(row.sentiment_count)) : 0,
      position_avg: row && Number(row.responses) > 0 ? roundPosition(Number(row.position_sum) / Number(row.responses)) : 0,
      mention_count: mentionCount,
    }
  }
  return { brands: map, total_mentions: totalMentions, total_sources: sources, date_range: filters.range }
}
