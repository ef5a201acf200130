import type { FastifyInstance } from 'fastify'

export async function aioMetricsRoutes(_app: FastifyInstance): Promise<void> {}
