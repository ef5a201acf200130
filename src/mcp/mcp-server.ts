// One MCP server for one authenticated caller. Tool calls go through the API itself (an
// in-process request with the caller's key), so scopes, validation, workspace isolation,
// caching, rate limits and error messages are the API's, not a second implementation.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Scope, Tier } from '../auth/scopes.js'
import type { RouteCatalog } from './route-catalog.js'
import { pathNames, resolveTools, toRouteRequest, TOOL_DEFINITIONS, type RouteRequest } from './tools.js'

export interface RouteAnswer {
  statusCode: number
  body: string
}

export interface McpCaller {
  scopes: readonly Scope[]
  tier: Tier
  /** sends the request to the API with the caller's key */
  call(request: RouteRequest): Promise<RouteAnswer>
}

export const SERVER_INFO = { name: 'beacon', version: '1.0.0' }

const INSTRUCTIONS =
  'Beacon measures how brands appear in AI answers (OpenAI, Anthropic, Google, Perplexity) and search AI overviews. ' +
  'Call get_filters first for valid filter values and the date range with data, list_brands for brand ids. ' +
  'Rates come with 95% intervals and sample sizes on get_brand and get_prompt: treat small samples and non-significant changes as noise.'

function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] }
}

/** The route's answer as a tool result: `data` as structured content (and as JSON text), errors with the API's message. */
export function toToolResult(answer: RouteAnswer): CallToolResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(answer.body)
  } catch {
    return toolError(`The API answered ${answer.statusCode} without JSON; try again later`)
  }
  const envelope = parsed as { success?: boolean; data?: unknown; error?: { code?: string; message?: string; param?: string } }
  if (answer.statusCode >= 400 || envelope.success !== true) {
    const error = envelope.error ?? {}
    return {
      isError: true,
      content: [
        { type: 'text', text: error.message ?? `The API answered ${answer.statusCode}` },
        { type: 'text', text: JSON.stringify({ status: answer.statusCode, ...error }) },
      ],
    }
  }
  // Structured content must be an object; every routed `data` is one, a list would be wrapped.
  const data = envelope.data !== null && typeof envelope.data === 'object' && !Array.isArray(envelope.data) ? (envelope.data as Record<string, unknown>) : { items: envelope.data }
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data }
}

export function createMcpServer(catalog: RouteCatalog, caller: McpCaller): McpServer {
  const mcp = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS })
  // The low-level handlers take JSON Schema as is: the schemas come from the routes, not from zod.
  const tools = () => resolveTools(catalog, caller)
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools().map((tool) => ({
      name: tool.definition.name,
      title: tool.route.summary,
      description: tool.description,
      inputSchema: tool.inputSchema,
      // The route's response schema: clients can check the structured content against it.
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: { readOnlyHint: tool.definition.method === 'GET', openWorldHint: false },
    })),
  }))
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params
    const tool = tools().find((t) => t.definition.name === name)
    if (!tool) return toolError(unavailable(catalog, name))
    // A path value cannot be left out of a URL; anything else missing is the route's to judge.
    const missing = pathNames(tool).filter((field) => args[field] === undefined || args[field] === null)
    if (missing.length) return toolError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required; see the tool's input schema`)
    return toToolResult(await caller.call(toRouteRequest(tool, args)))
  })
  return mcp
}

/** Why a tool cannot be called: unknown, or the key lacks what its route requires. */
function unavailable(catalog: RouteCatalog, name: string): string {
  const definition = TOOL_DEFINITIONS.find((d) => d.name === name)
  const route = definition && catalog.find(definition.method, definition.url)
  if (!route) return `No tool "${name}" on this server; list the tools to see what it offers`
  const tier = route.access.tier === 'premium' ? ' and a Premium workspace' : ''
  return `This API key cannot use ${name}: it needs the scope(s) ${route.access.scopes.join(', ')}${tier}; use a key that has them (beacon key create --scopes …)`
}
