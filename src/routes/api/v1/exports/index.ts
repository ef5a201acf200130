import type { FastifyInstance } from 'fastify'

export async function exportsRoutes(_app: FastifyInstance): Promise<void> {}
