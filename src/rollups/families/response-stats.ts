// Responses per day × provider × model × the prompt's tag set (migrations 0003, 0008).
// The tag-set grain keeps a tags filter exact: a prompt with several tags is one row, and
// a filter sums the tag sets that intersect it (docs/performance.md).
import { sql } from 'kysely'
import { defineFamily, defineFold, utcDay } from '../types.js'

export const responseStats = defineFamily({
  name: 'response-stats',
  tables: { day: 'daily_response_stats', month: 'monthly_response_stats' },
  dimensions: ['provider', 'model', 'tags'],
  measures: { responses: 'sum' },
  serves: ['range', 'providers', 'modelIds', 'tags'],
  facts: 'response',
  select: (scope) => sql`
    select r.workspace_id, ${utcDay('r')} as day, r.provider, r.model, p.tags, count(*) as responses
    from ${scope.facts('response', 'r')}
    ${scope.lookup('prompt', 'p', sql`p.workspace_id = r.workspace_id and p.id = r.prompt_id`)}
    where ${scope.on('r')}
    group by 1, 2, 3, 4, 5`,
})

/** The same by calendar month without the model (migration 0018); see mentionStatsByProvider. */
export const responseStatsByProvider = defineFold({
  name: 'response-stats-by-provider',
  source: responseStats,
  tables: { month: 'monthly_response_stats_by_provider' },
  dimensions: ['provider', 'tags'],
  serves: ['range', 'providers', 'tags'],
})
