// GET /prompts/{id}: one prompt's responses in R, the previous period of equal length,
// and each active brand's visibility among them (docs/metrics.md; share_of_voice and the
// change are our extension). A handful of grouped aggregates run side by side; JS only
// folds their small results (per provider × day, per brand × provider). They read the
// prompt's rollups (migration 0025), whose rows follow the days of the range and the
// prompt's providers, brands and domains, not its number of answers; a models filter
// (model_ids), which those rollups do not keep, reads the facts.
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import { eachDay, previousRange, rangeBounds, type DateRange } from '../../core/date-range.js'
import { AppError } from '../../core/errors.js'
import { PROVIDERS } from '../../core/providers.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'
import { percentage, roundPosition, roundScore, roundSentiment } from '../rounding.js'
import { visibilityCi, type RateInterval } from '../uncertainty.js'
import { visibilityChange, type PeriodChange } from '../../analysis/statistics.js'
import { comparePeriods, exact } from '../period-comparison.js'
import { countPromptBrandMentions } from './count-prompt-brand-mentions.js'
import { selectTogether } from '../select-together.js'
import { calendarTables, type ReadStrategy } from '../rollup-conditions.js'
import { signedRollupRows } from './signed-month-cover.js'
import { rollupServes, type Bucket } from '../../rollups/index.js'

export interface PeriodMetrics {
  response_count: number
  responses_with_mentions: number
  brands_mentioned: number
  avg_sentiment: number
}

export interface PromptDetail {
  prompt: { id: string; text: string; tags: string[]; is_active: boolean; created_at: Date }
  period: DateRange
  metrics: PeriodMetrics
  previous_period: DateRange & { metrics: PeriodMetrics }
  change: { response_count: number; responses_with_mentions: number; avg_sentiment: number }
  brands: {
    brand_id: string
    name: string
    is_primary: boolean
    visibility_score: number
    /** docs/uncertainty-and-discovery.md: interval, sample size and the change against the previous period */
    visibility_ci: RateInterval | null
    responses: number
    visibility_change: PeriodChange
    mention_count: number
    share_of_voice: number
    sentiment_avg: number
    position_avg: number
  }[]
  by_provider: { provider: string; response_count: number; brands: Record<string, number> }[]
  daily_trend: { date: string; response_count: number }[]
  top_sources: { domain: string; citation_count: number }[]
}

const TOP_SOURCES = 10

