// Webhooks (docs/agents-and-notifications.md). The URL is checked against the SSRF rules when saved and again on
// every connection; the secret is generated here and shown once.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError, invalidParameter, notFound } from '../../../../core/errors.js'
import { pageRequest, paginationWithNav } from '../../../../core/pagination.js'
import { WEBHOOK_DELIVERY_LOG } from '../../../../delivery/delivery-log.js'
import { getDeliveries } from '../../../../queries/deliveries/get-deliveries.js'
import { getWebhook } from '../../../../queries/webhooks/get-webhook.js'
import { getWebhooks } from '../../../../queries/webhooks/get-webhooks.js'
import { assertOutboundUrl, OutboundUrlError } from '../../../../security/outbound-url.js'
import { SecretBox, SecretKeyError } from '../../../../security/secret-box.js'
import { queueDelivery } from '../../../../webhooks/emit.js'
import { TEST_EVENT } from '../../../../webhooks/events.js'
import { createWebhook, deleteWebhook } from '../../../../webhooks/webhooks.js'
import { createWebhookRoute, DELIVERIES_PER_PAGE, deleteWebhookRoute, getWebhookRoute, listDeliveriesRoute, listWebhooksRoute, testWebhookRoute } from './schemas.js'

export const webhooksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Without BEACON_SECRET_KEY no secret can be stored, and no delivery signed.
  const secretBox = () => {
    try {
      return SecretBox.fromSecretKey(app.config.secretKey)
    } catch (error) {
      if (!(error instanceof SecretKeyError)) throw error
      throw new AppError(503, 'service_unavailable', `Webhooks are not available on this server: ${error.message}, then restart Beacon`)
    }
  }

  app.post('/webhooks', createWebhookRoute, async (request, reply) => {
    const box = secretBox()
    const url = await assertOutboundUrl(request.body.url.trim(), { allowPrivate: app.config.webhookAllowPrivate }).catch((error: unknown) => {
      throw error instanceof OutboundUrlError ? invalidParameter('url', error.message) : error
    })
    const webhook = await createWebhook(request.db, request.auth.workspaceId, { url: url.toString(), events: request.body.events }, box)
    reply.status(201)
    return { success: true as const, data: webhook, message: `Created webhook ${webhook.id}: store its secret now, it is not shown again` }
  })

  app.get('/webhooks', listWebhooksRoute, async (request) => {
    return { success: true as const, data: { webhooks: await getWebhooks(request.db, request.auth.workspaceId) } }
  })

  app.get('/webhooks/:webhook_id', getWebhookRoute, async (request) => {
    const webhook = await getWebhook(request.db, request.auth.workspaceId, request.params.webhook_id)
    if (!webhook) throw notFound('Webhook')
    return { success: true as const, data: webhook }
  })

  app.delete('/webhooks/:webhook_id', deleteWebhookRoute, async (request) => {
    if (!(await deleteWebhook(request.db, request.auth.workspaceId, request.params.webhook_id))) throw notFound('Webhook')
    return { success: true as const, data: { id: request.params.webhook_id, deleted: true as const }, message: `Deleted webhook ${request.params.webhook_id}` }
  })

  app.post('/webhooks/:webhook_id/test', testWebhookRoute, async (request, reply) => {
    const { workspaceId } = request.auth
    const webhook = await getWebhook(request.db, workspaceId, request.params.webhook_id)
    if (!webhook) throw notFound('Webhook')
    secretBox()
    const deliveryId = await queueDelivery(request.db, workspaceId, webhook.id, TEST_EVENT, { webhook_id: webhook.id, message: 'A test event from Beacon' }, app.jobs.tasks)
    reply.status(202)
    return {
      success: true as const,
      data: { delivery_id: deliveryId, state: 'pending' as const },
      message: `Queued a ${TEST_EVENT} delivery; follow it in GET /api/v1/webhooks/${webhook.id}/deliveries`,
    }
  })

  app.get('/webhooks/:webhook_id/deliveries', listDeliveriesRoute, async (request) => {
    const { workspaceId } = request.auth
    if (!(await getWebhook(request.db, workspaceId, request.params.webhook_id))) throw notFound('Webhook')
    const page = pageRequest(request.query, DELIVERIES_PER_PAGE)
    const { deliveries, totalItems } = await getDeliveries(request.db, workspaceId, WEBHOOK_DELIVERY_LOG, request.params.webhook_id, page)
    return { success: true as const, data: { deliveries, pagination: paginationWithNav(page, totalItems) } }
  })
}
