// GET /aio-metrics/prompt/{id}: AI-overview coverage of one prompt and how many times
// each brand appeared in its overviews.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import { rangeBounds, type DateRange } from '../../core/date-range.js'
import { AppError } from '../../core/errors.js'
import { ratio } from '../rounding.js'
import { getCoverageBrands } from './coverage-brands.js'
import { observationConditions } from './observation-conditions.js'

export interface PromptAioMetrics {
  prompt_id: string
  prompt_text: string
  coverage_rate: number
  total_queries: number
  queries_with_aio: number
  brand_appearances: Record<string, number>
}

export async function getPromptAioMetrics(db: DB, workspaceId: string, promptId: string, options: { range: DateRange; targetBrandId?: string }): Promise<PromptAioMetrics> {
  const filters = { ...rangeBounds(options.range), promptId }
  const [prompt, brands, totals, appearances] = await Promise.all([
    db.selectFrom('prompt').select(['id', 'text']).where('workspace_id', '=', workspaceId).where('id', '=', promptId).executeTakeFirst(),
    getCoverageBrands(db, workspaceId, options.targetBrandId),
    db
      .selectFrom('aio_observation')
      .select((eb) => [eb.fn.countAll<number>().as('total'), sql<number>`count(*) filter (where aio_observation.has_aio)`.as('with_aio')])
      .where((eb) => eb.and(observationConditions('aio_observation', workspaceId, filters)))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('aio_appearance')
      .select((eb) => ['aio_appearance.brand_id', eb.fn.countAll<number>().as('appearances')])
      .where((eb) => {
        const conditions = observationConditions('aio_appearance', workspaceId, filters)
        if (options.targetBrandId) conditions.push(sql`aio_appearance.brand_id = ${options.targetBrandId}`)
        return eb.and(conditions)
      })
      .groupBy('aio_appearance.brand_id')
      .execute(),
  ])
  if (!prompt) throw new AppError(404, 'not_found', `No prompt ${promptId} in this workspace; GET /api/v1/prompts lists its prompts`)

  const byBrand = new Map(appearances.map((row) => [row.brand_id, Number(row.appearances)]))
  const total = Number(totals.total)
  const withAio = Number(totals.with_aio)
  return {
    prompt_id: prompt.id,
    prompt_text: prompt.text,
    coverage_rate: ratio(withAio, total),
    total_queries: total,
    queries_with_aio: withAio,
    brand_appearances: Object.fromEntries(brands.map((brand) => [brand.name, byBrand.get(brand.id) ?? 0])),
  }
}
