// How many brands wait for a decision (discovery_status 'suggested'), for the discover route's answer.
import type { DB } from '../../db/database.js'

export async function countSuggestedBrands(db: DB, workspaceId: string): Promise<number> {
  const { n } = await db
    .selectFrom('brand')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('discovery_status', '=', 'suggested')
    .executeTakeFirstOrThrow()
  return Number(n)
}
