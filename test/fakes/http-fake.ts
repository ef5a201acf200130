// A local HTTP server standing in for one AI provider or SERP API (node:http, random port), so the
// real SDKs are exercised end to end by base URL. Each request takes the next scripted step
// (success, an error status with headers, a hang, malformed JSON); when the script runs out it
// answers successfully. Provider fakes (test/fakes/*-fake.ts) supply the routes and wire format.
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  /** path without the query string */
  path: string
  query: Record<string, string>
  headers: IncomingMessage['headers']
  /** parsed JSON body, or the text when it is not JSON, or undefined when empty */
  body: unknown
}

export type FakeStep =
  /** the provider's success answer; `body` replaces the fake's default for this request */
  | { type: 'ok'; body?: unknown }
  /** an error status with the provider's error JSON (or `body`) and headers such as Retry-After */
  | { type: 'error'; status: number; headers?: Record<string, string>; body?: unknown; message?: string }
  /** accept the request and never answer (until the fake closes) */
  | { type: 'hang' }
  /** 200 with a JSON content type and a body that is not JSON */
  | { type: 'malformed' }

export type FakeScript = FakeStep[] | ((request: RecordedRequest, index: number) => FakeStep | undefined)

export interface FakeOptions {
  script?: FakeScript
  /** delay before every answer (throughput tests) */
  latencyMs?: number
}

export interface ProviderFake {
  /** base URL: http://127.0.0.1:<port> */
  url: string
  /** the API calls, in order (not the side routes, e.g. Gemini's grounding redirects) */
  requests: RecordedRequest[]
  close(): Promise<void>
}

export interface FakeRoute {
  method: string
  /** matched against the path (prefixes such as /v1 are the SDK's business) */
  path: RegExp
  /** the default success body for this request */
  ok(request: RecordedRequest, match: RegExpMatchArray): unknown
}

/** A route outside the API (e.g. a redirect the adapter follows up): not scripted, not recorded. */
export interface SideRoute {
  method: string
  path: RegExp
  respond(request: RecordedRequest, match: RegExpMatchArray): { status: number; headers?: Record<string, string>; body?: string }
}

export interface FakeDefinition {
  routes: FakeRoute[]
  /** the provider's error JSON for a status and message */
  errorBody(status: number, message: string): unknown
  sideRoutes?: SideRoute[]
}

export const rateLimited = (retryAfter = '1', extra: Record<string, string> = {}): FakeStep => ({ type: 'error', status: 429, headers: { 'retry-after': retryAfter, ...extra } })
export const serverError = (status = 500): FakeStep => ({ type: 'error', status })
export const unauthorized = (): FakeStep => ({ type: 'error', status: 401 })
export const hang = (): FakeStep => ({ type: 'hang' })
export const malformedJson = (): FakeStep => ({ type: 'malformed' })
export const ok = (body?: unknown): FakeStep => ({ type: 'ok', body })

/** A recorded-shape answer from test/fixtures/providers (a fresh copy each time). */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../fixtures/providers/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  // As OpenAI words it, quoting the rejected key half-masked.
  401: 'Incorrect API key provided: sk-tes*******-123. You can find your API key at https://platform.openai.com/account/api-keys.',
  403: 'Forbidden',
  404: 'Not found',
  429: 'Rate limit reached',
  500: 'Internal server error',
  503: 'Overloaded',
}

export async function startFake(definition: FakeDefinition, options: FakeOptions = {}): Promise<ProviderFake> {
  const requests: RecordedRequest[] = []
  const hanging = new Set<ServerResponse>()
  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(JSON.stringify(body))
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake')
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: await readBody(request),
    }
    for (const side of definition.sideRoutes ?? []) {
      const match = side.method === recorded.method ? recorded.path.match(side.path) : null
      if (match) {
        const reply = side.respond(recorded, match)
        response.writeHead(reply.status, reply.headers)
        response.end(reply.body)
        return
      }
    }
    const index = requests.push(recorded) - 1
    const script = options.script
    const step: FakeStep = (typeof script === 'function' ? script(recorded, index) : script?.[index]) ?? { type: 'ok' }
    if (options.latencyMs) await sleep(options.latencyMs)

    if (step.type === 'hang') {
      hanging.add(response)
      return
    }
    if (step.type === 'malformed') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"id": "cut off mid-answer", "output": [')
      return
    }
    if (step.type === 'error') {
      const message = step.message ?? STATUS_TEXT[step.status] ?? 'error'
      send(response, step.status, step.body ?? definition.errorBody(step.status, message), step.headers)
      return
    }
    for (const route of definition.routes) {
      const match = route.method === recorded.method ? recorded.path.match(route.path) : null
      if (match) {
        send(response, 200, step.body ?? route.ok(recorded, match))
        return
      }
    }
    send(response, 404, definition.errorBody(404, `no route for ${recorded.method} ${recorded.path}`))
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The text of the single user message, whichever API shape carried it. */
export function promptOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return ''
  const record = body as Record<string, unknown>
  if (typeof record.input === 'string') return record.input
  if (typeof record.contents === 'string') return record.contents
  const messages = Array.isArray(record.messages) ? record.messages : Array.isArray(record.contents) ? record.contents : []
  const first = messages[0] as Record<string, unknown> | undefined
  if (!first) return ''
  if (typeof first.content === 'string') return first.content
  const parts = Array.isArray(first.parts) ? first.parts : []
  return parts.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('')
}
