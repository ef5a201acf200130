// Every route the app registered, with its schema and access, collected by an onRoute
// hook as the app is built. MCP tools read their input schemas and required scopes from
// here, so a route's TypeBox schema stays the one definition of its parameters, and a
// route that arrives later (another module, a later release) is found without a list to
// keep in step.
import type { FastifyInstance, RouteOptions } from 'fastify'
import { DEFAULT_ACCESS, type AccessRequirement } from '../auth/scopes.js'

/** JSON Schema as plain data (TypeBox schemas serialise to exactly this). */
export type JsonSchema = { [key: string]: unknown }

export interface CatalogRoute {
  method: string
  /** Fastify's pattern, prefix included: /api/v1/brands/:brand_id */
  url: string
  summary?: string
  description?: string
  params?: JsonSchema
  querystring?: JsonSchema
  body?: JsonSchema
  /** the schema of `data` in the route's success answer, when it declares one */
  data?: JsonSchema
  access: AccessRequirement
}

const asSchema = (value: unknown): JsonSchema | undefined =>
  // A plain-data copy: what a client sees, without anything a schema library keeps on the object.
  value !== null && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as JsonSchema) : undefined

/** `data` of the first success status (200, 201, 202) the route's response schema lists. */
function successData(response: unknown): JsonSchema | undefined {
  if (response === null || typeof response !== 'object') return undefined
  const byStatus = response as Record<string, { properties?: { data?: unknown } } | undefined>
  const ok = byStatus['200'] ?? byStatus['201'] ?? byStatus['202']
  return asSchema(ok?.properties?.data)
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

export class RouteCatalog {
  private readonly routes = new Map<string, CatalogRoute>()

  /** Starts collecting: call before any route is registered (hooks apply to later registrations). */
  static attach(app: FastifyInstance): RouteCatalog {
    const catalog = new RouteCatalog()
    app.addHook('onRoute', (route) => catalog.add(route))
    return catalog
  }

  add(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): void {
    const schema = route.schema ?? {}
    const access = (route.config as { access?: AccessRequirement } | undefined)?.access ?? DEFAULT_ACCESS
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      this.routes.set(`${method} ${route.url}`, {
        method,
        url: route.url,
        summary: text(schema.summary),
        description: text(schema.description),
        params: asSchema(schema.params),
        querystring: asSchema(schema.querystring),
        body: asSchema(schema.body),
        data: successData(schema.response),
        access,
      })
    }
  }

  find(method: string, url: string): CatalogRoute | undefined {
    return this.routes.get(`${method} ${url}`)
  }
}
