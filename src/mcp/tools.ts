// The MCP tools (docs/agents-and-notifications.md): each one is a route of the API. What a tool accepts is the
// route's own params + querystring + body schema, taken from the route catalog; what it
// returns is the route's `data`. Only the route and a few sentences of guidance for an
// agent are written here. A tool whose route this build does not have is left out, and
// appears by itself once the route is registered.
import type { Scope, Tier } from '../auth/scopes.js'
import type { CatalogRoute, JsonSchema, RouteCatalog } from './route-catalog.js'

export interface ToolDefinition {
  name: string
  method: 'GET' | 'POST'
  /** Fastify pattern of the route */
  url: string
  /** When to use it and what to chain it with; the route's own description follows. */
  guidance: string
}

const PERIOD = 'Dates are YYYY-MM-DD (UTC, inclusive); without them the last 30 days up to today.'

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: 'get_filters',
    method: 'GET',
    url: '/api/v1/filters',
    guidance:
      'Start here: the values the other tools accept as filters (providers for `models`, model ids for `model_ids`, prompt tags for `tags`) and the date range that holds data.',
  },
  {
    name: 'get_dashboard',
    method: 'GET',
    url: '/api/v1/dashboard',
    guidance: `Headline numbers for every active brand over a period: visibility_score (0-100, share of answers naming the brand), mentions, sentiment (-1..1), average position. ${PERIOD}`,
  },
  {
    name: 'list_brands',
    method: 'GET',
    url: '/api/v1/brands',
    guidance: 'The configured brands (own brand first, then competitors) with their ids, needed by get_brand and list_prompts.',
  },
  {
    name: 'get_brand',
    method: 'GET',
    url: '/api/v1/brands/:brand_id',
    guidance: `One brand in depth: metrics with a 95% interval and sample size, the previous period and whether the visibility change is statistically significant (change.visibility_test), per provider, per day, top prompts and sources. Get brand_id from list_brands. ${PERIOD}`,
  },
  {
    name: 'list_prompts',
    method: 'GET',
    url: '/api/v1/prompts',
    guidance: `The prompt templates (questions asked to the AI providers) with, for one brand (brand_id from list_brands, required), how many answers each got and how often they name the brand. ${PERIOD}`,
  },
  {
    name: 'get_prompt',
    method: 'GET',
    url: '/api/v1/prompts/:prompt_id',
    guidance: `One prompt template in depth: every brand's visibility on it with intervals and tested change, per provider, daily answers and cited domains. Get prompt_id from list_prompts. ${PERIOD}`,
  },
  {
    name: 'list_sources',
    method: 'GET',
    url: '/api/v1/sources',
    guidance: `Domains the AI answers cite, most cited first, with type (owned, competitor, ugc, editorial, reference, institutional, other), usage and authority. ${PERIOD}`,
  },
  {
    name: 'list_urls',
    method: 'GET',
    url: '/api/v1/urls',
    guidance: `Individual cited URLs, most cited first; source_id (a domain from list_sources) narrows to one site. ${PERIOD}`,
  },
  {
    name: 'list_responses',
    method: 'GET',
    url: '/api/v1/responses',
    guidance: `The AI answers themselves (first 200 characters), newest first, with the brands they mention; get_response gives one in full. ${PERIOD}`,
  },
  {
    name: 'get_response',
    method: 'GET',
    url: '/api/v1/responses/:response_id',
    guidance: 'One AI answer in full: text, prompt, provider, model, each brand mention with its position and sentiment, and the citations. Get response_id from list_responses.',
  },
  {
    name: 'list_search_queries',
    method: 'GET',
    url: '/api/v1/search-queries',
    guidance: `The web searches the AI engines ran themselves while answering the prompts (query fan-out), most frequent first, with the providers that ran each and first/last seen: what to rank for so the engines find you. prompt_template_id (from list_prompts) narrows to one prompt. ${PERIOD}`,
  },
  {
    name: 'get_aio_metrics',
    method: 'GET',
    url: '/api/v1/aio-metrics',
    guidance: `How often the search engine showed an AI overview (coverage_rate, 0-1) and how often each brand appears in them. ${PERIOD}`,
  },
  {
    name: 'start_collection_run',
    method: 'POST',
    url: '/api/v1/collection/runs',
    guidance:
      'Ask the configured AI providers the prompts now (a collection run) and store their answers. Without target_ids/prompt_ids every enabled target and active prompt is asked. Returns the run; its id follows progress.',
  },
]

