// GET /prompts: every active prompt with its responses in R and how many of them mention
// one brand (docs/metrics.md "Prompts"). Counts come from the fact tables grouped by prompt,
// then joined onto the prompt list so prompts without responses still appear.
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { AppError } from '../../core/errors.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'
import { percentage } from '../rounding.js'
import { dayConditions, type ReadStrategy } from '../rollup-conditions.js'
import { rollupServes } from '../../rollups/index.js'

export interface PromptPerformance {
  id: string
  text: string
  tags: string[]
  is_active: boolean
  performance: { response_count: number; avg_visibility: number }
}

/** Without a page every prompt is returned. A brand of another workspace is 404. */
export async function getPromptPerformance(
  db: DB,
  workspaceId: string,
  brandId: string,
  filters: AnalyticsFilters,
  page?: PageRequest,
  strategy: ReadStrategy = 'auto',
): Promise<{ prompts: PromptPerformance[]; totalItems: number }> {
  // The per-prompt daily rollups hold both counts; tags need no condition there, the
  // prompt list below applies them.
  const fast = strategy === 'auto' && rollupServes(['prompt-stats', 'prompt-brand-stats'], filters)
  const promptConditions = (tableAlias: string) => {
    const col = (name: string) => sql.ref(`${tableAlias}.${name}`)
    const conditions = [sql<SqlBool>`${col('workspace_id')} = ${workspaceId}`, sql<SqlBool>`${col('is_active')}`]
    if (filters.tags.length) conditions.push(sql<SqlBool>`${col('tags')} && ${filters.tags}::text[]`)
    return conditions
  }

  let listQuery = db
    .with('rc', (qb) =>
      fast
        ? qb
            .selectFrom('daily_prompt_stats as s')
            .select((eb) => ['s.prompt_id', eb.fn.sum<number>('s.responses').as('n')])
            .where(dayConditions('s', workspaceId, filters))
            .groupBy('s.prompt_id')
        : qb
            .selectFrom('response')
            .select((eb) => ['response.prompt_id', eb.fn.countAll<number>().as('n')])
            .where(() => responseFilterConditions('response', workspaceId, filters))
            .groupBy('response.prompt_id'),
    )
    .with('mc', (qb) =>
      fast
        ? qb
            .selectFrom('daily_prompt_brand_stats as s')
            .select((eb) => ['s.prompt_id', eb.fn.sum<number>('s.responses').as('n')])
            .where(dayConditions('s', workspaceId, filters))
            .where('s.brand_id', '=', brandId)
            .groupBy('s.prompt_id')
        : qb
            .selectFrom('mention')
            .select((eb) => ['mention.prompt_id', eb.fn.countAll<number>().as('n')])
            .where((eb) => eb.and([responseFilterConditions('mention', workspaceId, filters), eb('mention.brand_id', '=', brandId)]))
            .groupBy('mention.prompt_id'),
    )
    .selectFrom('prompt as p')
    .leftJoin('rc', 'rc.prompt_id', 'p.id')
    .leftJoin('mc', 'mc.prompt_id', 'p.id')
    .select(['p.id', 'p.text', 'p.tags', 'p.is_active', sql<number>`coalesce(rc.n, 0)`.as('response_count'), sql<number>`coalesce(mc.n, 0)`.as('mentioned')])
    .where((eb) => eb.and(promptConditions('p')))
    // Byte order keeps the tie-break identical on every server collation.
    .orderBy(sql`coalesce(rc.n, 0)`, 'desc')
    .orderBy(sql`p.text collate "C"`)
    .orderBy('p.id')

  const brandQuery = db.selectFrom('brand').select('id').where('workspace_id', '=', workspaceId).where('id', '=', brandId)
  const countQuery = db
    .selectFrom('prompt as p')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => eb.and(promptConditions('p')))
  if (page) listQuery = listQuery.limit(page.perPage).offset(pageOffset(page))
  const [brand, rows, count] = await Promise.all([brandQuery.executeTakeFirst(), listQuery.execute(), page ? countQuery.executeTakeFirstOrThrow() : undefined])
  if (!brand) throw brandNotFound(brandId)
  const totalItems = count ? Number(count.total) : rows.length

  return {
    prompts: rows.map((row) => ({
      id: row.id,
      text: row.text,
      tags: row.tags,
      is_active: row.is_active,
      performance: { response_count: Number(row.response_count), avg_visibility: percentage(Number(row.mentioned), Number(row.response_count)) },
    })),
    totalItems,
  }
}

const brandNotFound = (brandId: string) => new AppError(404, 'not_found', `No brand ${brandId} in this workspace; GET /api/v1/filters lists its brands`)
