import type { FastifyInstance } from 'fastify'
import { resolveAnalyticsFilters, type AnalyticsQuery } from '../../../../queries/analytics-filters.js'
import { getDashboard } from '../../../../queries/dashboard/get-dashboard.js'
import { getDashboardSchema } from './schemas.js'

const brandCount = (n: number) => `${n} brand${n === 1 ? '' : 's'}`

export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard', { schema: getDashboardSchema }, async (request) => {
    const db = request.db
    const { workspaceId } = request.auth
    const filters = await resolveAnalyticsFilters(db, workspaceId, request.query as AnalyticsQuery)
    const data = await getDashboard(db, workspaceId, filters)
    return { success: true as const, data, message: `Retrieved ${brandCount(Object.keys(data.brands).length)}` }
  })
}
