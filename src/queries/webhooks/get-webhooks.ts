import type { DB } from '../../db/database.js'
import { webhookColumns, type WebhookView } from '../../webhooks/webhooks.js'

/** The workspace's webhooks, oldest first; never their secrets. */
export function getWebhooks(db: DB, workspaceId: string): Promise<WebhookView[]> {
  return db.selectFrom('webhook').select(webhookColumns).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()
}
