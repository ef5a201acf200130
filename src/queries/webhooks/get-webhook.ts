import type { DB } from '../../db/database.js'
import { webhookColumns, type WebhookView } from '../../webhooks/webhooks.js'

/** One webhook of the workspace (undefined for another workspace's); never its secret. */
export function getWebhook(db: DB, workspaceId: string, webhookId: string): Promise<WebhookView | undefined> {
  return db.selectFrom('webhook').select(webhookColumns).where('workspace_id', '=', workspaceId).where('id', '=', webhookId).executeTakeFirst()
}
