// Spec 4.2: four file exports and their metadata (statistics, manifest, schema).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyError } from 'fastify'
import { AppError } from '../../../../core/errors.js'
import { errorHandler, isDatabaseUnavailable, toAppError } from '../../../../http/error-handler.js'
import { finishScopedTransaction } from '../../../../auth/authenticate.js'
import { APP_ROLE } from '../../../../db/tenant-scope.js'
import { createConcurrencyGate } from '../../../../exports/concurrency-gate.js'
import { EXPORT_DEFINITIONS } from '../../../../exports/definitions/index.js'
import { describeExportDownload, startExportDownload } from '../../../../exports/export-download.js'
import { resolveExportFilters } from '../../../../exports/export-filters.js'
import { getExportManifest, getExportStatistics, renderExportSchema } from '../../../../exports/export-metadata.js'
import { exportAccess, exportRouteSchemas } from './schemas.js'

export const exportsRoutes: FastifyPluginAsyncTypebox<{ useRole: boolean }> = async (app, options) => {
  // Whatever step finds the database gone (the key lookup, the quota, the cursor), an
  // export answers export_unavailable with Retry-After, the code clients of exports expect.
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    const appError = toAppError(error)
    if (isDatabaseUnavailable(error) || (appError.statusCode === 503 && appError.code === 'service_unavailable')) {
      return errorHandler(
        new AppError(503, 'export_unavailable', 'Exports are unavailable right now (the database cannot be reached); retry shortly', { headers: { 'Retry-After': 5 } }),
        request,
        reply,
      )
    }
    return errorHandler(error, request, reply)
  })
  const gate = createConcurrencyGate(app.config.exportConcurrency, app.config.exportConcurrencyPerWorkspace)
  const config = { access: exportAccess }
  // The file's own transaction takes the service role exactly when request transactions do.
  const role = options.useRole ? APP_ROLE : undefined

  for (const definition of EXPORT_DEFINITIONS) {
    const schemas = exportRouteSchemas(definition)
    const base = `/exports/${definition.type}`

    app.get(base, { schema: schemas.file, config }, async (request, reply) => {
      // Fastify answers HEAD with this handler too; a probe must not spend a download.
      if (request.method === 'HEAD') {
        const headers = await describeExportDownload(request.db, request.auth.workspaceId, definition, request.query, app.config.exportQuotaPerHour)
        return reply.headers(headers).send('')
      }
      const download = await startExportDownload(
        {
          database: app.database,
          gate,
          quotaPerHour: app.config.exportQuotaPerHour,
          stallMs: app.config.exportStallMs,
          db: request.db,
          endRequestTransaction: () => finishScopedTransaction(request, true),
          role,
          readReplicas: app.readReplicas,
          dataVersion: request.auth.dataVersion,
        },
        request.auth.workspaceId,
        definition,
        request.query,
      )
      // Finished, failed or abandoned by the client: the cursor and the slot go back now,
      // also when the client left while the export was being prepared.
      if (reply.raw.closed) void download.close()
      else reply.raw.once('close', () => void download.close())
      return reply.headers(download.headers).send(download.body)
    })

    app.get(`${base}/statistics`, { schema: schemas.statistics, config }, async (request) => {
      const filters = resolveExportFilters(request.query)
      return { success: true as const, data: await getExportStatistics(request.db, request.auth.workspaceId, definition, filters) }
    })

    app.get(`${base}/manifest`, { schema: schemas.manifest, config }, async (request) => {
      const filters = resolveExportFilters(request.query)
      return { success: true as const, data: await getExportManifest(request.db, request.auth.workspaceId, definition, filters) }
    })

    app.get(`${base}/schema`, { schema: schemas.schema, config }, async (request, reply) => {
      const { range } = resolveExportFilters(request.query)
      return reply.type('text/markdown; charset=utf-8').send(renderExportSchema(definition, range))
    })
  }
}
