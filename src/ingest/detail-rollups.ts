// Keeps the rollups of migration 0007 equal to the facts. Ingestion adds a batch's
// contribution in its transaction (from the rows in hand); fillDetailRollups recomputes a
// workspace's from its facts. Responses and citations never change after ingestion; the
// tables built from mentions are rebuilt by fillMentionDetailRollups after re-analysis.
import { sql, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.js'

export interface CitationFact {
  response_id: string
  prompt_id: string
  provider: string
  url: string
  domain: string
  created_at: Date
}

export interface ResponseFact {
  id: string
  prompt_id: string
  created_at: Date
}

export interface MentionFact {
  response_id: string
  prompt_id: string
  brand_id: string
  occurrences: number
  created_at: Date
}

// A response's mentions and citations share its Date object; each is formatted once.
const dayCache = new WeakMap<Date, string>()
export function utcDay(date: Date): string {
  let day = dayCache.get(date)
  if (day === undefined) dayCache.set(date, (day = date.toISOString().slice(0, 10)))
  return day
}
const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Counts rows per key; keys come back sorted so concurrent batches lock rows in one order. */
function tally<T>(items: readonly T[], key: (item: T) => string, weight: (item: T) => number = () => 1): [string[], number][] {
  const sums = new Map<string, number>()
  for (const item of items) {
    const k = key(item)
    sums.set(k, (sums.get(k) ?? 0) + weight(item))
  }
  return [...sums.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([k, n]) => [k.split('\u0000'), n])
}

const column = <T>(groups: [string[], number][], index: number): T[] => groups.map(([key]) => key[index] as T)

/** The ids of these URLs, numbering the ones not seen before (sorted inserts: no deadlocks). */
async function urlIds(db: DB, workspaceId: string, citations: readonly CitationFact[]): Promise<Map<string, string>> {
  const domains = new Map(citations.map((c) => [c.url, c.domain]))
  const urls = [...domains.keys()].sort(compareKeys)
  await sql`
    insert into workspace_url (workspace_id, url, domain)
    select ${workspaceId}::uuid, u.url, u.domain from unnest(${urls}::text[], ${urls.map((u) => domains.get(u))}::text[]) with ordinality as u(url, domain, n)
    order by u.n
    on conflict (workspace_id, url) do nothing`.execute(db)
  // A separate statement: it sees URLs a concurrent batch committed while this one waited.
  const { rows } = await sql<{ id: string; url: string }>`
    select id::text as id, url from workspace_url where workspace_id = ${workspaceId} and url = any(${urls}::text[])`.execute(db)
  return new Map(rows.map((row) => [row.url, row.id]))
}

/** Upsert that adds a batch's days to a datemultirange unless they are already there. */
function presenceUpsert(table: string, subject: string, subjectType: string, other: string, otherType: string, rows: string[][], workspaceId: string): RawBuilder<unknown> {
  return sql`
    insert into ${sql.table(table)} as s (workspace_id, ${sql.ref(subject)}, ${sql.ref(other)}, days)
    select ${workspaceId}::uuid, p.subject::${sql.raw(subjectType)}, p.other::${sql.raw(otherType)}, range_agg(daterange(p.day, p.day, '[]'))
    from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::date[]) as p(subject, other, day)
    group by p.subject, p.other order by p.subject, p.other
    on conflict (workspace_id, ${sql.ref(subject)}, ${sql.ref(other)}) do update set days = s.days + excluded.days
    where not s.days @> excluded.days`
}

/** Adds just-inserted responses with their mentions and citations. Call inside their transaction. */
export async function addDetailRollups(db: DB, workspaceId: string, responses: ResponseFact[], mentions: MentionFact[], citations: CitationFact[]): Promise<void> {
  if (responses.length === 0) return
  const promptDays = tally(responses, (r) => `${utcDay(r.created_at)}\u0000${r.prompt_id}`)
  await sql`
    insert into daily_prompt_stats as s (workspace_id, day, prompt_id, responses)
    select ${workspaceId}::uuid, g.day, g.prompt_id, g.n
    from unnest(${column(promptDays, 0)}::date[], ${column(promptDays, 1)}::uuid[], ${promptDays.map(([, n]) => n)}::int[]) as g(day, prompt_id, n)
    on conflict (workspace_id, day, prompt_id) do update set responses = s.responses + excluded.responses`.execute(db)
  const promptPresence = tally(responses, (r) => `${r.prompt_id}\u0000${utcDay(r.created_at)}`).map(([[prompt, day]]) => [prompt, day])
  await sql`
    insert into prompt_days as s (workspace_id, prompt_id, days)
    select ${workspaceId}::uuid, p.prompt_id, range_agg(daterange(p.day, p.day, '[]'))
    from unnest(${promptPresence.map((p) => p[0])}::uuid[], ${promptPresence.map((p) => p[1])}::date[]) as p(prompt_id, day)
    group by p.prompt_id order by p.prompt_id
    on conflict (workspace_id, prompt_id) do update set days = s.days + excluded.days where not s.days @> excluded.days`.execute(db)

  if (mentions.length) {
    const byBrand = new Map<string, { n: number; occurrences: number }>()
    for (const m of mentions) {
      const key = `${m.brand_id}\u0000${utcDay(m.created_at)}\u0000${m.prompt_id}`
      const entry = byBrand.get(key) ?? { n: 0, occurrences: 0 }
      entry.n += 1
      entry.occurrences += m.occurrences
      byBrand.set(key, entry)
    }
    const groups = [...byBrand.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([key, v]) => [...key.split('\u0000'), v.n, v.occurrences] as const)
    await sql`
      insert into daily_prompt_brand_stats as s (workspace_id, brand_id, day, prompt_id, responses, occurrences)
      select ${workspaceId}::uuid, g.brand_id, g.day, g.prompt_id, g.n, g.occurrences
      from unnest(${groups.map((g) => g[0])}::uuid[], ${groups.map((g) => g[1])}::date[], ${groups.map((g) => g[2])}::uuid[], ${groups.map((g) => g[3])}::int[], ${groups.map((g) => g[4])}::int[])
        as g(brand_id, day, prompt_id, n, occurrences)
      on conflict (workspace_id, brand_id, day, prompt_id) do update set responses = s.responses + excluded.responses, occurrences = s.occurrences + excluded.occurrences`.execute(db)
  }
  if (citations.length === 0) return

  const ids = await urlIds(db, workspaceId, citations)
  const rows = citations.map((c) => ({ ...c, urlId: ids.get(c.url) as string, day: utcDay(c.created_at), at: c.created_at.toISOString() }))
  const days = sql`${rows.map((c) => c.day)}::date[]`
  const at = sql`${rows.map((c) => c.at)}::timestamptz[]`

  for (const [prefix, bucket, key] of [
    ['daily', sql`c.day`, 'day'],
    ['monthly', sql`date_trunc('month', c.day)::date`, 'month'],
  ] as const) {
    await sql`
      insert into ${sql.table(`${prefix}_domain_stats`)} as s (workspace_id, ${sql.ref(key)}, domain, citations, responses, last_cited)
      select ${workspaceId}::uuid, ${bucket}, c.domain, count(*), count(distinct c.response_id), max(c.at)
      from unnest(${days}, ${rows.map((c) => c.domain)}::text[], ${rows.map((c) => c.response_id)}::uuid[], ${at}) as c(day, domain, response_id, at)
      group by 2, c.domain order by 2, c.domain
      on conflict (workspace_id, ${sql.ref(key)}, domain) do update set
        citations = s.citations + excluded.citations,
        responses = s.responses + excluded.responses,
        last_cited = greatest(s.last_cited, excluded.last_cited)`.execute(db)
    await sql`
      insert into ${sql.table(`${prefix}_url_stats`)} as s (workspace_id, ${sql.ref(key)}, url_id, citations, first_cited, last_cited)
      select ${workspaceId}::uuid, ${bucket}, c.url_id, count(*), min(c.at), max(c.at)
      from unnest(${days}, ${rows.map((c) => c.urlId)}::bigint[], ${at}) as c(day, url_id, at)
      group by 2, c.url_id order by 2, c.url_id
      on conflict (workspace_id, ${sql.ref(key)}, url_id) do update set
        citations = s.citations + excluded.citations,
        first_cited = least(s.first_cited, excluded.first_cited),
        last_cited = greatest(s.last_cited, excluded.last_cited)`.execute(db)
  }

  const pairs = (key: (c: (typeof rows)[number]) => string[]) => tally(rows, (c) => key(c).join('\u0000')).map(([k]) => k)
  await presenceUpsert('domain_prompt_days', 'domain', 'text', 'prompt_id', 'uuid', pairs((c) => [c.domain, c.prompt_id, c.day]), workspaceId).execute(db)
  await presenceUpsert('domain_provider_days', 'domain', 'text', 'provider', 'text', pairs((c) => [c.domain, c.provider, c.day]), workspaceId).execute(db)
  await presenceUpsert('url_provider_days', 'url_id', 'bigint', 'provider', 'text', pairs((c) => [c.urlId, c.provider, c.day]), workspaceId).execute(db)

  if (mentions.length) {
    const citationsOf = new Map<string, typeof rows>()
    for (const c of rows) {
      const list = citationsOf.get(c.response_id)
      if (list) list.push(c)
      else citationsOf.set(c.response_id, [c])
    }
    const brandCitations = mentions.flatMap((m) => (citationsOf.get(m.response_id) ?? []).map((c) => ({ brand: m.brand_id, day: c.day, domain: c.domain })))
    const groups = tally(brandCitations, (x) => `${x.brand}\u0000${x.day}\u0000${x.domain}`)
    if (groups.length) {
      await sql`
        insert into daily_brand_domain_stats as s (workspace_id, brand_id, day, domain, citations)
        select ${workspaceId}::uuid, g.brand_id, g.day, g.domain, g.n
        from unnest(${column(groups, 0)}::uuid[], ${column(groups, 1)}::date[], ${column(groups, 2)}::text[], ${groups.map(([, n]) => n)}::int[])
          as g(brand_id, day, domain, n)
        on conflict (workspace_id, brand_id, day, domain) do update set citations = s.citations + excluded.citations`.execute(db)
    }
  }
}

const DAY = sql`(created_at at time zone 'UTC')::date`

/** Rebuilds the tables that depend on mentions (after re-analysis changed them). */
export async function fillMentionDetailRollups(db: DB, workspaceId: string): Promise<void> {
  await sql`delete from daily_brand_domain_stats where workspace_id = ${workspaceId}`.execute(db)
  await sql`delete from daily_prompt_brand_stats where workspace_id = ${workspaceId}`.execute(db)
  await sql`
    insert into daily_brand_domain_stats (workspace_id, brand_id, day, domain, citations)
    select m.workspace_id, m.brand_id, (m.created_at at time zone 'UTC')::date, c.domain, count(*)
    from mention m
    join citation c on c.workspace_id = m.workspace_id and c.response_id = m.response_id
    where m.workspace_id = ${workspaceId}
    group by 1, 2, 3, 4`.execute(db)
  await sql`
    insert into daily_prompt_brand_stats (workspace_id, brand_id, day, prompt_id, responses, occurrences)
    select workspace_id, brand_id, ${DAY}, prompt_id, count(*), sum(occurrences)
    from mention where workspace_id = ${workspaceId}
    group by 1, 2, 3, 4`.execute(db)
}

/** Recomputes every rollup of migration 0007 for a workspace from its facts. */
export async function fillDetailRollups(db: DB, workspaceId: string): Promise<void> {
  for (const table of ['daily_domain_stats', 'monthly_domain_stats', 'daily_url_stats', 'monthly_url_stats', 'domain_prompt_days', 'domain_provider_days', 'url_provider_days', 'prompt_days', 'daily_prompt_stats']) {
    await sql`delete from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(db)
  }
  // URL numbers are kept: only URLs not numbered yet are added.
  await sql`
    insert into workspace_url (workspace_id, url, domain)
    select workspace_id, url, min(domain) from citation where workspace_id = ${workspaceId} group by 1, 2 order by 2
    on conflict (workspace_id, url) do nothing`.execute(db)
  await sql`
    insert into daily_domain_stats (workspace_id, day, domain, citations, responses, last_cited)
    select workspace_id, ${DAY}, domain, count(*), count(distinct response_id), max(created_at)
    from citation where workspace_id = ${workspaceId} group by 1, 2, 3`.execute(db)
  // A response has one day, so per-day distinct responses add up exactly over a month.
  await sql`
    insert into monthly_domain_stats (workspace_id, month, domain, citations, responses, last_cited)
    select workspace_id, date_trunc('month', day)::date, domain, sum(citations), sum(responses), max(last_cited)
    from daily_domain_stats where workspace_id = ${workspaceId} group by 1, 2, 3`.execute(db)
  await sql`
    insert into daily_url_stats (workspace_id, day, url_id, citations, first_cited, last_cited)
    select c.workspace_id, (c.created_at at time zone 'UTC')::date, u.id, count(*), min(c.created_at), max(c.created_at)
    from citation c join workspace_url u on u.workspace_id = c.workspace_id and u.url = c.url
    where c.workspace_id = ${workspaceId} group by 1, 2, 3`.execute(db)
  await sql`
    insert into monthly_url_stats (workspace_id, month, url_id, citations, first_cited, last_cited)
    select workspace_id, date_trunc('month', day)::date, url_id, sum(citations), min(first_cited), max(last_cited)
    from daily_url_stats where workspace_id = ${workspaceId} group by 1, 2, 3`.execute(db)
  const citations = sql`citation c`
  const citedUrls = sql`citation c join workspace_url u on u.workspace_id = c.workspace_id and u.url = c.url`
  for (const [table, columns, subject, other, source] of [
    ['domain_prompt_days', sql`domain, prompt_id`, sql`c.domain`, sql`c.prompt_id`, citations],
    ['domain_provider_days', sql`domain, provider`, sql`c.domain`, sql`c.provider`, citations],
    ['url_provider_days', sql`url_id, provider`, sql`u.id`, sql`c.provider`, citedUrls],
  ] as const) {
    await sql`
      insert into ${sql.table(table)} (workspace_id, ${columns}, days)
      select workspace_id, subject, other, range_agg(daterange(day, day, '[]'))
      from (
        select distinct c.workspace_id, ${subject} as subject, ${other} as other, (c.created_at at time zone 'UTC')::date as day
        from ${source}
        where c.workspace_id = ${workspaceId}
      ) d
      group by 1, 2, 3`.execute(db)
  }
  await sql`
    insert into daily_prompt_stats (workspace_id, day, prompt_id, responses)
    select workspace_id, ${DAY}, prompt_id, count(*) from response where workspace_id = ${workspaceId} group by 1, 2, 3`.execute(db)
  await sql`
    insert into prompt_days (workspace_id, prompt_id, days)
    select workspace_id, prompt_id, range_agg(daterange(day, day, '[]'))
    from daily_prompt_stats where workspace_id = ${workspaceId} group by 1, 2`.execute(db)
  await fillMentionDetailRollups(db, workspaceId)
}
