import { sql } from 'kysely'
import type { DB } from '../../db/database.js'

/** The two kinds of receiver an event is delivered to; both tables have `active` and `events`. */
export type ReceiverTable = 'webhook' | 'notification_channel'

/**
 * Ids of the workspace's active receivers of one kind (webhooks or notification channels)
 * subscribed to `event`, in id order so deliveries are queued in a stable order.
 */
export async function getSubscribedReceivers(db: DB, workspaceId: string, receivers: ReceiverTable, event: string): Promise<string[]> {
  // Typed as the webhook table for Kysely: the columns read here are the same in both.
  const rows = await db
    .selectFrom(receivers as 'webhook')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('active', '=', true)
    .where(sql<boolean>`${event} = any(events)`)
    .orderBy('id')
    .execute()
  return rows.map((row) => row.id)
}
