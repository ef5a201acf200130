// One brand over a period (an extension: the spec leaves its shape open). Beside the
// dashboard metrics it carries share of voice, the previous period of equal length and
// the change (docs/metrics.md, last point), a per-provider split, a zero-filled daily trend,
// and the prompts and sources behind the numbers.
//
// Current and previous periods come from the same aggregates over both periods at once,
// so the whole detail is six selects, sent as one statement (select-together.ts).
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { PROVIDERS } from '../../core/providers.js'
import { eachDay, previousRange, type DateRange } from '../../core/date-range.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'
import { dayConditions, rollupConditions, rollupTables, type ReadStrategy } from '../rollup-conditions.js'
import { rollupServes } from '../../rollups/index.js'
import { percentage, roundPosition, roundScore, roundSentiment } from '../rounding.js'
import { visibilityCi, type RateInterval } from '../uncertainty.js'
import { visibilityChange, type PeriodChange } from '../../analysis/statistics.js'
import { comparePeriods, exact } from '../period-comparison.js'
import { brandRecordColumns, toBrandRecord, type BrandRecord } from './brand-record.js'
import { selectTogether } from '../select-together.js'
import { brandDiscoverySelect, toBrandDiscovery, type BrandDiscoveryEvidence } from './get-brand-discovery.js'

export interface PeriodMetrics {
  visibility_score: number
  mention_count: number
  sentiment_avg: number
  position_avg: number
  share_of_voice: number
  response_count: number
  responses_mentioning: number
  /** docs/uncertainty-and-discovery.md: the interval of visibility_score and its sample size */
  visibility_ci: RateInterval | null
  responses: number
}

export interface ProviderMetrics {
  provider: string
  visibility_score: number
  mention_count: number
  sentiment_avg: number
  position_avg: number
  response_count: number
  visibility_ci: RateInterval | null
}

export interface BrandDetail {
  brand: BrandRecord
  /** the names besides `name` that count as mentions (Beacon extension: settings show and edit them) */
  aliases: string[]
  period: DateRange
  metrics: PeriodMetrics
  previous_period: DateRange & { metrics: PeriodMetrics }
  change: Pick<PeriodMetrics, 'visibility_score' | 'mention_count' | 'sentiment_avg' | 'position_avg' | 'share_of_voice'> & { visibility_test: PeriodChange }
  by_provider: ProviderMetrics[]
  daily_trend: { date: string; visibility_score: number; mention_count: number }[]
  top_prompts: { prompt_id: string; text: string; visibility_score: number; visibility_ci: RateInterval | null; mention_count: number; response_count: number }[]
  top_sources: { domain: string; citation_count: number }[]
  /** evidence of competitor discovery, only on brands it proposed */
  discovery?: BrandDiscoveryEvidence
}

const TOP_LIMIT = 10

/** Additive parts of the metrics, so days and providers can be summed exactly before dividing. */
interface Tally {
  responses: number
  mentioning: number
  occurrences: number
  sentimentSum: number
  sentimentCount: number
  positionSum: number
  /** occurrences of every active brand (and this one): the share-of-voice denominator; per period only */
  allOccurrences: number
}

const emptyTally = (): Tally => ({ responses: 0, mentioning: 0, occurrences: 0, sentimentSum: 0, sentimentCount: 0, positionSum: 0, allOccurrences: 0 })

function add(into: Tally, part: Partial<Tally>): void {
  for (const key of Object.keys(part) as (keyof Tally)[]) into[key] += part[key] ?? 0
}

const visibility = (t: Tally) => percentage(t.mentioning, t.responses)
const sentiment = (t: Tally) => (t.sentimentCount > 0 ? roundSentiment(t.sentimentSum / t.sentimentCount) : 0)
const position = (t: Tally) => (t.mentioning > 0 ? roundPosition(t.positionSum / t.mentioning) : 0)

function periodMetrics(t: Tally): PeriodMetrics {
  return {
    visibility_score: visibility(t),
    mention_count: t.occurrences,
    sentiment_avg: sentiment(t),
    position_avg: position(t),
    share_of_voice: percentage(t.occurrences, t.allOccurrences),
    response_count: t.responses,
    responses_mentioning: t.mentioning,
    visibility_ci: visibilityCi(t.mentioning, t.responses),
    responses: t.responses,
  }
}

