import type { FastifyInstance } from 'fastify'

export async function urlsRoutes(_app: FastifyInstance): Promise<void> {}
