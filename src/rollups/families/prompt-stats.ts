// Responses per prompt and day (migration 0007), for /prompts and a brand's top prompts.
// No provider or model; a tags filter is a set of prompts, which the reader applies.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const promptStats = defineFamily({
  name: 'prompt-stats',
  tables: { day: 'daily_prompt_stats' },
  dimensions: ['prompt_id'],
  measures: { responses: 'sum' },
  serves: ['range', 'tags'],
  facts: 'response',
  select: (scope) => sql`
    select r.workspace_id, ${utcDay('r')} as day, r.prompt_id, count(*) as responses
    from ${scope.facts('response', 'r')}
    where ${scope.on('r')}
    group by 1, 2, 3`,
})
