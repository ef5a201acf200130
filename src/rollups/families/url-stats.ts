// Citations per cited URL (by its workspace_url number) and day (migration 0007), for
// /urls and /urls-detailed. A source's domains are a set of URL numbers, so they are served.
// Kept by month, and by quarter and year (migration 0022): ranking a year's URLs summed
// eleven or twelve monthly rows per URL (13,000 URLs), three times the work of ranking a
// year's domains for /sources; a year ending today reads one yearly row per URL, the
// previous year's whole quarters and months, and a few loose days.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const urlStats = defineFamily({
  name: 'url-stats',
  tables: { day: 'daily_url_stats', month: 'monthly_url_stats', quarter: 'quarterly_url_stats', year: 'yearly_url_stats' },
  dimensions: ['url_id'],
  measures: { citations: 'sum', first_cited: 'min', last_cited: 'max' },
  serves: ['range', 'domains'],
  facts: 'citation',
  select: (scope) => sql`
    select c.workspace_id, ${utcDay('c')} as day, u.id as url_id, count(*) as citations, min(c.created_at) as first_cited, max(c.created_at) as last_cited
    from ${scope.facts('citation', 'c')}
    ${scope.lookup('workspace_url', 'u', sql`u.workspace_id = c.workspace_id and u.url = c.url`)}
    where ${scope.on('c')}
    group by 1, 2, 3`,
})
