// Day sets (migration 0007): distinct counts (prompts and providers citing a domain,
// providers citing a URL, prompts with responses) cannot be summed over days, so each
// pair keeps the days it occurs on as a datemultirange. "In the range" is one overlap
// test per pair; consecutive days collapse into one range.
import { sql, type RawBuilder } from 'kysely'
import { defineFamily, utcDay, type ScopeSql } from '../types.js'

/** The days each (subject, other) pair occurs on, from distinct (pair, day) rows. */
const daySets = (pairs: RawBuilder<unknown>) => sql`
  select d.workspace_id, d.subject, d.other, range_agg(daterange(d.day, d.day, '[]')) as days
  from (${pairs}) d
  group by 1, 2, 3`

const citationPairs = (scope: ScopeSql, subject: string, other: string) =>
  daySets(sql`
    select distinct c.workspace_id, ${sql.ref(`c.${subject}`)} as subject, ${sql.ref(`c.${other}`)} as other, ${utcDay('c')} as day
    from ${scope.facts('citation', 'c')}
    where ${scope.on('c')}`)

const renamed = (select: RawBuilder<unknown>, subject: string, other: string) =>
  sql`select s.workspace_id, s.subject as ${sql.ref(subject)}, s.other as ${sql.ref(other)}, s.days from (${select}) s`

export const domainPromptDays = defineFamily({
  name: 'domain-prompt-days',
  tables: { none: 'domain_prompt_days' },
  dimensions: ['domain', 'prompt_id'],
  measures: { days: 'union' },
  fewGroups: true,
  serves: ['range'],
  facts: 'citation',
  select: (scope) => renamed(citationPairs(scope, 'domain', 'prompt_id'), 'domain', 'prompt_id'),
})

export const domainProviderDays = defineFamily({
  name: 'domain-provider-days',
  tables: { none: 'domain_provider_days' },
  dimensions: ['domain', 'provider'],
  measures: { days: 'union' },
  fewGroups: true,
  serves: ['range', 'providers'],
  facts: 'citation',
  select: (scope) => renamed(citationPairs(scope, 'domain', 'provider'), 'domain', 'provider'),
})

export const urlProviderDays = defineFamily({
  name: 'url-provider-days',
  tables: { none: 'url_provider_days' },
  dimensions: ['url_id', 'provider'],
  measures: { days: 'union' },
  fewGroups: true,
  // A URL has one domain: a source's domains are a set of URL numbers.
  serves: ['range', 'domains'],
  facts: 'citation',
  select: (scope) =>
    renamed(
      daySets(sql`
        select distinct c.workspace_id, u.id as subject, c.provider as other, ${utcDay('c')} as day
        from ${scope.facts('citation', 'c')}
        ${scope.lookup('workspace_url', 'u', sql`u.workspace_id = c.workspace_id and u.url = c.url`)}
        where ${scope.on('c')}`),
      'url_id',
      'provider',
    ),
})

export const promptDays = defineFamily({
  name: 'prompt-days',
  tables: { none: 'prompt_days' },
  dimensions: ['prompt_id'],
  measures: { days: 'union' },
  fewGroups: true,
  serves: ['range'],
  facts: 'response',
  select: (scope) => sql`
    select d.workspace_id, d.prompt_id, range_agg(daterange(d.day, d.day, '[]')) as days
    from (select distinct r.workspace_id, r.prompt_id, ${utcDay('r')} as day from ${scope.facts('response', 'r')} where ${scope.on('r')}) d
    group by 1, 2`,
})

/**
 * The days each domain was cited per single prompt tag × provider × model (migration 0023),
 * for the distinct domains of a read with tags or models (the dashboard's sources). Keyed by
 * one tag, not the prompt's tag set: a citation matches a tags filter when its prompt shares
 * a tag with it, i.e. when one of its single-tag rows does; a sum over those rows would count
 * it once per shared tag, a distinct count of domains counts it once. `tag` holds the one tag,
 * or '' for an untagged prompt; a prompt's tag edit rebuilds it with the tag-set families
 * (familiesAffectedByPromptTags). Plain text, not a one-element set: under row-level security
 * only leakproof operators become index conditions, and text equality is one, array equality
 * is not. At most tags × models × domains rows: the benchmark's 10 tags
 * make about 120 tag sets, so by tag set there would be ten times more combinations, and
 * they would go on filling in as the facts grow.
 */
export const domainTagDays = defineFamily({
  name: 'domain-tag-days',
  tables: { none: 'domain_tag_days' },
  // The tag first: a tags filter reads its tags' rows by index (see distinctDomainsFromRollup).
  dimensions: ['tag', 'provider', 'model', 'domain'],
  measures: { days: 'union' },
  fewGroups: true,
  serves: ['range', 'providers', 'modelIds', 'tags'],
  facts: 'citation',
  select: (scope) => sql`
    select d.workspace_id, d.tag, d.provider, d.model, d.domain, range_agg(daterange(d.day, d.day, '[]')) as days
    from (
      select distinct c.workspace_id, t.tag, c.provider, c.model, c.domain, ${utcDay('c')} as day
      from ${scope.facts('citation', 'c')}
      ${scope.lookup('prompt', 'p', sql`p.workspace_id = c.workspace_id and p.id = c.prompt_id`)}
      cross join lateral (select u.tag from unnest(p.tags) as u(tag) union all select '' where cardinality(p.tags) = 0) t
      where ${scope.on('c')}
    ) d
    group by 1, 2, 3, 4, 5`,
})
