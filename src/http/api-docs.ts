// /docs: the interactive API documentation (Swagger UI, from /openapi.json), with the same
// security headers as the dashboard (docs/agents-and-notifications.md): a strict
// Content-Security-Policy (this origin's scripts and styles only, no framing), nosniff and
// no referrer. Swagger UI's page loads its code from files, so the dashboard's policy fits;
// its top bar is left out (BaseLayout): its logo is an SVG with an inline <style>, the one
// thing the policy refused (test/http/api-docs.test.ts looks for violations in chromium).
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { securityHeaders } from '../web/dashboard.js'

export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  // A context of its own, so the hook covers Swagger UI's routes and files and nothing else.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply, payload) => {
      securityHeaders(reply, /^text\/html/.test(String(reply.getHeader('content-type') ?? '')))
      return payload
    })
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { layout: 'BaseLayout' } })
  })
}
