import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { resolveAnalyticsFilters } from '../../../../queries/analytics-filters.js'
import { getDashboard } from '../../../../queries/dashboard/get-dashboard.js'
import { getDashboardUncertainty } from '../../../../queries/dashboard/get-dashboard-uncertainty.js'
import { getDashboardSchema } from './schemas.js'

const brandCount = (n: number) => `${n} brand${n === 1 ? '' : 's'}`

export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/dashboard', { schema: getDashboardSchema }, async (request) => {
    const db = request.db
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(db, workspaceId, request.query)
    const data = await getDashboard(db, workspaceId, filters)
    if (request.query.include_uncertainty === true) {
      const uncertainty = await getDashboardUncertainty(db, workspaceId, filters)
      for (const [name, metrics] of Object.entries(data.brands)) Object.assign(metrics, uncertainty.get(name))
    }
    return { success: true as const, data, message: `Retrieved ${brandCount(Object.keys(data.brands).length)}` }
  })
}
