// Webhook writes (scope manage:workspace). The URL has passed the SSRF guard before it
// gets here (src/security/outbound-url.ts); the secret is made here, sealed with SecretBox
// for storage and handed back once, in the creation answer, never again.
import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import { AppError } from '../core/errors.js'
import type { SecretBox } from '../security/secret-box.js'
import { MAX_WEBHOOKS_PER_WORKSPACE, secretContext, type WebhookEvent } from './events.js'
import { newWebhookSecret } from './signature.js'

export interface WebhookView {
  id: string
  url: string
  events: string[]
  active: boolean
  created_at: Date
}

export const webhookColumns = ['id', 'url', 'events', 'active', 'created_at'] as const

export async function createWebhook(db: DB, workspaceId: string, input: { url: string; events: WebhookEvent[] }, box: SecretBox): Promise<WebhookView & { secret: string }> {
  const count = await db
    .selectFrom('webhook')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  if (Number(count.n) >= MAX_WEBHOOKS_PER_WORKSPACE)
    throw new AppError(400, 'invalid_parameter', `A workspace has at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one you no longer use first`)
  const id = newId()
  const secret = newWebhookSecret()
  const row = await db
    .insertInto('webhook')
    .values({ workspace_id: workspaceId, id, url: input.url, events: [...new Set(input.events)], secret_sealed: box.seal(secret, secretContext(workspaceId, id)) })
    .returning(webhookColumns)
    .executeTakeFirstOrThrow()
  return { ...row, secret }
}

/** Deletes the webhook with its delivery log; queued attempts find nothing and stop. False when it is not this workspace's. */
export async function deleteWebhook(db: DB, workspaceId: string, webhookId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('webhook').where('workspace_id', '=', workspaceId).where('id', '=', webhookId).returning('id').executeTakeFirst()
  return deleted !== undefined
}
