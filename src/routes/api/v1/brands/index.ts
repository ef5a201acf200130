import type { FastifyInstance } from 'fastify'
import { createBrand, updateBrand } from '../../../../manage/brands.js'
import type { ReanalysisProgress } from '../../../../ingest/reanalyze.js'
import { createBrandRoute, updateBrandRoute } from './write-schemas.js'

const reanalysisNote = (r: ReanalysisProgress | null) => (r ? `; re-analysed ${r.responses} responses and ${r.observations} AI overviews` : '')

export async function brandsRoutes(app: FastifyInstance): Promise<void> {
  app.post('/brands', createBrandRoute, async (request, reply) => {
    const { brand, reanalysis } = await createBrand(app.database.db, request.auth.workspaceId, request.body as never)
    reply.status(201)
    return { success: true as const, data: brand, message: `Created brand "${brand.name}"${reanalysisNote(reanalysis)}` }
  })

  app.patch('/brands/:brand_id', updateBrandRoute, async (request) => {
    const { brand_id } = request.params as { brand_id: string }
    const { brand, reanalysis } = await updateBrand(app.database.db, request.auth.workspaceId, brand_id, request.body as never)
    return { success: true as const, data: brand, message: `Updated brand "${brand.name}"${reanalysisNote(reanalysis)}` }
  })
}