export async function getBrandDetail(db: DB, workspaceId: string, brandId: string, filters: AnalyticsFilters, strategy: ReadStrategy = 'auto'): Promise<BrandDetail | null> {
  const previous = previousRange(filters.range)
  // Rows of the current period get their UTC day; the previous period only needs totals,
  // so its rows share one null bucket and skip the formatting.
  const rollupDay = sql<string | null>`case when s.day >= ${filters.range.start}::date then to_char(s.day, 'YYYY-MM-DD') end`
  // Both periods at once: from the previous start to the current end.
  const spanRollup = { ...filters, range: { start: previous.start, end: filters.range.end } }
  const tables = rollupTables(filters)
  const promptFast = strategy === 'auto' && rollupServes(['prompt-stats', 'prompt-brand-stats'], filters)
  // The per-prompt rollups have no tags; a tags filter is the set of prompts carrying them.
  const taggedPrompts = (alias: string) =>
    filters.tags.length
      ? sql<SqlBool>`${sql.ref(`${alias}.prompt_id`)} in (select p.id from prompt p where p.workspace_id = ${workspaceId} and p.tags && ${filters.tags}::text[])`
      : sql<SqlBool>`true`

  const { brands, brandRows, voiceRows, responseRows, topPrompts, topSources, discovery } = await selectTogether(db, {
    brands: db
      .selectFrom('brand')
      .select([...brandRecordColumns, 'aliases'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', brandId),
    // The brand's own totals, by day and provider, from the exact daily rollup.
    brandRows: db
      .selectFrom(`${tables.brands.day} as s` as 'daily_mention_stats as s')
      .select((eb) => [
        rollupDay.as('day'),
        's.provider',
        eb.fn.sum<number>('s.responses').as('mentioning'),
        eb.fn.sum<number>('s.occurrences').as('occurrences'),
        // Null sentiments were never added to the sums, as docs/metrics.md asks.
        eb.fn.sum<number>('s.sentiment_sum').as('sentiment_sum'),
        eb.fn.sum<number>('s.sentiment_count').as('sentiment_count'),
        eb.fn.sum<number>('s.position_sum').as('position_sum'),
      ])
      .where(rollupConditions('s', workspaceId, spanRollup))
      .where('s.brand_id', '=', brandId)
      .groupBy([sql`1`, 's.provider']),
    // Share-of-voice denominators: occurrences of every active brand (and this one), per period.
    voiceRows: db
      .selectFrom(`${tables.brands.day} as s` as 'daily_mention_stats as s')
      .select((eb) => [sql<boolean>`s.day >= ${filters.range.start}::date`.as('current'), eb.fn.sum<number>('s.occurrences').as('occurrences')])
      .where(rollupConditions('s', workspaceId, spanRollup))
      .where((eb) =>
        eb.or([eb('s.brand_id', '=', brandId), eb('s.brand_id', 'in', eb.selectFrom('brand').select('id').where('workspace_id', '=', workspaceId).where('is_active', '=', true))]),
      )
      .groupBy(sql`1`),
    responseRows: db
      .selectFrom(`${tables.responses.day} as s` as 'daily_response_stats as s')
      .select([rollupDay.as('day'), 's.provider', (eb) => eb.fn.sum<number>('s.responses').as('responses')])
      .where(rollupConditions('s', workspaceId, spanRollup))
      .groupBy([sql`1`, 's.provider']),
    topPrompts: db
      .selectFrom(
        promptFast
          ? db
              .selectFrom('daily_prompt_stats as s')
              .select(['s.prompt_id', (eb) => eb.fn.sum<number>('s.responses').as('responses')])
              .where(dayConditions('s', workspaceId, filters))
              .where(taggedPrompts('s'))
              .groupBy('s.prompt_id')
              .as('rp')
          : db
              .selectFrom('response')
              .select(['prompt_id', (eb) => eb.fn.countAll<number>().as('responses')])
              .where(() => responseFilterConditions('response', workspaceId, filters))
              .groupBy('prompt_id')
              .as('rp'),
      )
      .innerJoin('prompt as p', (join) => join.on('p.workspace_id', '=', workspaceId).onRef('p.id', '=', 'rp.prompt_id'))
      .leftJoin(
        promptFast
          ? db
              .selectFrom('daily_prompt_brand_stats as s')
              .select(['s.prompt_id', (eb) => eb.fn.sum<number>('s.responses').as('mentioning'), (eb) => eb.fn.sum<number>('s.occurrences').as('occurrences')])
              .where(dayConditions('s', workspaceId, filters))
              .where('s.brand_id', '=', brandId)
              .groupBy('s.prompt_id')
              .as('mp')
          : db
              .selectFrom('mention')
              .select(['prompt_id', (eb) => eb.fn.countAll<number>().as('mentioning'), (eb) => eb.fn.sum<number>('occurrences').as('occurrences')])
              .where(() => responseFilterConditions('mention', workspaceId, filters))
              .where('brand_id', '=', brandId)
              .groupBy('prompt_id')
              .as('mp'),
        (join) => join.onRef('mp.prompt_id', '=', 'rp.prompt_id'),
      )
      .select(['rp.prompt_id', 'p.text', 'rp.responses', sql<number>`coalesce(mp.mentioning, 0)`.as('mentioning'), sql<number>`coalesce(mp.occurrences, 0)`.as('occurrences')])
      .orderBy(sql`coalesce(mp.mentioning, 0)::float8 / rp.responses`, 'desc')
      .orderBy(sql`coalesce(mp.occurrences, 0)`, 'desc')
      .orderBy('rp.responses', 'desc')
      .orderBy('rp.prompt_id')
      .limit(TOP_LIMIT),
    topSources:
      strategy === 'auto' && rollupServes('brand-domain-stats', filters)
        ? db
            .selectFrom('daily_brand_domain_stats')
            .select(['domain', (eb) => eb.fn.sum<number>('citations').as('citations')])
            .where('workspace_id', '=', workspaceId)
            .where('brand_id', '=', brandId)
            .where('day', '>=', filters.range.start)
            .where('day', '<=', filters.range.end)
            .groupBy('domain')
            .orderBy('citations', 'desc')
            .orderBy('domain')
            .limit(TOP_LIMIT)
        : // Driven from the brand's mentions (same filter columns as their responses), each
          // probing its response's citations by primary key. Written as a lateral join so the
          // plan stays this one even without table statistics (PGlite never gathers them).
          db
            .selectFrom('mention')
            .innerJoinLateral(
              (eb) =>
                eb
                  .selectFrom('citation')
                  .select('citation.domain')
                  .whereRef('citation.workspace_id', '=', 'mention.workspace_id')
                  .whereRef('citation.response_id', '=', 'mention.response_id')
                  .as('c'),
              (join) => join.onTrue(),
            )
            .select(['c.domain', (eb) => eb.fn.countAll<number>().as('citations')])
            .where(responseFilterConditions('mention', workspaceId, filters))
            .where('mention.brand_id', '=', brandId)
            .groupBy('c.domain')
            .orderBy('citations', 'desc')
            .orderBy('c.domain')
            .limit(TOP_LIMIT),
    discovery: brandDiscoverySelect(db, workspaceId, brandId),
  })
  const brand = brands[0]
  if (!brand) return null

  const current = emptyTally()
  const before = emptyTally()
  const byProvider = new Map<string, Tally>(PROVIDERS.map((p) => [p, emptyTally()]))
  const byDay = new Map<string, Tally>(eachDay(filters.range).map((d) => [d, emptyTally()]))
  const place = (row: { day: string | null; provider: string }, part: Partial<Tally>) => {
    if (row.day === null) {
      add(before, part)
      return
    }
    add(current, part)
    // A provider outside the catalogue cannot be stored (foreign key); the guard is for types.
    const provider = byProvider.get(row.provider)
    if (provider) add(provider, part)
    const daily = byDay.get(row.day)
    if (daily) add(daily, part)
  }
  for (const row of responseRows) place(row, { responses: Number(row.responses) })
  for (const row of brandRows) {
    place(row, {
      mentioning: Number(row.mentioning),
      occurrences: Number(row.occurrences),
      sentimentSum: Number(row.sentiment_sum),
      sentimentCount: Number(row.sentiment_count),
      positionSum: Number(row.position_sum),
    })
  }
  for (const row of voiceRows) add(row.current ? current : before, { allOccurrences: Number(row.occurrences) })

  const metrics = periodMetrics(current)
  const { previous_period, change } = comparePeriods(previous, metrics, periodMetrics(before), {
    visibility_score: roundScore,
    mention_count: exact,
    sentiment_avg: roundSentiment,
    position_avg: roundPosition,
    share_of_voice: roundScore,
  })
  const visibilityTest = visibilityChange(current, before, change.visibility_score)

  return {
    brand: toBrandRecord(brand),
    aliases: brand.aliases,
    period: filters.range,
    metrics,
    previous_period,
    change: { ...change, visibility_test: visibilityTest },
    by_provider: [...byProvider.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([provider, t]) => ({
        provider,
        visibility_score: visibility(t),
        mention_count: t.occurrences,
        sentiment_avg: sentiment(t),
        position_avg: position(t),
        response_count: t.responses,
        visibility_ci: visibilityCi(t.mentioning, t.responses),
      })),
    daily_trend: [...byDay.entries()].map(([date, t]) => ({ date, visibility_score: visibility(t), mention_count: t.occurrences })),
    top_prompts: topPrompts.map((row) => ({
      prompt_id: row.prompt_id,
      text: row.text,
      visibility_score: percentage(Number(row.mentioning), Number(row.responses)),
      visibility_ci: visibilityCi(Number(row.mentioning), Number(row.responses)),
      mention_count: Number(row.occurrences),
      response_count: Number(row.responses),
    })),
    top_sources: topSources.map((row) => ({ domain: row.domain, citation_count: Number(row.citations) })),
    ...(discovery[0] ? { discovery: toBrandDiscovery(discovery[0]) } : {}),
  }
}
