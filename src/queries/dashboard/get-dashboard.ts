// The dashboard of spec 4.1 with the metric definitions of DESIGN §7. Four independent
// aggregates over the fact tables, run together; nothing is counted in JS.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { DateRange } from '../../http/date-range.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'
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
    db
      .selectFrom('mention')
      .select((eb) => [
        'brand_id',
        eb.fn.countAll<number>().as('responses'),
        eb.fn.sum<number>('occurrences').as('occurrences'),
        // avg skips null sentiments, as DESIGN §7 asks.
        eb.fn.avg<number | null>('sentiment').as('sentiment'),
        eb.fn.avg<number>('position').as('position'),
      ])
      .where((eb) => responseFilterConditions(eb, 'mention', workspaceId, filters))
      .groupBy('brand_id')
      .execute(),
    db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => responseFilterConditions(eb, 'response', workspaceId, filters))
      .executeTakeFirstOrThrow(),
    // Counting a DISTINCT subquery hashes in parallel; count(distinct …) sorts every row.
    db
      .selectFrom(
        db
          .selectFrom('citation')
          .select('domain')
          .distinct()
          .where((eb) => responseFilterConditions(eb, 'citation', workspaceId, filters))
          .as('d'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
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
      sentiment_avg: row?.sentiment == null ? 0 : roundSentiment(Number(row.sentiment)),
      position_avg: row ? roundPosition(Number(row.position)) : 0,
      mention_count: mentionCount,
    }
  }
  return { brands: map, total_mentions: totalMentions, total_sources: Number(sources.n), date_range: filters.range }
}
