import type { DB } from '../../db/database.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import type { DeliveryAttemptView, DeliveryView } from '../webhooks/get-deliveries.js'

/** One page of a channel's delivery log, newest first, each delivery with every attempt: the webhooks' shape. */
export async function getChannelDeliveries(db: DB, workspaceId: string, channelId: string, page: PageRequest): Promise<{ deliveries: DeliveryView[]; totalItems: number }> {
  const total = await db
    .selectFrom('notification_delivery')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('channel_id', '=', channelId)
    .executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('notification_delivery')
    .select(['id', 'event', 'state', 'payload', 'created_at', 'next_attempt_at', 'finished_at', 'last_status', 'last_error'])
    .where('workspace_id', '=', workspaceId)
    .where('channel_id', '=', channelId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.perPage)
    .offset(pageOffset(page))
    .execute()
  const attempts = rows.length
    ? await db
        .selectFrom('notification_attempt')
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
