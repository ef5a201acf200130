import type { FastifyInstance } from 'fastify'

export async function sourcesRoutes(_app: FastifyInstance): Promise<void> {}
