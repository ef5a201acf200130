// Keeps the daily rollups (migration 0003) equal to the raw facts. Ingestion adds the
// new responses' contribution in its own transaction; anything that rewrites history
// (re-analysis, a prompt's tags changing) rebuilds the workspace's rollups from the facts.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { inTransaction } from '../db/tenant-scope.js'
import { bumpDataVersion } from '../db/data-version.js'
import { addDetailRollups, fillMentionDetailRollups, utcDay, type CitationFact } from './detail-rollups.js'

const DAY = sql`(r.created_at at time zone 'UTC')::date`
const MENTION_DAY = sql`(m.created_at at time zone 'UTC')::date`

// Each rollup is kept by day and by whole calendar month (migration 0008), from the same rows.
const BUCKETS = [
  { prefix: 'daily', column: 'day', bucket: (alias: string) => sql`${sql.ref(`${alias}.day`)}` },
  { prefix: 'monthly', column: 'month', bucket: (alias: string) => sql`date_trunc('month', ${sql.ref(`${alias}.day`)})::date` },
] as const

export interface RollupFact {
  id: string
  prompt_id: string
  provider: string
  model: string
  created_at: Date
}

export interface RollupMention extends Omit<RollupFact, 'id'> {
  response_id: string
  brand_id: string
  occurrences: number
  position: number
  sentiment: number | null
}

/**
 * Adds the contribution of just-inserted responses and their mentions. Call inside their
 * transaction. Works from the rows in hand, not by re-reading the fact tables, so its cost
 * does not grow with the table (and PGlite, which keeps no statistics, cannot pick a bad plan).
 */
