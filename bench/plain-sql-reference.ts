// The plain-SQL reference the bench compares Beacon's reads with (issue 16): the same
// question asked the obvious way, straight over the facts (response, mention, citation,
// prompt), on the same database in the same run, so every figure is a ratio measured side
// by side. These are what a BI tool pointed at the tables would run; they are not Beacon's
// queries (those read the rollups where the filters allow).
import { sql } from 'kysely'
import type { DB } from '../src/db/database.js'
import { addDays } from '../src/core/date-range.js'

export interface ReferenceQuery {
  /** the bench scenario it stands beside */
  scenario: string
  run(db: DB): Promise<unknown>
}

interface Window {
  workspaceId: string
  start: string
  end: string
}

/** Responses in range matching the filters: the visibility denominator of docs/metrics.md. */
const matching = (w: Window, filters: { tags?: string[]; providers?: string[] }) => sql`
  select r.id from response r join prompt p on p.workspace_id = r.workspace_id and p.id = r.prompt_id
  where r.workspace_id = ${w.workspaceId} and r.created_at >= ${w.start}::date and r.created_at < ${addDays(w.end, 1)}::date
    and (${filters.tags ?? null}::text[] is null or p.tags && ${filters.tags ?? null}::text[])
    and (${filters.providers ?? null}::text[] is null or r.provider = any(${filters.providers ?? null}::text[]))`

/** Per brand: mentions, responses naming it, visibility, share of voice, position, sentiment. */
const dashboard = (w: Window, filters: { tags?: string[]; providers?: string[] } = {}) =>
  sql`
  with r as (${matching(w, filters)}),
  total as (select count(*)::float8 as n from r),
  per_brand as (
    select m.brand_id, count(*) as responses_with, sum(m.occurrences) as mentions, avg(m.position) as position, avg(m.sentiment) as sentiment
    from r join mention m on m.workspace_id = ${w.workspaceId} and m.response_id = r.id
    group by m.brand_id)
  select b.name, pb.mentions, pb.responses_with, pb.responses_with / nullif(total.n, 0) as visibility,
    pb.mentions::float8 / nullif(sum(pb.mentions) over (), 0) as share_of_voice, pb.position, pb.sentiment
  from per_brand pb join brand b on b.workspace_id = ${w.workspaceId} and b.id = pb.brand_id cross join total
  order by b.name`

/** Per domain: citations, responses citing it, first page of 20 by citations. */
const sources = (w: Window) => sql`
  with r as (${matching(w, {})})
  select c.domain, count(*) as citations, count(distinct c.response_id) as responses
  from r join citation c on c.workspace_id = ${w.workspaceId} and c.response_id = r.id
  group by c.domain order by citations desc, c.domain limit 20`

export function referenceQueries(workspaceId: string, start: string, end: string): ReferenceQuery[] {
  const w = { workspaceId, start, end }
  const run = (query: ReturnType<typeof sql>) => async (db: DB) => (await query.execute(db)).rows
  return [
    { scenario: '/dashboard 365 days', run: run(dashboard(w)) },
    { scenario: '/dashboard 365 days, tags + models', run: run(dashboard(w, { tags: ['pricing', 'enterprise'], providers: ['openai', 'anthropic'] })) },
    { scenario: '/sources 365 days', run: run(sources(w)) },
  ]
}
