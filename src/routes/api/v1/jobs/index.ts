import type { FastifyInstance } from 'fastify'
import { notFound } from '../../../../core/errors.js'
import { getJobSchema } from './schemas.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function jobsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/jobs/:job_id', { schema: getJobSchema, config: { access: { scopes: [] } } }, async (request) => {
    const { job_id } = request.params as { job_id: string }
    const job = UUID.test(job_id) ? await app.jobs.get(request.db, request.auth.workspaceId, job_id.toLowerCase()) : undefined
    if (!job) throw notFound('Job')
    return { success: true as const, data: job }
  })
}
