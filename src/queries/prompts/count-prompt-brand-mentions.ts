// Responses to one prompt in a period that mention each active brand: the counts behind
// a brand's visibility on the prompt, used for the previous period's side of the
// visibility change test (docs/uncertainty-and-discovery.md). A mention row is one (response, brand), so
// counting rows counts responses.
import { sql, type SqlBool } from 'kysely'
import type { DB } from '../../db/database.js'
import { responseFilterConditions, type AnalyticsFilters } from '../analytics-filters.js'

export async function countPromptBrandMentions(db: DB, workspaceId: string, promptId: string, filters: AnalyticsFilters): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('mention')
    .select((eb) => ['mention.brand_id', eb.fn.countAll<number>().as('responses')])
    .where(responseFilterConditions('mention', workspaceId, filters))
    .where(sql<SqlBool>`mention.prompt_id = ${promptId}`)
    .where(sql<SqlBool>`mention.brand_id in (select b.id from brand b where b.workspace_id = ${workspaceId} and b.is_active)`)
    .groupBy('mention.brand_id')
    .execute()
  return new Map(rows.map((row) => [row.brand_id, Number(row.responses)]))
}
