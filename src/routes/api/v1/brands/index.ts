import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createBrand, updateBrand } from '../../../../manage/brands.js'
import { notFound } from '../../../../core/errors.js'
import { retryOnConflict } from '../../../../db/retry-conflicts.js'
import { pageRequest, paginationWithNav } from '../../../../core/pagination.js'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getBrandDetail } from '../../../../queries/brands/get-brand-detail.js'
import { getBrands } from '../../../../queries/brands/get-brands.js'
import { BRANDS_PER_PAGE, getBrandSchema, IS_ACTIVE_DEFAULT, listBrandsSchema } from './read-schemas.js'
import { createBrandRoute, updateBrandRoute } from './write-schemas.js'
import { discoverBrandsRoute } from './discover-schemas.js'
import { countSuggestedBrands } from '../../../../queries/brands/count-suggested-brands.js'
import { DISCOVERY } from '../../../../jobs/job-names.js'

const jobNote = (job: { id: string } | null) => (job ? `; re-analysis of stored history queued (job ${job.id})` : '')

export const brandsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/brands', { schema: listBrandsSchema }, async (request) => {
    const { query } = request
    const page = pageRequest(query, BRANDS_PER_PAGE)
    const { brands, totalItems } = await getBrands(
      request.db,
      request.auth.workspaceId,
      // Ajv applied the schema default; the fallback only satisfies the optional type.
      { isActive: query.is_active ?? IS_ACTIVE_DEFAULT, discoveryStatus: query.discovery_status },
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
    const filters = await resolveAnalyticsFilters(db, workspaceId, request.query)
    const data = await getBrandDetail(db, workspaceId, request.params.brand_id, filters)
    if (!data) throw notFound('Brand')
    return { success: true as const, data }
  })

  app.post('/brands', createBrandRoute, async (request, reply) => {
    const { brand, job } = await retryOnConflict(request.db, (db) => createBrand(db, request.auth.workspaceId, request.body, app.jobs))
    reply.status(201)
    return { success: true as const, data: brand, ...(job ? { job } : {}), message: `Created brand "${brand.name}"${jobNote(job)}` }
  })

  app.patch('/brands/:brand_id', updateBrandRoute, async (request) => {
    const { brand, job } = await retryOnConflict(request.db, (db) => updateBrand(db, request.auth.workspaceId, request.params.brand_id, request.body, app.jobs))
    return { success: true as const, data: brand, ...(job ? { job } : {}), message: `Updated brand "${brand.name}"${jobNote(job)}` }
  })

  app.post('/brands/discover', discoverBrandsRoute, async (request, reply) => {
    const { workspaceId } = request.auth
    // Joins a scan still queued for the workspace instead of queueing a second one.
    const job = await app.jobs.enqueue(request.db, workspaceId, DISCOVERY)
    const suggested = await countSuggestedBrands(request.db, workspaceId)
    reply.status(202)
    return {
      success: true as const,
      data: { suggested },
      ...(job ? { job } : {}),
      message: `Competitor discovery queued${job ? ` (job ${job.id})` : ''}; follow it with GET /api/v1/jobs/{id}, then list suggestions with GET /api/v1/brands?discovery_status=suggested&is_active=false`,
    }
  })
}
