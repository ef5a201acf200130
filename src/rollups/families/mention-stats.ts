// A brand's mentions per day × provider × model × tag set (migrations 0003, 0008).
// Sums only, so any range or filter combination adds up exactly; sentiment is summed as
// numeric so the order of addition cannot change a rounded mean.
import { sql } from 'kysely'
import { defineFamily, defineFold, utcDay } from '../types.js'

export const mentionStats = defineFamily({
  name: 'mention-stats',
  tables: { day: 'daily_mention_stats', month: 'monthly_mention_stats' },
  dimensions: ['provider', 'model', 'tags', 'brand_id'],
  measures: { responses: 'sum', occurrences: 'sum', position_sum: 'sum', sentiment_sum: 'sum', sentiment_count: 'sum' },
  serves: ['range', 'providers', 'modelIds', 'tags'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.provider, m.model, p.tags, m.brand_id,
      count(*) as responses, sum(m.occurrences) as occurrences, sum(m.position) as position_sum,
      coalesce(sum(m.sentiment::numeric), 0) as sentiment_sum, count(m.sentiment) as sentiment_count
    from ${scope.facts('mention', 'm')}
    ${scope.lookup('prompt', 'p', sql`p.workspace_id = m.workspace_id and p.id = m.prompt_id`)}
    where ${scope.on('m')}
    group by 1, 2, 3, 4, 5, 6`,
})

/**
 * The same by calendar month without the model (migration 0018): half the rows or fewer
 * for a year's tags filter, with or without providers. Whole months only; the loose days of
 * a range come from mention-stats (src/queries/rollup-conditions.ts, rollupTables).
 */
export const mentionStatsByProvider = defineFold({
  name: 'mention-stats-by-provider',
  source: mentionStats,
  tables: { month: 'monthly_mention_stats_by_provider' },
  dimensions: ['provider', 'tags', 'brand_id'],
  serves: ['range', 'providers', 'tags'],
})
