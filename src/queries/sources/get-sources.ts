// Cited domains over R (docs/metrics.md, spec 2.6): one aggregate ranks the domains, one grouped
// daily count covers the requested page's domains only, and the size of R gives the shares.
import { sql, type Expression, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { compileSourceClassifier, type SourceType } from '../../analysis/source-types.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { percentage, roundScore } from '../rounding.js'
import { calendarRollupRows, calendarTables, dayConditions, rangeOfDays, type ReadStrategy } from '../rollup-conditions.js'
import { rollupServes } from '../../rollups/index.js'
import { citationConditions } from './citation-scope.js'
import { chartsFromSeries, zeroFilledCharts, type DailyCount, type KeyedDayCount } from './daily-chart.js'
import { ensurePromptTemplate } from './ensure-prompt-template.js'
import { selectTogether } from '../select-together.js'

export interface SourceRecord {
  domain: string
  source_type: SourceType
  citation_count: number
  authority_score: number
  usage_percentage: number
  last_cited: Date
  daily_chart: DailyCount[]
}

export interface SourcesPage {
  sources: SourceRecord[]
  totalItems: number
}

export interface SourcesOptions extends PageRequest {
  promptId?: string
}

interface DomainRow {
  domain: string
  citation_count: number
  citing_providers: number
  citing_prompts: number
  last_cited: Date
  total_items: number
}

interface Population {
  responses: number
  providers: number
  prompts: number
}

/**
 * A domain's days in the range as three parallel arrays: day offsets from the range start,
 * citations, citing responses (null without rows). Formatting 7,300 dates and building an
 * object per day cost the database more than the rest of the page together.
 */
type DayColumns = [number[] | null, number[] | null, number[] | null]

const SOURCE_FAMILIES = ['domain-stats', 'domain-provider-days', 'domain-prompt-days', 'prompt-days', 'response-totals'] as const

export async function getSources(db: DB, workspaceId: string, filters: AnalyticsFilters, options: SourcesOptions, strategy: ReadStrategy = 'auto'): Promise<SourcesPage> {
  const scope = { promptId: options.promptId }
  // Every family the fast path reads must serve every active filter (and the prompt scope).
  if (strategy === 'auto' && rollupServes(SOURCE_FAMILIES, { ...filters, ...scope })) return rolledUpSources(db, workspaceId, filters, options)
  const [, population, rows, classify] = await Promise.all([
    ensurePromptTemplate(db, workspaceId, options.promptId),
    responsePopulation(db, citationConditions('response', workspaceId, filters, scope)),
    domainPage(db, citationConditions('citation', workspaceId, filters, scope), options),
    sourceClassifier(db, workspaceId),
  ])
  if (rows.length === 0) return { sources: [], totalItems: await totalPastTheEnd(db, workspaceId, filters, options) }
  const domains = rows.map((row) => row.domain)
  const daily = await dailyCounts(db, citationConditions('citation', workspaceId, filters, { ...scope, domains }))
  const citingResponses = new Map<string, number>()
  for (const row of daily) citingResponses.set(row.key, (citingResponses.get(row.key) ?? 0) + Number(row.responses))
  const charts = zeroFilledCharts(filters.range, domains, daily)
  return { sources: sourceRecords(rows, charts, citingResponses, population, classify), totalItems: rows[0].total_items }
}

// The rollups answer in one statement (select-together.ts): R's size, the ranked page with
// each domain's days, and the brands that classify the domains.
async function rolledUpSources(db: DB, workspaceId: string, filters: AnalyticsFilters, options: SourcesOptions): Promise<SourcesPage> {
  const [, { population, page, brands }] = await Promise.all([
    ensurePromptTemplate(db, workspaceId, options.promptId),
    selectTogether(db, {
      population: rolledUpPopulation(workspaceId, filters),
      page: rolledUpDomainPage(workspaceId, filters, options),
      brands: classifyingBrands(db, workspaceId),
    }),
  ])
  if (page.length === 0) return { sources: [], totalItems: await totalPastTheEnd(db, workspaceId, filters, options) }
  // Through JSON a timestamp is ISO text.
  const rows = page.map((row) => ({ ...row, last_cited: new Date(row.last_cited) }))
  const series = new Map(page.map(({ domain, days: [offsets, counts] }) => [domain, { offsets, counts }]))
  const citingResponses = new Map(page.map(({ domain, days: [, , responses] }) => [domain, (responses ?? []).reduce((sum, n) => sum + n, 0)]))
  const charts = chartsFromSeries(
    filters.range,
    rows.map((row) => row.domain),
    series,
  )
  return { sources: sourceRecords(rows, charts, citingResponses, population[0], classifierOf(brands)), totalItems: rows[0].total_items }
}

// count(*) over () only rides along on rows; past the last page ask for the total.
async function totalPastTheEnd(db: DB, workspaceId: string, filters: AnalyticsFilters, options: SourcesOptions): Promise<number> {
  return pageOffset(options) > 0 ? countDomains(db, citationConditions('citation', workspaceId, filters, { promptId: options.promptId })) : 0
}

function sourceRecords(
  rows: readonly DomainRow[],
  charts: ReadonlyMap<string, DailyCount[]>,
  citingResponses: ReadonlyMap<string, number>,
  population: Population,
  classify: (domain: string) => SourceType,
): SourceRecord[] {
  return rows.map((row) => ({
    domain: row.domain,
    source_type: classify(row.domain),
    citation_count: Number(row.citation_count),
    authority_score: authorityScore(row, population),
    usage_percentage: percentage(citingResponses.get(row.domain) ?? 0, Number(population.responses)),
    last_cited: row.last_cited,
    daily_chart: charts.get(row.domain) ?? [],
  }))
}

/** 100 × sqrt(provider share × prompt share): broad only when cited across both. */
function authorityScore(row: DomainRow, population: Population): number {
  if (population.providers === 0 || population.prompts === 0) return 0
  return roundScore(100 * Math.sqrt((row.citing_providers / population.providers) * (row.citing_prompts / population.prompts)))
}

// A response has one created_at, so its distinct count per (domain, day) adds up
// exactly to the per-domain count: the chart query also yields the citing responses.
async function dailyCounts(db: DB, where: Expression<SqlBool>): Promise<(KeyedDayCount & { responses: number })[]> {
  const { rows } = await sql<KeyedDayCount & { responses: number }>`
    select domain as key, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as count,
      count(distinct response_id) as responses
    from citation
    where ${where}
    group by 1, 2
  `.execute(db)
  return rows
}

// R's size, providers and prompts from the rollups: the daily totals and the days each
// prompt had responses on.
function rolledUpPopulation(workspaceId: string, filters: AnalyticsFilters) {
  return sql<Population>`
    select coalesce(sum(t.responses), 0)::int as responses, count(distinct t.provider)::int as providers,
      (select count(*) from prompt_days p where p.workspace_id = ${workspaceId} and p.days && ${rangeOfDays(filters)})::int as prompts
    from daily_response_totals t
    where t.workspace_id = ${workspaceId} and t.day >= ${filters.range.start}::date and t.day <= ${filters.range.end}::date
  `
}

// The page is ranked from whole months and loose days of the domain totals; only its
// domains are then probed for the providers and prompts that cited them in the range, and
// for their days.
function rolledUpDomainPage(workspaceId: string, filters: AnalyticsFilters, page: PageRequest) {
  const range = rangeOfDays(filters)
  const domainRows = calendarRollupRows(calendarTables('domain-stats'), ['domain', 'citations', 'last_cited'], filters.range, workspaceId, (dateColumn, days) =>
    dayConditions('s', workspaceId, { range: days }, dateColumn),
  )
  return sql<Omit<DomainRow, 'last_cited'> & { last_cited: string; days: DayColumns }>`
    with ranked as (
      select domain, sum(citations) as citation_count, max(last_cited) as last_cited, count(*) over () as total_items
      from ${domainRows} d
      group by domain
      order by citation_count desc, domain
      limit ${page.perPage} offset ${pageOffset(page)}
    )
    select r.domain, r.citation_count, r.last_cited, r.total_items,
      (select count(*) from domain_provider_days p where p.workspace_id = ${workspaceId} and p.domain = r.domain and p.days && ${range}) as citing_providers,
      (select count(*) from domain_prompt_days p where p.workspace_id = ${workspaceId} and p.domain = r.domain and p.days && ${range}) as citing_prompts,
      (select json_build_array(array_agg(d.day - ${filters.range.start}::date), array_agg(d.citations), array_agg(d.responses)) from daily_domain_stats d
       where d.workspace_id = ${workspaceId} and d.domain = r.domain and d.day >= ${filters.range.start}::date and d.day <= ${filters.range.end}::date) as days
    from ranked r
    order by r.citation_count desc, r.domain
  `
}

// Grouped by (provider, prompt) so the database hashes instead of sorting for distinct
// counts; the result has at most providers × prompts rows.
async function responsePopulation(db: DB, where: Expression<SqlBool>): Promise<Population> {
  const { rows } = await sql<{ provider: string; prompt_id: string; responses: number }>`
    select provider, prompt_id, count(*) as responses from response where ${where} group by provider, prompt_id
  `.execute(db)
  return {
    responses: rows.reduce((sum, row) => sum + row.responses, 0),
    providers: new Set(rows.map((row) => row.provider)).size,
    prompts: new Set(rows.map((row) => row.prompt_id)).size,
  }
}

// Ranking needs no per-response de-duplication, so R's citations are folded by
// (domain, provider, prompt) in one hash aggregate (small: domains × providers × prompts)
// and the distinct provider/prompt counts run over that. Counting citing responses
// needs a distinct over (domain, response) pairs, which on PostgreSQL with 3M citations
// cost several times more (sorts spilling to disk); it is done for the page's domains only.
async function domainPage(db: DB, where: Expression<SqlBool>, page: PageRequest): Promise<DomainRow[]> {
  const { rows } = await sql<DomainRow>`
    with slices as (
      select domain, provider, prompt_id, count(*) as citations, max(created_at) as last_cited
      from citation
      where ${where}
      group by domain, provider, prompt_id
    )
    select domain,
      sum(citations) as citation_count,
      count(distinct provider) as citing_providers,
      count(distinct prompt_id) as citing_prompts,
      max(last_cited) as last_cited,
      count(*) over () as total_items
    from slices
    group by domain
    order by citation_count desc, domain
    limit ${page.perPage} offset ${pageOffset(page)}
  `.execute(db)
  return rows
}

async function countDomains(db: DB, where: Expression<SqlBool>): Promise<number> {
  const { rows } = await sql<{ total: number }>`select count(distinct domain) as total from citation where ${where}`.execute(db)
  return rows[0]?.total ?? 0
}

// Owned = the primary brand's site; competitors = the other brands still tracked
// (inactive or rejected brands are no longer competitors the user cares about).
export async function sourceClassifier(db: DB, workspaceId: string): Promise<(domain: string) => SourceType> {
  return classifierOf(await classifyingBrands(db, workspaceId).execute())
}

function classifyingBrands(db: DB, workspaceId: string) {
  return db
    .selectFrom('brand')
    .select(['domain', 'is_primary'])
    .where('workspace_id', '=', workspaceId)
    .where('domain', 'is not', null)
    .where((eb) => eb.or([eb('is_primary', '=', true), eb.and([eb('is_active', '=', true), eb('discovery_status', '<>', 'rejected')])]))
}

function classifierOf(brands: readonly { domain: string | null; is_primary: boolean }[]): (domain: string) => SourceType {
  return compileSourceClassifier({
    ownedDomains: brands.filter((b) => b.is_primary).map((b) => b.domain as string),
    competitorDomains: brands.filter((b) => !b.is_primary).map((b) => b.domain as string),
  })
}