export interface ResolvedTool {
  definition: ToolDefinition
  route: CatalogRoute
  inputSchema: JsonSchema & { type: 'object' }
  /** the route's `data` schema, when it is an object (MCP structured content must be one) */
  outputSchema?: JsonSchema & { type: 'object' }
  description: string
}

interface ObjectSchema {
  properties?: Record<string, JsonSchema>
  required?: string[]
}

const objectParts = (schema: JsonSchema | undefined): ObjectSchema => (schema ?? {}) as ObjectSchema

/** One object schema holding the route's path, query and body properties (names never collide in this API). */
export function toolInputSchema(route: CatalogRoute): JsonSchema & { type: 'object' } {
  const properties: Record<string, JsonSchema> = {}
  const required = new Set<string>()
  for (const part of [route.params, route.querystring, route.body].map(objectParts)) {
    Object.assign(properties, part.properties ?? {})
    for (const name of part.required ?? []) required.add(name)
  }
  return { type: 'object', properties, ...(required.size ? { required: [...required] } : {}), additionalProperties: false }
}

/** May this key call the route? The route's own access requirement decides, as in the API. */
export function allows(route: CatalogRoute, auth: { scopes: readonly Scope[]; tier: Tier }): boolean {
  return route.access.scopes.every((scope) => auth.scopes.includes(scope)) && (route.access.tier !== 'premium' || auth.tier === 'premium')
}

/** The tools this key can use in this build: defined, registered, and allowed. */
export function resolveTools(catalog: RouteCatalog, auth: { scopes: readonly Scope[]; tier: Tier }, definitions: readonly ToolDefinition[] = TOOL_DEFINITIONS): ResolvedTool[] {
  const tools: ResolvedTool[] = []
  for (const definition of definitions) {
    const route = catalog.find(definition.method, definition.url)
    if (!route || !allows(route, auth)) continue
    const about = route.description ?? route.summary
    tools.push({
      definition,
      route,
      inputSchema: toolInputSchema(route),
      ...(route.data?.type === 'object' ? { outputSchema: route.data as JsonSchema & { type: 'object' } } : {}),
      description: `${definition.guidance}${about ? `\n\nRoute ${definition.method} ${definition.url.replace(/:(\w+)/g, '{$1}')}: ${about}` : ''}`,
    })
  }
  return tools
}

export interface RouteRequest {
  method: string
  url: string
  payload?: string
}

/**
 * The HTTP request a tool call stands for: path values into the path, body properties
 * into a JSON body, everything else into the query string (repeated keys for arrays), where
 * the route's own validation judges it, unknown names included.
 */
/** Names of the tool's path parameters. */
export const pathNames = (tool: ResolvedTool): string[] => Object.keys(objectParts(tool.route.params).properties ?? {})

export function toRouteRequest(tool: ResolvedTool, args: Record<string, unknown>): RouteRequest {
  const inPath = new Set(pathNames(tool))
  const bodyNames = new Set(Object.keys(objectParts(tool.route.body).properties ?? {}))
  const query = new URLSearchParams()
  const body: Record<string, unknown> = {}
  let url = tool.route.url
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue
    if (inPath.has(name)) url = url.replace(`:${name}`, encodeURIComponent(String(value)))
    else if (bodyNames.has(name)) body[name] = value
    else for (const item of Array.isArray(value) ? value : [value]) query.append(name, typeof item === 'string' ? item : JSON.stringify(item))
  }
  // A path value left out: the route answers with its usual 400/404 for it.
  url = url.replace(/:(\w+)/g, '_')
  const search = query.toString()
  const wantsBody = tool.route.body !== undefined || tool.definition.method === 'POST'
  return { method: tool.definition.method, url: search ? `${url}?${search}` : url, ...(wantsBody ? { payload: JSON.stringify(body) } : {}) }
}
