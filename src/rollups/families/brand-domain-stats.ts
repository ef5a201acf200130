// Citations of the responses that mention a brand, per domain and day (migration 0007):
// a brand's top sources. The citations are the batch's own too (a second probe by response
// id): joined as a table, a workspace the statistics did not know had all of its citations
// joined to every batch (README, "Beyond one server").
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const brandDomainStats = defineFamily({
  name: 'brand-domain-stats',
  tables: { day: 'daily_brand_domain_stats' },
  dimensions: ['brand_id', 'domain'],
  measures: { citations: 'sum' },
  fewGroups: true,
  serves: ['range'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.brand_id, c.domain, count(*) as citations
    from ${scope.facts('mention', 'm')}
    join ${scope.facts('citation', 'c')} on c.workspace_id = m.workspace_id and c.response_id = m.response_id
    where ${scope.on('m')}
    group by 1, 2, 3, 4`,
})
