import type { FastifyInstance } from 'fastify'
import type { DiscoveryStatus } from '../../../../db/schema.js'
import { createBrand, updateBrand } from '../../../../manage/brands.js'
import { notFound } from '../../../../http/errors.js'
import { paginationWithNav } from '../../../../http/pagination.js'
import { resolveAnalyticsFilters, type AnalyticsQuery } from '../../../../queries/analytics-filters.js'
import { getBrandDetail } from '../../../../queries/brands/get-brand-detail.js'
import { getBrands } from '../../../../queries/brands/get-brands.js'
import { getBrandSchema, listBrandsSchema } from './read-schemas.js'
import { createBrandRoute, updateBrandRoute } from './write-schemas.js'

const jobNote = (job: { id: string } | null) => (job ? `; re-analysis of stored history queued (job ${job.id})` : '')

interface ListQuery {
  page: number
  per_page: number
  discovery_status?: DiscoveryStatus
  is_active: boolean
}

export async function brandsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/brands', { schema: listBrandsSchema }, async (request) => {
    const query = request.query as ListQuery
    const page = { page: query.page, perPage: query.per_page }
    const { brands, totalItems } = await getBrands(
      request.db,
      request.auth.workspaceId,
      { isActive: query.is_active, discoveryStatus: query.discovery_status },
      page,
    )
    const count = brands.length === totalItems ? `${totalItems}` : `${brands.length} of ${totalItems}`
    return {
      success: true as const,
      data: { competitors: brands, pagination: paginationWithNav(page, totalItems) },
      message: `Retrieved ${count} brand${totalItems === 1 ? '' : 's'}`,
    }
  })

  app.get('/brands/:brand_id', { schema: getBrandSchema }, async (request) => {
    const db = request.db
    const { workspaceId } = request.auth
    const { brand_id } = request.params as { brand_id: string }
    const filters = await resolveAnalyticsFilters(db, workspaceId, request.query as AnalyticsQuery)
    const data = await getBrandDetail(db, workspaceId, brand_id, filters)
    if (!data) throw notFound('Brand')
    return { success: true as const, data }
  })

  app.post('/brands', createBrandRoute, async (request, reply) => {
    const { brand, job } = await createBrand(request.db, request.auth.workspaceId, request.body as never, app.jobs)
    reply.status(201)
    return { success: true as const, data: brand, ...(job ? { job } : {}), message: `Created brand "${brand.name}"${jobNote(job)}` }
  })

  app.patch('/brands/:brand_id', updateBrandRoute, async (request) => {
    const { brand_id } = request.params as { brand_id: string }
    const { brand, job } = await updateBrand(request.db, request.auth.workspaceId, brand_id, request.body as never, app.jobs)
    return { success: true as const, data: brand, ...(job ? { job } : {}), message: `Updated brand "${brand.name}"${jobNote(job)}` }
  })
}
