// Notification channels (docs/agents-and-notifications.md). A Slack URL is checked against
// the outbound rules when saved and again on every connection (it goes out through
// postWebhook's guarded request); e-mail needs SMTP_URL. Targets are sealed like webhook
// secrets, so BEACON_SECRET_KEY is needed to store one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError, invalidParameter, notFound } from '../../../../core/errors.js'
import { pageRequest, paginationWithNav } from '../../../../core/pagination.js'
import { CHANNEL_DELIVERY_LOG } from '../../../../delivery/delivery-log.js'
import { getChannel } from '../../../../queries/notifications/get-channel.js'
import { getDeliveries } from '../../../../queries/deliveries/get-deliveries.js'
import { getChannels } from '../../../../queries/notifications/get-channels.js'
import { assertOutboundUrl, OutboundUrlError } from '../../../../security/outbound-url.js'
import { SecretBox, SecretKeyError } from '../../../../security/secret-box.js'
import { createChannel, deleteChannel, effectiveSchedule, maskUrl, parseEmailTarget, updateChannel } from '../../../../notifications/channels.js'
import { queueNotification } from '../../../../notifications/emit.js'
import { NOTIFICATION_TEST_EVENT, type ChannelKind } from '../../../../notifications/events.js'
import {
  CHANNEL_DELIVERIES_PER_PAGE,
  createChannelRoute,
  deleteChannelRoute,
  getChannelRoute,
  listChannelDeliveriesRoute,
  listChannelsRoute,
  testChannelRoute,
  updateChannelRoute,
} from './schemas.js'

export const notificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secretBox = () => {
    try {
      return SecretBox.fromSecretKey(app.config.secretKey)
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error
      throw new AppError(503, 'service_unavailable', `Notification channels are not available on this server: ${error.message}, then restart Beacon`)
    }
  }
  const requireSmtp = () => {
    if (!app.config.smtpUrl)
      throw new AppError(
        503,
        'service_unavailable',
        'E-mail channels are not available on this server: set SMTP_URL (e.g. smtp://user:password@mail.example.com:587) and EMAIL_FROM, then restart Beacon',
      )
  }

  /** The target as stored and as shown, checked for its kind. */
  const checkTarget = async (kind: ChannelKind, raw: string): Promise<{ value: string; hint: string }> => {
    if (kind === 'email') {
      requireSmtp()
      const addresses = parseEmailTarget(raw)
      return { value: addresses.join(', '), hint: addresses.join(', ') }
    }
    const url = await assertOutboundUrl(raw.trim(), { allowPrivate: app.config.webhookAllowPrivate }).catch((error: unknown) => {
      throw error instanceof OutboundUrlError
        ? invalidParameter('target', `${error.message} (target is the Slack incoming-webhook URL, https://hooks.slack.com/services/…)`)
        : error
    })
    return { value: url.toString(), hint: maskUrl(url) }
  }

  app.get('/notifications', listChannelsRoute, async (request) => {
    return { success: true as const, data: { channels: await getChannels(request.db, request.auth.workspaceId) } }
  })

  app.get('/notifications/:channel_id', getChannelRoute, async (request) => {
    const channel = await getChannel(request.db, request.auth.workspaceId, request.params.channel_id)
    if (!channel) throw notFound('Notification channel')
    return { success: true as const, data: channel }
  })

  app.post('/notifications', createChannelRoute, async (request, reply) => {
    const box = secretBox()
    const { kind, events, digest_schedule } = request.body
    const target = await checkTarget(kind, request.body.target)
    const channel = await createChannel(
      request.db,
      request.auth.workspaceId,
      { kind, target: target.value, hint: target.hint, events, schedule: effectiveSchedule(events, digest_schedule, null) },
      box,
    )
    reply.status(201)
    return { success: true as const, data: channel, message: `Created ${kind} channel ${channel.id}; send a test with POST /api/v1/notifications/${channel.id}/test` }
  })

  app.patch('/notifications/:channel_id', updateChannelRoute, async (request) => {
    const { workspaceId } = request.auth
    const current = await getChannel(request.db, workspaceId, request.params.channel_id)
    if (!current) throw notFound('Notification channel')
    const { events, digest_schedule, active } = request.body
    const box = request.body.target !== undefined ? secretBox() : undefined
    const target = request.body.target !== undefined ? await checkTarget(current.kind, request.body.target) : undefined
    const channel = await updateChannel(
      request.db,
      workspaceId,
      current.id,
      { target, events, active, schedule: effectiveSchedule(events ?? current.events, digest_schedule, current.digest_schedule) },
      box,
    )
    if (!channel) throw notFound('Notification channel')
    return { success: true as const, data: channel, message: `Updated channel ${channel.id}` }
  })

  app.delete('/notifications/:channel_id', deleteChannelRoute, async (request) => {
    if (!(await deleteChannel(request.db, request.auth.workspaceId, request.params.channel_id))) throw notFound('Notification channel')
    return { success: true as const, data: { id: request.params.channel_id, deleted: true as const }, message: `Deleted channel ${request.params.channel_id}` }
  })

  app.post('/notifications/:channel_id/test', testChannelRoute, async (request, reply) => {
    const { workspaceId } = request.auth
    const channel = await getChannel(request.db, workspaceId, request.params.channel_id)
    if (!channel) throw notFound('Notification channel')
    secretBox()
    if (channel.kind === 'email') requireSmtp()
    const deliveryId = await queueNotification(
      request.db,
      workspaceId,
      channel.id,
      NOTIFICATION_TEST_EVENT,
      { channel_id: channel.id, message: 'A test notification from Beacon: this channel is set up.' },
      app.jobs.tasks,
    )
    reply.status(202)
    return {
      success: true as const,
      data: { delivery_id: deliveryId, state: 'pending' as const },
      message: `Queued a test message; follow it in GET /api/v1/notifications/${channel.id}/deliveries`,
    }
  })

  app.get('/notifications/:channel_id/deliveries', listChannelDeliveriesRoute, async (request) => {
    const { workspaceId } = request.auth
    if (!(await getChannel(request.db, workspaceId, request.params.channel_id))) throw notFound('Notification channel')
    const page = pageRequest(request.query, CHANNEL_DELIVERIES_PER_PAGE)
    const { deliveries, totalItems } = await getDeliveries(request.db, workspaceId, CHANNEL_DELIVERY_LOG, request.params.channel_id, page)
    return { success: true as const, data: { deliveries, pagination: paginationWithNav(page, totalItems) } }
  })
}
