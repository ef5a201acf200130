// The dashboard of spec 4.1 with the metric definitions of DESIGN §7. Sums over the exact
// daily rollups (every filter is a rollup column) and a per-domain probe for distinct
// sources, run together; nothing is counted in JS.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { DateRange } from '../../http/date-range.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { countDistinctDomains, rollupConditions, rollupTables } from '../rollup-conditions.js'
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
  const tables = rollupTables(filters)
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
    db
      .selectFrom(`${tables.brands} as s` as 'daily_mention_stats as s')
      .select((eb) => [
        's.brand_id',
        eb.fn.sum<number>('s.responses').as('responses'),
        eb.fn.sum<number>('s.occurrences').as('occurrences'),
        eb.fn.sum<number>('s.sentiment_sum').as('sentiment_sum'),
        eb.fn.sum<number>('s.sentiment_count').as('sentiment_count'),
        eb.fn.sum<number>('s.position_sum').as('position_sum'),
      ])
      .where(rollupConditions('s', workspaceId, filters))
      .groupBy('s.brand_id')
      .execute(),
    db
      .selectFrom(`${tables.responses} as s` as 'daily_response_stats as s')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('s.responses'), sql<number>`0`).as('n'))
      .where(rollupConditions('s', workspaceId, filters))
      .executeTakeFirstOrThrow(),
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
