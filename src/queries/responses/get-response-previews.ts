// GET /responses: stored answers, newest first, each with a preview of its content.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import type { Database } from '../../db/schema.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'
import { totalResponsesFromRollup } from '../rollup-conditions.js'

/**
 * Preview length in Unicode code points (docs/metrics.md). PostgreSQL's left() counts
 * characters of the UTF-8 database, i.e. code points, so a surrogate pair is never split.
 */
export const PREVIEW_LENGTH = 200

export interface ResponsePreview {
  id: string
  provider: string
  model: string
  content_preview: string
  created_at: Date
}

export async function getResponsePreviews(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  options: { hasContent?: boolean; page: PageRequest },
): Promise<{ responses: ResponsePreview[]; totalItems: number }> {
  const matching = (eb: ExpressionBuilder<Database, 'response'>): Expression<SqlBool> => {
    const conditions = [responseFilterConditions('response', workspaceId, filters)]
    if (options.hasContent === true) conditions.push(sql<SqlBool>`response.content <> ''`)
    if (options.hasContent === false) conditions.push(sql<SqlBool>`response.content = ''`)
    return eb.and(conditions)
  }

  const [responses, count] = await Promise.all([
    db
      .selectFrom('response')
      .select(['response.id', 'response.provider', 'response.model', sql<string>`left(response.content, ${sql.lit(PREVIEW_LENGTH)})`.as('content_preview'), 'response.created_at'])
      .where(matching)
      .orderBy('response.created_at', 'desc')
      .orderBy('response.id', 'desc')
      .limit(options.page.perPage)
      .offset(pageOffset(options.page))
      .execute(),
    // The total from the response rollups when they serve the filters (all but has_content):
    // a count over the range's responses grew with the facts (5.3x from 1M to 5M answers),
    // the rollup rows do not.
    options.hasContent === undefined
      ? sql<{ total: number }>`select ${totalResponsesFromRollup(workspaceId, filters)} as total`.execute(db).then((result) => result.rows[0])
      : db
          .selectFrom('response')
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where(matching)
          .executeTakeFirstOrThrow(),
  ])
  return { responses, totalItems: Number(count.total) }
}