export async function addToRollups(db: DB, workspaceId: string, responses: RollupFact[], mentions: RollupMention[], citations: CitationFact[]): Promise<void> {
  if (responses.length === 0) return
  const promptIds = [...new Set(responses.map((r) => r.prompt_id))]
  const tagRows = await db.selectFrom('prompt').select(['id', 'tags']).where('workspace_id', '=', workspaceId).where('id', 'in', promptIds).execute()
  const tagsOf = new Map(tagRows.map((row) => [row.id, row.tags]))
  // Arrays of text[] cannot be passed as one parameter; a tag set travels as JSON text.
  const tagKeys = new Map<string, string>()
  const tagKey = (promptId: string) => {
    let key = tagKeys.get(promptId)
    if (key === undefined) tagKeys.set(promptId, (key = JSON.stringify(tagsOf.get(promptId) ?? [])))
    return key
  }

  const counts = new Map<string, number>()
  for (const r of responses) {
    const key = JSON.stringify([utcDay(r.created_at), r.provider, r.model, tagKey(r.prompt_id)])
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  // Sorted so concurrent batches take row locks in one order and cannot deadlock.
  const groups = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, n]) => [...(JSON.parse(key) as string[]), n] as const)
  for (const { prefix, bucket, column } of BUCKETS) {
    await sql`
      insert into ${sql.table(`${prefix}_response_stats`)} as s (workspace_id, ${sql.ref(column)}, provider, model, tags, responses)
      select ${workspaceId}::uuid, ${bucket('g')}, g.provider, g.model, array(select jsonb_array_elements_text(g.tags)), sum(g.n)
      from unnest(${groups.map((g) => g[0])}::date[], ${groups.map((g) => g[1])}::text[], ${groups.map((g) => g[2])}::text[], ${groups.map((g) => g[3])}::jsonb[], ${groups.map((g) => g[4])}::int[])
        as g(day, provider, model, tags, n)
      group by 2, 3, 4, g.tags order by 2, 3, 4, g.tags::text
      on conflict (workspace_id, ${sql.ref(column)}, provider, model, tags) do update set responses = s.responses + excluded.responses`.execute(db)
  }

  const totals = new Map<string, number>()
  for (const r of responses) {
    const key = JSON.stringify([utcDay(r.created_at), r.provider, r.model])
    totals.set(key, (totals.get(key) ?? 0) + 1)
  }
  const totalGroups = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, n]) => [...(JSON.parse(key) as string[]), n] as const)
  for (const { prefix, bucket, column } of BUCKETS) {
    await sql`
      insert into ${sql.table(`${prefix}_response_totals`)} as s (workspace_id, ${sql.ref(column)}, provider, model, responses)
      select ${workspaceId}::uuid, ${bucket('g')}, g.provider, g.model, sum(g.n)
      from unnest(${totalGroups.map((g) => g[0])}::date[], ${totalGroups.map((g) => g[1])}::text[], ${totalGroups.map((g) => g[2])}::text[], ${totalGroups.map((g) => g[3])}::int[])
        as g(day, provider, model, n)
      group by 2, 3, 4 order by 2, 3, 4
      on conflict (workspace_id, ${sql.ref(column)}, provider, model) do update set responses = s.responses + excluded.responses`.execute(db)
  }

  if (mentions.length) {
    // Keys are built once per mention, not once per comparison.
    const sorted = mentions
      .map((m) => ({ m, key: `${utcDay(m.created_at)}|${m.provider}|${m.model}|${tagKey(m.prompt_id)}|${m.brand_id}` }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ m }) => m)
    const days = sql`${sorted.map((m) => utcDay(m.created_at))}::date[]`
    const measures = sql`${sorted.map((m) => m.occurrences)}::int[], ${sorted.map((m) => m.position)}::int[], ${sorted.map((m) => m.sentiment)}::float8[]`
    // Grouped in SQL so sentiment is summed as numeric, exactly as a rebuild sums it.
    for (const { prefix, bucket, column } of BUCKETS) {
      await sql`
        insert into ${sql.table(`${prefix}_mention_stats`)} as s (workspace_id, ${sql.ref(column)}, provider, model, tags, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
        select ${workspaceId}::uuid, ${bucket('m')}, m.provider, m.model, array(select jsonb_array_elements_text(m.tags)), m.brand_id,
               count(*), sum(m.occurrences), sum(m.position), coalesce(sum(m.sentiment::numeric), 0), count(m.sentiment)
        from unnest(${days}, ${sorted.map((m) => m.provider)}::text[], ${sorted.map((m) => m.model)}::text[],
                    ${sorted.map((m) => tagKey(m.prompt_id))}::jsonb[], ${sorted.map((m) => m.brand_id)}::uuid[], ${measures})
          as m(day, provider, model, tags, brand_id, occurrences, position, sentiment)
        group by 2, 3, 4, m.tags, m.brand_id
        order by 2, 3, 4, m.tags::text, m.brand_id
        on conflict (workspace_id, ${sql.ref(column)}, provider, model, tags, brand_id) do update set
          responses = s.responses + excluded.responses,
          occurrences = s.occurrences + excluded.occurrences,
          position_sum = s.position_sum + excluded.position_sum,
          sentiment_sum = s.sentiment_sum + excluded.sentiment_sum,
          sentiment_count = s.sentiment_count + excluded.sentiment_count`.execute(db)
      await sql`
        insert into ${sql.table(`${prefix}_brand_totals`)} as s (workspace_id, ${sql.ref(column)}, provider, model, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
        select ${workspaceId}::uuid, ${bucket('m')}, m.provider, m.model, m.brand_id,
               count(*), sum(m.occurrences), sum(m.position), coalesce(sum(m.sentiment::numeric), 0), count(m.sentiment)
        from unnest(${days}, ${sorted.map((m) => m.provider)}::text[], ${sorted.map((m) => m.model)}::text[], ${sorted.map((m) => m.brand_id)}::uuid[], ${measures})
          as m(day, provider, model, brand_id, occurrences, position, sentiment)
        group by 2, 3, 4, m.brand_id
        order by 2, 3, 4, m.brand_id
        on conflict (workspace_id, ${sql.ref(column)}, provider, model, brand_id) do update set
          responses = s.responses + excluded.responses,
          occurrences = s.occurrences + excluded.occurrences,
          position_sum = s.position_sum + excluded.position_sum,
          sentiment_sum = s.sentiment_sum + excluded.sentiment_sum,
          sentiment_count = s.sentiment_count + excluded.sentiment_count`.execute(db)
    }
  }

  await addDetailRollups(db, workspaceId, responses, mentions, citations)

  const uniqueDomains = [...new Set(citations.map((c) => c.domain))].sort()
  if (uniqueDomains.length) {
    await sql`insert into workspace_domain (workspace_id, domain) select ${workspaceId}::uuid, d from unnest(${uniqueDomains}::text[]) as d on conflict do nothing`.execute(db)
  }
}

/**
 * Recomputes a workspace's rollups from its facts (after history changed). Responses and
 * citations never change after ingestion, so of the detail rollups (migration 0007) only
 * those built from mentions are rebuilt, and only when mentions may have changed (not for
 * a prompt's new tags).
 */
