import type { FastifyInstance } from 'fastify'

export async function responsesRoutes(_app: FastifyInstance): Promise<void> {}
