import type { FastifyInstance } from 'fastify'

export async function dashboardRoutes(_app: FastifyInstance): Promise<void> {}
