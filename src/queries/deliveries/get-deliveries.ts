import type { DB } from '../../db/database.js'
import type { WebhookDeliveryState } from '../../db/schema.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import { typedAsWebhookLog, type DeliveryLog } from '../../delivery/delivery-log.js'

export interface DeliveryAttemptView {
  attempt: number
  status_code: number | null
  duration_ms: number
  error: string | null
  at: Date
}

export interface DeliveryView {
  id: string
  event: string
  state: WebhookDeliveryState
  payload: unknown
  created_at: Date
  next_attempt_at: Date | null
  finished_at: Date | null
  last_status: number | null
  last_error: string | null
  attempts: DeliveryAttemptView[]
}

/**
 * One page of a receiver's delivery log (a webhook's or a notification channel's, as `log`
 * says), newest first, each delivery with every attempt made.
 */
export async function getDeliveries(
  db: DB,
  workspaceId: string,
  log: DeliveryLog,
  receiverId: string,
  page: PageRequest,
): Promise<{ deliveries: DeliveryView[]; totalItems: number }> {
  const tables = typedAsWebhookLog(log)
  const total = await db
    .selectFrom(tables.deliveries)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where(tables.owner, '=', receiverId)
    .executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom(tables.deliveries)
    .select(['id', 'event', 'state', 'payload', 'created_at', 'next_attempt_at', 'finished_at', 'last_status', 'last_error'])
    .where('workspace_id', '=', workspaceId)
    .where(tables.owner, '=', receiverId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.perPage)
    .offset(pageOffset(page))
    .execute()
  const attempts = rows.length
    ? await db
        .selectFrom(tables.attempts)
        .select(['delivery_id', 'attempt', 'status_code', 'duration_ms', 'error', 'at'])
        .where('workspace_id', '=', workspaceId)
        .where(
          'delivery_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('delivery_id')
        .orderBy('attempt')
        .execute()
    : []
  const byDelivery = new Map<string, DeliveryAttemptView[]>()
  for (const { delivery_id, ...attempt } of attempts) byDelivery.set(delivery_id, [...(byDelivery.get(delivery_id) ?? []), attempt])
  return {
    totalItems: Number(total.n),
    deliveries: rows.map((row) => ({
      ...row,
      next_attempt_at: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
      finished_at: row.finished_at ? new Date(row.finished_at) : null,
      payload: JSON.parse(row.payload) as unknown,
      attempts: byDelivery.get(row.id) ?? [],
    })),
  }
}