export async function rebuildRollups(db: DB, workspaceId: string, { mentionsChanged = true }: { mentionsChanged?: boolean } = {}): Promise<void> {
  const run = async (trx: DB) => {
    await sql`delete from daily_response_stats where workspace_id = ${workspaceId}`.execute(trx)
    await sql`delete from daily_mention_stats where workspace_id = ${workspaceId}`.execute(trx)
    await sql`delete from daily_response_totals where workspace_id = ${workspaceId}`.execute(trx)
    await sql`delete from daily_brand_totals where workspace_id = ${workspaceId}`.execute(trx)
    await sql`delete from workspace_domain where workspace_id = ${workspaceId}`.execute(trx)
    await sql`insert into workspace_domain (workspace_id, domain) select distinct workspace_id, domain from citation where workspace_id = ${workspaceId}`.execute(trx)
    await sql`
      insert into daily_response_stats (workspace_id, day, provider, model, tags, responses)
      select r.workspace_id, ${DAY}, r.provider, r.model, p.tags, count(*)
      from response r
      join prompt p on p.workspace_id = r.workspace_id and p.id = r.prompt_id
      where r.workspace_id = ${workspaceId}
      group by 1, 2, 3, 4, 5`.execute(trx)
    await sql`
      insert into daily_mention_stats (workspace_id, day, provider, model, tags, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
      select m.workspace_id, ${MENTION_DAY}, m.provider, m.model, p.tags, m.brand_id, count(*), sum(m.occurrences), sum(m.position),
             coalesce(sum(m.sentiment::numeric), 0), count(m.sentiment)
      from mention m
      join prompt p on p.workspace_id = m.workspace_id and p.id = m.prompt_id
      where m.workspace_id = ${workspaceId}
      group by 1, 2, 3, 4, 5, 6`.execute(trx)
    // The tag-free totals are the tag-set rows summed over tag sets: exact by construction.
    await sql`
      insert into daily_response_totals (workspace_id, day, provider, model, responses)
      select workspace_id, day, provider, model, sum(responses) from daily_response_stats where workspace_id = ${workspaceId} group by 1, 2, 3, 4`.execute(trx)
    await sql`
      insert into daily_brand_totals (workspace_id, day, provider, model, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
      select workspace_id, day, provider, model, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
      from daily_mention_stats where workspace_id = ${workspaceId} group by 1, 2, 3, 4, 5`.execute(trx)
    await fillMonthlyRollups(trx, workspaceId)
    if (mentionsChanged) await fillMentionDetailRollups(trx, workspaceId)
  }
  await inTransaction(db, async (trx) => {
    await run(trx)
    await bumpDataVersion(trx, workspaceId)
  })
}

/** The monthly rollups are the daily ones summed by calendar month: exact by construction. */
export async function fillMonthlyRollups(db: DB, workspaceId: string): Promise<void> {
  for (const table of ['monthly_response_stats', 'monthly_mention_stats', 'monthly_response_totals', 'monthly_brand_totals']) {
    await sql`delete from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(db)
  }
  const month = sql`date_trunc('month', day)::date`
  await sql`
    insert into monthly_response_stats (workspace_id, month, provider, model, tags, responses)
    select workspace_id, ${month}, provider, model, tags, sum(responses) from daily_response_stats where workspace_id = ${workspaceId} group by 1, 2, 3, 4, 5`.execute(db)
  await sql`
    insert into monthly_response_totals (workspace_id, month, provider, model, responses)
    select workspace_id, ${month}, provider, model, sum(responses) from daily_response_totals where workspace_id = ${workspaceId} group by 1, 2, 3, 4`.execute(db)
  await sql`
    insert into monthly_mention_stats (workspace_id, month, provider, model, tags, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
    select workspace_id, ${month}, provider, model, tags, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
    from daily_mention_stats where workspace_id = ${workspaceId} group by 1, 2, 3, 4, 5, 6`.execute(db)
  await sql`
    insert into monthly_brand_totals (workspace_id, month, provider, model, brand_id, responses, occurrences, position_sum, sentiment_sum, sentiment_count)
    select workspace_id, ${month}, provider, model, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count)
    from daily_brand_totals where workspace_id = ${workspaceId} group by 1, 2, 3, 4, 5`.execute(db)
}
