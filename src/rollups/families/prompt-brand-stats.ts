// Responses mentioning a brand, per prompt and day (migration 0007). Grouped in the primary
// key's order (brand, day, prompt): a rebuild into an empty table inserts the rows as the
// grouping emits them, without sorting them again.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const promptBrandStats = defineFamily({
  name: 'prompt-brand-stats',
  tables: { day: 'daily_prompt_brand_stats' },
  dimensions: ['brand_id', 'prompt_id'],
  measures: { responses: 'sum', occurrences: 'sum' },
  serves: ['range', 'tags'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.brand_id, m.prompt_id, count(*) as responses, sum(m.occurrences) as occurrences
    from ${scope.facts('mention', 'm')}
    where ${scope.on('m')}
    group by 1, 3, 2, 4`,
})
