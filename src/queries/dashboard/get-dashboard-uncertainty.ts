// The opt-in uncertainty of the dashboard's brand table (`include_uncertainty=true`,
// docs/uncertainty-and-discovery.md): per active brand, the responses naming it in the
// period and in the previous period of equal length, over the same rollups and filters as
// the dashboard itself, turned into a Wilson interval and a two-proportion test. One
// statement; only asked for when the client opts in, so the spec's answer costs nothing more.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import { previousRange } from '../../core/date-range.js'
import { visibilityChange, type PeriodChange } from '../../analysis/statistics.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import { rollupRowsInRange, totalResponsesFromRollup } from '../rollup-conditions.js'
import { percentage, roundScore } from '../rounding.js'
import { visibilityCi, type RateInterval } from '../uncertainty.js'

export interface BrandUncertainty {
  visibility_ci: RateInterval | null
  /** the sample the interval is measured over: responses in the period matching the filters */
  responses: number
  visibility_test: PeriodChange
}

interface Row {
  name: string
  mentioning_now: number | string
  mentioning_before: number | string
  responses_now: number | string
  responses_before: number | string
}

/** Keyed by brand name, like the dashboard's `brands`. */
export async function getDashboardUncertainty(db: DB, workspaceId: string, filters: AnalyticsFilters): Promise<Map<string, BrandUncertainty>> {
  const before = { ...filters, range: previousRange(filters.range) }
  const { rows } = await sql<Row>`
    with now_mentions as (
      select s.brand_id, sum(s.responses) as mentioning from ${rollupRowsInRange('brands', workspaceId, filters, ['brand_id', 'responses'])} s group by s.brand_id
    ), before_mentions as (
      select s.brand_id, sum(s.responses) as mentioning from ${rollupRowsInRange('brands', workspaceId, before, ['brand_id', 'responses'])} s group by s.brand_id
    ), totals as (
      select ${totalResponsesFromRollup(workspaceId, filters)} as responses_now,
        ${totalResponsesFromRollup(workspaceId, before)} as responses_before
    )
    select b.name, coalesce(n.mentioning, 0) as mentioning_now, coalesce(p.mentioning, 0) as mentioning_before, t.responses_now, t.responses_before
    from brand b
    cross join totals t
    left join now_mentions n on n.brand_id = b.id
    left join before_mentions p on p.brand_id = b.id
    where b.workspace_id = ${workspaceId} and b.is_active`.execute(db)
  const result = new Map<string, BrandUncertainty>()
  for (const row of rows) {
    const now = { mentioning: Number(row.mentioning_now), responses: Number(row.responses_now) }
    const then = { mentioning: Number(row.mentioning_before), responses: Number(row.responses_before) }
    // The delta is between the scores as shown, so a reader can check it by subtraction.
    const delta = roundScore(percentage(now.mentioning, now.responses) - percentage(then.mentioning, then.responses))
    result.set(row.name, { visibility_ci: visibilityCi(now.mentioning, now.responses), responses: now.responses, visibility_test: visibilityChange(now, then, delta) })
  }
  return result
}
