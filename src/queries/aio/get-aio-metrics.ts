// GET /aio-metrics: how often an AI overview is shown for the tracked prompts, and how
// often each brand appears in it (docs/metrics.md "AIO"). Observations are grouped by day in
// SQL; the totals are the sum of those at most 366-odd rows.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import { rangeBounds, type DateRange } from '../../core/date-range.js'
import { ratio, roundPosition } from '../rounding.js'
import { ratioCi, type RateInterval } from '../uncertainty.js'
import { getCoverageBrands } from './coverage-brands.js'
import { observationConditions } from './observation-conditions.js'

export interface BrandCoverage {
  appearance_rate: number
  avg_position: number
  total_appearances: number
  appearance_rate_ci?: RateInterval | null
}

export interface AioMetrics {
  coverage_rate: number
  coverage_rate_ci?: RateInterval | null
  total_queries: number
  queries_with_aio: number
  brand_coverage: Record<string, BrandCoverage>
  trend: { date: string; coverage_rate: number }[]
}

export async function getAioMetrics(
  db: DB,
  workspaceId: string,
  options: { range: DateRange; tags: string[]; targetBrandId?: string; includeUncertainty?: boolean },
): Promise<AioMetrics> {
  const filters = { ...rangeBounds(options.range), tags: options.tags }
  // Grouped by the date and formatted per group: formatting every observation cost more
  // than the index-only scan that reads them.
  const date = sql<string>`(aio_observation.observed_at at time zone 'UTC')::date`
  const day = sql<string>`to_char(${date}, 'YYYY-MM-DD')`
  const [brands, days, appearances] = await Promise.all([
    getCoverageBrands(db, workspaceId, options.targetBrandId),
    db
      .selectFrom('aio_observation')
      .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('total'), sql<number>`count(*) filter (where aio_observation.has_aio)`.as('with_aio')])
      .where((eb) => eb.and(observationConditions('aio_observation', workspaceId, filters)))
      .groupBy(date)
      .orderBy(date)
      .execute(),
    db
      .selectFrom('aio_appearance')
      .select((eb) => ['aio_appearance.brand_id', eb.fn.countAll<number>().as('appearances'), sql<number>`avg(aio_appearance.position)`.as('position')])
      .where((eb) => {
        const conditions = observationConditions('aio_appearance', workspaceId, filters)
        if (options.targetBrandId) conditions.push(sql`aio_appearance.brand_id = ${options.targetBrandId}`)
        return eb.and(conditions)
      })
      .groupBy('aio_appearance.brand_id')
      .execute(),
  ])

  let totalQueries = 0
  let withAio = 0
  for (const row of days) {
    totalQueries += Number(row.total)
    withAio += Number(row.with_aio)
  }
  const byBrand = new Map(appearances.map((row) => [row.brand_id, row]))
  const uncertain = options.includeUncertainty === true
  return {
    coverage_rate: ratio(withAio, totalQueries),
    ...(uncertain ? { coverage_rate_ci: ratioCi(withAio, totalQueries) } : {}),
    total_queries: totalQueries,
    queries_with_aio: withAio,
    brand_coverage: Object.fromEntries(
      brands.map((brand) => {
        const row = byBrand.get(brand.id)
        const count = row ? Number(row.appearances) : 0
        const coverage: BrandCoverage = { appearance_rate: ratio(count, withAio), avg_position: row ? roundPosition(Number(row.position)) : 0, total_appearances: count }
        if (uncertain) coverage.appearance_rate_ci = ratioCi(count, withAio)
        return [brand.name, coverage]
      }),
    ),
    trend: days.map((row) => ({ date: row.day, coverage_rate: ratio(Number(row.with_aio), Number(row.total)) })),
  }
}
