// GET /demo-status: the demo's build progress (src/demo/demo-progress.ts) for the
// dashboard's banner, registered only by `beacon serve --demo`. Outside the API and its
// document: no key needed (it says how many demo items are stored, nothing of any workspace's
// data), and a server without --demo answers 404, which the dashboard reads as "no demo".
import type { FastifyInstance } from 'fastify'
import type { DemoProgress } from '../demo/demo-progress.js'

export function registerDemoStatus(app: FastifyInstance, progress: DemoProgress): void {
  app.get('/demo-status', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return progress.status
  })
}
