import type { DB } from '../../db/database.js'
import { channelColumns, toChannelView, type ChannelView } from '../../notifications/channels.js'

/** Every notification channel of the workspace, oldest first (never a target beyond its hint). */
export async function getChannels(db: DB, workspaceId: string): Promise<ChannelView[]> {
  const rows = await db.selectFrom('notification_channel').select(channelColumns).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()
  return rows.map(toChannelView)
}
