// A brand's mentions per day × provider × model, without tags (migrations 0005, 0008).
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const brandTotals = defineFamily({
  name: 'brand-totals',
  tables: { day: 'daily_brand_totals', month: 'monthly_brand_totals' },
  dimensions: ['provider', 'model', 'brand_id'],
  measures: { responses: 'sum', occurrences: 'sum', position_sum: 'sum', sentiment_sum: 'sum', sentiment_count: 'sum' },
  serves: ['range', 'providers', 'modelIds'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.provider, m.model, m.brand_id,
      count(*) as responses, sum(m.occurrences) as occurrences, sum(m.position) as position_sum,
      coalesce(sum(m.sentiment::numeric), 0) as sentiment_sum, count(m.sentiment) as sentiment_count
    from ${scope.facts('mention', 'm')}
    where ${scope.on('m')}
    group by 1, 2, 3, 4, 5`,
})
