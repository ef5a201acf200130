import type { DB } from '../../db/database.js'
import { channelColumns, toChannelView, type ChannelView } from '../../notifications/channels.js'

/** One channel of the workspace; undefined for another workspace's id. */
export async function getChannel(db: DB, workspaceId: string, channelId: string): Promise<ChannelView | undefined> {
  const row = await db.selectFrom('notification_channel').select(channelColumns).where('workspace_id', '=', workspaceId).where('id', '=', channelId).executeTakeFirst()
  return row && toChannelView(row)
}
