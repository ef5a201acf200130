// Citations per cited domain and day (migration 0007), for /sources. A response has one
// day, so its distinct count per (domain, day) adds up exactly over a month or a range.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const domainStats = defineFamily({
  name: 'domain-stats',
  tables: { day: 'daily_domain_stats', month: 'monthly_domain_stats' },
  dimensions: ['domain'],
  measures: { citations: 'sum', responses: 'sum', last_cited: 'max' },
  serves: ['range'],
  facts: 'citation',
  select: (scope) => sql`
    select c.workspace_id, ${utcDay('c')} as day, c.domain, count(*) as citations, count(distinct c.response_id) as responses, max(c.created_at) as last_cited
    from ${scope.facts('citation', 'c')}
    where ${scope.on('c')}
    group by 1, 2, 3`,
})
