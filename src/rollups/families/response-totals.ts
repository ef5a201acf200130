// Responses per day × provider × model (migrations 0005, 0008): the visibility
// denominator when no tags filter asks for the tag-set grain; far fewer rows.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const responseTotals = defineFamily({
  name: 'response-totals',
  tables: { day: 'daily_response_totals', month: 'monthly_response_totals' },
  dimensions: ['provider', 'model'],
  measures: { responses: 'sum' },
  serves: ['range', 'providers', 'modelIds'],
  facts: 'response',
  select: (scope) => sql`
    select r.workspace_id, ${utcDay('r')} as day, r.provider, r.model, count(*) as responses
    from ${scope.facts('response', 'r')}
    where ${scope.on('r')}
    group by 1, 2, 3, 4`,
})
