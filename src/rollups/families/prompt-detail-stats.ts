// One prompt's facts by day (migration 0025), for GET /prompts/{id}: its responses by
// provider (the daily trend, the provider split and the totals), its mentions by brand and
// provider, the responses that mention any brand, and its citations by domain. Keyed by the
// prompt before the day, so one prompt's range is one index range. No model dimension: a
// models filter (model_ids) reads the facts; a tags filter selects the prompt or not, which
// the reader applies to the prompt. Sentiment is summed as numeric, as in mention-stats.
// Each select groups in its primary key's order (the prompt before the day): a rebuild into
// an empty table then inserts the grouping's rows as they come, without sorting them again.
import { sql } from 'kysely'
import { defineFamily, utcDay } from '../types.js'

export const promptResponseStats = defineFamily({
  name: 'prompt-response-stats',
  tables: { day: 'daily_prompt_response_stats' },
  dimensions: ['prompt_id', 'provider'],
  measures: { responses: 'sum', sentiment_sum: 'sum', sentiment_count: 'sum' },
  serves: ['range', 'providers', 'tags', 'promptId'],
  facts: 'response',
  select: (scope) => sql`
    select r.workspace_id, ${utcDay('r')} as day, r.prompt_id, r.provider,
      count(*) as responses, coalesce(sum(r.sentiment::numeric), 0) as sentiment_sum, count(r.sentiment) as sentiment_count
    from ${scope.facts('response', 'r')}
    where ${scope.on('r')}
    group by 1, 3, 2, 4`,
})

export const promptMentionStats = defineFamily({
  name: 'prompt-mention-stats',
  tables: { day: 'daily_prompt_mention_stats', month: 'monthly_prompt_mention_stats' },
  dimensions: ['prompt_id', 'brand_id', 'provider'],
  measures: { responses: 'sum', occurrences: 'sum', position_sum: 'sum', sentiment_sum: 'sum', sentiment_count: 'sum' },
  serves: ['range', 'providers', 'tags', 'promptId'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.prompt_id, m.brand_id, m.provider,
      count(*) as responses, sum(m.occurrences) as occurrences, sum(m.position) as position_sum,
      coalesce(sum(m.sentiment::numeric), 0) as sentiment_sum, count(m.sentiment) as sentiment_count
    from ${scope.facts('mention', 'm')}
    where ${scope.on('m')}
    group by 1, 3, 2, 4, 5`,
})

/**
 * Responses that mention any brand, active or not: the reader uses it only while the
 * workspace has no inactive brand (else it counts the facts). A sum over days is exact: a
 * response lies on one day, and a batch holds all of a response's mentions.
 */
export const promptMentionedResponses = defineFamily({
  name: 'prompt-mentioned-responses',
  tables: { day: 'daily_prompt_mentioned_responses' },
  dimensions: ['prompt_id', 'provider'],
  measures: { responses: 'sum' },
  serves: ['range', 'providers', 'tags', 'promptId'],
  facts: 'mention',
  select: (scope) => sql`
    select m.workspace_id, ${utcDay('m')} as day, m.prompt_id, m.provider, count(distinct m.response_id) as responses
    from ${scope.facts('mention', 'm')}
    where ${scope.on('m')}
    group by 1, 3, 2, 4`,
})

export const promptDomainStats = defineFamily({
  name: 'prompt-domain-stats',
  tables: { day: 'daily_prompt_domain_stats', month: 'monthly_prompt_domain_stats' },
  dimensions: ['prompt_id', 'domain'],
  measures: { citations: 'sum' },
  serves: ['range', 'tags', 'promptId'],
  facts: 'citation',
  select: (scope) => sql`
    select c.workspace_id, ${utcDay('c')} as day, c.prompt_id, c.domain, count(*) as citations
    from ${scope.facts('citation', 'c')}
    where ${scope.on('c')}
    group by 1, 3, 2, 4`,
})
