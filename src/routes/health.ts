import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'kysely'
import { Type } from 'typebox'

const Health = Type.Object({ status: Type.String() })

// Outside /api/v1 and without a key: load balancers and orchestrators call these.
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', { schema: { summary: 'Process is alive', tags: ['operations'], security: [], querystring: Type.Object({}), response: { 200: Health } } }, async () => ({
    status: 'ok',
  }))
  app.get(
    '/readyz',
    { schema: { summary: 'Database answers', tags: ['operations'], security: [], querystring: Type.Object({}), response: { 200: Health, 503: Health } } },
    async (_request, reply) => {
      try {
        await Promise.race([sql`select 1`.execute(app.database.db), new Promise((_, reject) => setTimeout(() => reject(new Error('database check timed out')), 2_000).unref())])
        return { status: 'ready' }
      } catch {
        return reply.status(503).send({ status: 'database unavailable' })
      }
    },
  )
}