/** `strategy: 'facts'` always reads the fact tables (tests compare the two paths). */
export async function getPromptDetail(db: DB, workspaceId: string, promptId: string, filters: AnalyticsFilters, strategy: ReadStrategy = 'auto'): Promise<PromptDetail> {
  const prompt = await db
    .selectFrom('prompt')
    .select(['id', 'text', 'tags', 'is_active', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', promptId)
    .executeTakeFirst()
  if (!prompt) throw new AppError(404, 'not_found', `No prompt ${promptId} in this workspace; GET /api/v1/prompts lists its prompts`)

  const prevRange = previousRange(filters.range)
  const previous: AnalyticsFilters = { ...filters, range: prevRange, ...rangeBounds(prevRange) }

  const read = strategy === 'auto' ? await readRollups(db, workspaceId, promptId, filters, previous) : undefined
  const { byProviderDay, byBrandProvider, current, currentMentions, before, beforeMentions, sources, brands, beforeByBrand } =
    read ?? (await readFacts(db, workspaceId, promptId, filters, previous))

  const providerResponses = new Map<string, number>()
  const dayResponses = new Map<string, number>()
  for (const row of byProviderDay) {
    providerResponses.set(row.provider, (providerResponses.get(row.provider) ?? 0) + Number(row.responses))
    dayResponses.set(row.day, (dayResponses.get(row.day) ?? 0) + Number(row.responses))
  }

  const metrics = (totals: { responses: number; sentiment: number | null }, mentions: { responses: number; brands: number }): PeriodMetrics => ({
    response_count: Number(totals.responses),
    responses_with_mentions: Number(mentions.responses),
    brands_mentioned: Number(mentions.brands),
    avg_sentiment: totals.sentiment === null ? 0 : roundSentiment(Number(totals.sentiment)),
  })
  const now = metrics(current, currentMentions)
  const then = metrics(before, beforeMentions)

  interface BrandSums {
    responses: number
    occurrences: number
    sentimentSum: number
    sentimentCount: number
    positionSum: number
    byProvider: Map<string, number>
  }
  const sums = new Map<string, BrandSums>()
  let allOccurrences = 0
  for (const row of byBrandProvider) {
    const s = sums.get(row.brand_id) ?? { responses: 0, occurrences: 0, sentimentSum: 0, sentimentCount: 0, positionSum: 0, byProvider: new Map() }
    s.responses += Number(row.responses)
    s.occurrences += Number(row.occurrences)
    s.sentimentSum += Number(row.sentiment_sum ?? 0)
    s.sentimentCount += Number(row.sentiment_count)
    s.positionSum += Number(row.position_sum)
    s.byProvider.set(row.provider, Number(row.responses))
    sums.set(row.brand_id, s)
    allOccurrences += Number(row.occurrences)
  }

  const brandRows = brands
    .map((brand) => {
      const s = sums.get(brand.id)
      const mentioning = s?.responses ?? 0
      const mentioningBefore = beforeByBrand.get(brand.id) ?? 0
      const visibility = percentage(mentioning, now.response_count)
      return {
        brand_id: brand.id,
        name: brand.name,
        is_primary: brand.is_primary,
        visibility_score: visibility,
        visibility_ci: visibilityCi(mentioning, now.response_count),
        responses: now.response_count,
        visibility_change: visibilityChange(
          { mentioning, responses: now.response_count },
          { mentioning: mentioningBefore, responses: then.response_count },
          roundScore(visibility - percentage(mentioningBefore, then.response_count)),
        ),
        mention_count: s?.occurrences ?? 0,
        share_of_voice: percentage(s?.occurrences ?? 0, allOccurrences),
        sentiment_avg: s && s.sentimentCount > 0 ? roundSentiment(s.sentimentSum / s.sentimentCount) : 0,
        position_avg: s && s.responses > 0 ? roundPosition(s.positionSum / s.responses) : 0,
      }
    })
    .sort((a, b) => b.visibility_score - a.visibility_score || compareText(a.name, b.name))

  const providers = [...PROVIDERS].sort()
  return {
    prompt,
    period: filters.range,
    metrics: now,
    ...comparePeriods(prevRange, now, then, { response_count: exact, responses_with_mentions: exact, avg_sentiment: roundSentiment }),
    brands: brandRows,
    by_provider: providers.map((provider) => {
      const total = providerResponses.get(provider) ?? 0
      return {
        provider,
        response_count: total,
        brands: Object.fromEntries(brandRows.map((b) => [b.name, percentage(sums.get(b.brand_id)?.byProvider.get(provider) ?? 0, total)])),
      }
    }),
    daily_trend: eachDay(filters.range).map((date) => ({ date, response_count: dayResponses.get(date) ?? 0 })),
    top_sources: sources.map((s) => ({ domain: s.domain, citation_count: Number(s.citation_count) })),
  }
}

// Plain string order: the same as collate "C" for the names brands have in practice.
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** What both paths hand to the folding above: small grouped results, numbers possibly as text (bigint, numeric). */
interface DetailInputs {
  byProviderDay: { provider: string; day: string; responses: number | string }[]
  byBrandProvider: {
    brand_id: string
    provider: string
    responses: number | string
    occurrences: number | string
    sentiment_sum: number | string | null
    sentiment_count: number | string
    position_sum: number | string
  }[]
  current: { responses: number; sentiment: number | null }
  currentMentions: { responses: number; brands: number }
  before: { responses: number; sentiment: number | null }
  beforeMentions: { responses: number; brands: number }
  sources: { domain: string; citation_count: number | string }[]
  brands: { id: string; name: string; is_primary: boolean }[]
  beforeByBrand: Map<string, number>
}

/** `column in (the workspace's active brands)`: both paths count mentions of brands active now. */
const isActiveBrand = (column: string, workspaceId: string) => sql<SqlBool>`${sql.ref(column)} in (select b.id from brand b where b.workspace_id = ${workspaceId} and b.is_active)`

const activeBrands = (db: DB, workspaceId: string) =>
  db.selectFrom('brand').select(['id', 'name', 'is_primary']).where('workspace_id', '=', workspaceId).where('is_active', '=', true).execute()

/** The straightforward read: grouped aggregates over the prompt's fact rows in each period. */
async function readFacts(db: DB, workspaceId: string, promptId: string, filters: AnalyticsFilters, previous: AnalyticsFilters): Promise<DetailInputs> {
  // Fact rows of this prompt in the period; mentions only of brands that are active now.
  const factsOf =
    <T extends 'response' | 'mention' | 'citation'>(table: T, period: AnalyticsFilters) =>
    (eb: ExpressionBuilder<Database, T>): Expression<SqlBool> => {
      const conditions = [responseFilterConditions(table, workspaceId, period), sql<SqlBool>`${sql.ref(`${table}.prompt_id`)} = ${promptId}`]
      if (table === 'mention') {
        conditions.push(isActiveBrand('mention.brand_id', workspaceId))
      }
      return eb.and(conditions)
    }

  const day = sql<string>`to_char(response.created_at at time zone 'UTC', 'YYYY-MM-DD')`
  const responsesByProviderDay = db
    .selectFrom('response')
    .select((eb) => ['response.provider', day.as('day'), eb.fn.countAll<number>().as('responses')])
    .where(factsOf('response', filters))
    .groupBy(['response.provider', day])
    .execute()

  const mentionsByBrandProvider = db
    .selectFrom('mention')
    .select((eb) => [
      'mention.brand_id',
      'mention.provider',
      eb.fn.countAll<number>().as('responses'),
      sql<number>`sum(mention.occurrences)`.as('occurrences'),
      sql<number | null>`sum(mention.sentiment)`.as('sentiment_sum'),
      sql<number>`count(mention.sentiment)`.as('sentiment_count'),
      sql<number>`sum(mention.position)`.as('position_sum'),
    ])
    .where(factsOf('mention', filters))
    .groupBy(['mention.brand_id', 'mention.provider'])
    .execute()

  const responseTotals = (period: AnalyticsFilters) =>
    db
      .selectFrom('response')
      .select((eb) => [eb.fn.countAll<number>().as('responses'), sql<number | null>`avg(response.sentiment)`.as('sentiment')])
      .where(factsOf('response', period))
      .executeTakeFirstOrThrow()

  const mentionTotals = (period: AnalyticsFilters) =>
    db
      .selectFrom('mention')
      .select([sql<number>`count(distinct mention.response_id)`.as('responses'), sql<number>`count(distinct mention.brand_id)`.as('brands')])
      .where(factsOf('mention', period))
      .executeTakeFirstOrThrow()

  const topSources = db
    .selectFrom('citation')
    .select((eb) => ['citation.domain', eb.fn.countAll<number>().as('citation_count')])
    .where(factsOf('citation', filters))
    .groupBy('citation.domain')
    .orderBy('citation_count', 'desc')
    .orderBy(sql`citation.domain collate "C"`)
    .limit(TOP_SOURCES)
    .execute()

  const [byProviderDay, byBrandProvider, current, currentMentions, before, beforeMentions, sources, brands, beforeByBrand] = await Promise.all([
    responsesByProviderDay,
    mentionsByBrandProvider,
    responseTotals(filters),
    mentionTotals(filters),
    responseTotals(previous),
    mentionTotals(previous),
    topSources,
    activeBrands(db, workspaceId),
    countPromptBrandMentions(db, workspaceId, promptId, previous),
  ])
  return { byProviderDay, byBrandProvider, current, currentMentions, before, beforeMentions, sources, brands, beforeByBrand }
}

/**
 * The same inputs from the prompt's rollups (migration 0025, families in
 * src/rollups/families/prompt-detail-stats.ts): rows per day or month and provider, brand or
 * domain of this one prompt, so the work follows the days of the range and the prompt's
 * brands and domains, not its number of answers. The mention and domain rows read whole
 * months, and a partial month as its days or as the month minus the days left out,
 * whichever are fewer (signed-month-cover.ts). The responses and the responses with a
 * mention are read by day: 4 providers a day at most, one index range each; by month (tried
 * as a migration) the extra branches cost more than the rows they saved. Undefined when a
 * filter (model_ids) is not served: the caller reads the facts. The tags filter selects the prompt or not (its current tags,
 * as the facts' condition reads them). The responses that mention an active brand come
 * from the facts while the workspace has an inactive brand (the rollup counts any brand);
 * the test is in the statement, so one snapshot decides.
 */
async function readRollups(db: DB, workspaceId: string, promptId: string, filters: AnalyticsFilters, previous: AnalyticsFilters): Promise<DetailInputs | undefined> {
  const scope = { ...filters, promptId }
  if (!rollupServes(['prompt-response-stats', 'prompt-mention-stats', 'prompt-mentioned-responses', 'prompt-domain-stats'], scope)) return undefined

  const promptSelected = filters.tags.length
    ? sql<SqlBool>`exists (select 1 from prompt p where p.workspace_id = ${workspaceId} and p.id = ${promptId} and p.tags && ${filters.tags}::text[])`
    : sql<SqlBool>`true`
  // One part of a range on alias s: its bucket column (day or month) and its days.
  const where = (bucket: Bucket, range: DateRange, providers = true): RawBuilder<SqlBool> => {
    const col = (name: string) => sql.ref(`s.${name}`)
    const parts = [
      sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`,
      sql<SqlBool>`${col('prompt_id')} = ${promptId}`,
      sql<SqlBool>`${col(bucket)} >= ${range.start}::date`,
      sql<SqlBool>`${col(bucket)} <= ${range.end}::date`,
      promptSelected,
    ]
    if (providers && filters.providers.length) parts.push(sql<SqlBool>`${col('provider')} = any(${filters.providers}::text[])`)
    return sql<SqlBool>`(${sql.join(parts, sql` and `)})`
  }
  const activeBrand = isActiveBrand('s.brand_id', workspaceId)
  // Month and day rows with partial months as the month minus the days left out
  // (signed-month-cover.ts): a key whose parts cancel sums to zero, and HAVING drops it.
  const mentionRows = (range: DateRange) =>
    signedRollupRows(
      calendarTables('prompt-mention-stats'),
      ['brand_id', 'provider'],
      ['responses', 'occurrences', 'position_sum', 'sentiment_sum', 'sentiment_count'],
      range,
      workspaceId,
      (bucket, part) => where(bucket, part),
    )

  const responsesByProviderDay = sql<{ provider: string; day: string; responses: number; sentiment_sum: number | null; sentiment_count: number }>`
    select s.provider, to_char(s.day, 'YYYY-MM-DD') as day, sum(s.responses) as responses, sum(s.sentiment_sum) as sentiment_sum, sum(s.sentiment_count) as sentiment_count
    from daily_prompt_response_stats s
    where ${where('day', filters.range)}
    group by 1, 2`

  const previousTotals = sql<{ responses: number; sentiment_sum: number | null; sentiment_count: number }>`
    select coalesce(sum(s.responses), 0) as responses, sum(s.sentiment_sum) as sentiment_sum, coalesce(sum(s.sentiment_count), 0) as sentiment_count
    from daily_prompt_response_stats s
    where ${where('day', previous.range)}`

  const mentionsByBrandProvider = sql<DetailInputs['byBrandProvider'][number]>`
    select s.brand_id, s.provider, sum(s.responses) as responses, sum(s.occurrences) as occurrences, sum(s.sentiment_sum) as sentiment_sum,
      sum(s.sentiment_count) as sentiment_count, sum(s.position_sum) as position_sum
    from ${mentionRows(filters.range)} s
    where ${activeBrand}
    group by 1, 2
    having sum(s.responses) > 0`

  const previousByBrand = sql<{ brand_id: string; responses: number }>`
    select s.brand_id, sum(s.responses) as responses
    from ${mentionRows(previous.range)} s
    where ${activeBrand}
    group by 1
    having sum(s.responses) > 0`

  // Responses mentioning an active brand in each period: the rollup counts responses
  // mentioning any brand, which is the same while no brand is inactive.
  const inactiveBrand = sql<SqlBool>`exists (select 1 from brand b where b.workspace_id = ${workspaceId} and not b.is_active)`
  const mentioned = (period: AnalyticsFilters) => sql<number>`(
    select coalesce(sum(n), 0) from (
      select s.responses as n from daily_prompt_mentioned_responses s where ${where('day', period.range)} and not ${inactiveBrand}
      union all
      select count(distinct m.response_id) from mention m
      where ${responseFilterConditions('m', workspaceId, period)} and m.prompt_id = ${promptId} and ${inactiveBrand}
        and ${isActiveBrand('m.brand_id', workspaceId)}
    ) x)`
  const mentionedResponses = sql<{ now: number; before: number }>`select ${mentioned(filters)} as now, ${mentioned(previous)} as before`

  const domainRows = signedRollupRows(calendarTables('prompt-domain-stats'), ['domain'], ['citations'], filters.range, workspaceId, (bucket, part) => where(bucket, part, false))
  const topSources = sql<{ domain: string; citation_count: number }>`
    select s.domain, sum(s.citations) as citation_count
    from ${domainRows} s
    group by 1
    having sum(s.citations) > 0
    order by 2 desc, s.domain collate "C"
    limit ${TOP_SOURCES}`

  // One statement (src/queries/select-together.ts): on PostgreSQL each statement of a request is a round trip, a parse and a plan.
  // Without tags it is read by workspace, prompt and days alone, planned alike for any
  // values: prepared once per connection, its plan (1.4-1.9 ms at 1M, more than its
  // execution) is not made on every request. A tags filter is planned for its tags, as on
  // the dashboard.
  const read = await selectTogether<{
    byDay: { provider: string; day: string; responses: number; sentiment_sum: number | null; sentiment_count: number }
    prevTotals: { responses: number; sentiment_sum: number | null; sentiment_count: number }
    byBrandProvider: DetailInputs['byBrandProvider'][number]
    prevByBrand: { brand_id: string; responses: number }
    withMentions: { now: number; before: number }
    sources: { domain: string; citation_count: number }
    brands: { id: string; name: string; is_primary: boolean }
  }>(
    db,
    {
      byDay: responsesByProviderDay,
      prevTotals: previousTotals,
      byBrandProvider: mentionsByBrandProvider,
      prevByBrand: previousByBrand,
      withMentions: mentionedResponses,
      sources: topSources,
      brands: sql<{ id: string; name: string; is_primary: boolean }>`select b.id, b.name, b.is_primary from brand b where b.workspace_id = ${workspaceId} and b.is_active`,
    },
    { prepare: filters.tags.length === 0 },
  )
  const { byDay, prevTotals, byBrandProvider, prevByBrand, withMentions, sources, brands } = read

  const totals = (rows: { responses: number; sentiment_sum: number | null; sentiment_count: number }[]) => {
    let responses = 0
    let sentimentSum = 0
    let sentimentCount = 0
    for (const row of rows) {
      responses += Number(row.responses)
      sentimentSum += Number(row.sentiment_sum ?? 0)
      sentimentCount += Number(row.sentiment_count)
    }
    return { responses, sentiment: sentimentCount > 0 ? sentimentSum / sentimentCount : null }
  }
  const counts = withMentions[0] ?? { now: 0, before: 0 }
  const beforeByBrand = new Map(prevByBrand.filter((row) => Number(row.responses) > 0).map((row) => [row.brand_id, Number(row.responses)]))
  return {
    byProviderDay: byDay,
    byBrandProvider,
    current: totals(byDay),
    currentMentions: { responses: Number(counts.now), brands: new Set(byBrandProvider.map((row) => row.brand_id)).size },
    before: totals(prevTotals),
    beforeMentions: { responses: Number(counts.before), brands: beforeByBrand.size },
    sources,
    brands,
    beforeByBrand,
  }
}
