// What /mcp refuses before any tool runs (docs/agents-and-notifications.md):
// - a Host or Origin that is not one of this server's names (DNS rebinding: a web page on
//   another site whose name was made to resolve to this server's address);
// - a JSON-RPC batch of more than MAX_BATCH messages (one request must not fan out into an
//   unbounded number of tool calls, each an API request).
// Both answer with a JSON-RPC error object, as the MCP SDK's transport does for its own
// refusals (HTTP 403 / 400, `id: null`), so MCP clients show the message.
//
// The SDK has this protection, but not in a form Beacon can use: the transport's
// `allowedHosts`/`enableDnsRebindingProtection` options are deprecated, compare the Host
// header with its port exactly, and run after the key lookup; its `hostHeaderValidation`
// middleware is for Express and checks Host only. This follows the middleware's rule (the
// host name as `new URL` parses it, any port; IPv6 in brackets) for Host and Origin alike.
import { hostname as osHostname, networkInterfaces } from 'node:os'
import type { FastifyReply, FastifyRequest } from 'fastify'

export const MAX_BATCH = 20

/** Always allowed: a rebinding attack always carries the attacker's own name, never these. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/** A host name as `new URL` gives it: lower case, IPv6 in brackets, no port; undefined if none. */
export function hostNameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname || undefined
  } catch {
    return undefined
  }
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]'])

/**
 * The default allow-list: loopback, the machine's name, and the address it listens on, or
 * every address of its interfaces when it listens on all of them (HOST=0.0.0.0).
 */
export function ownHostNames(listenHost: string): string[] {
  const names = new Set(LOOPBACK_HOSTS)
  const add = (value: string) => {
    const name = hostNameOf(value.includes(':') && !value.startsWith('[') ? `[${value}]` : value)
    if (name) names.add(name)
  }
  add(osHostname())
  if (!WILDCARD.has(listenHost)) add(listenHost)
  else
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? []) add(address.family === 'IPv6' ? address.address.replace(/%.*$/, '') : address.address)
  return [...names]
}

export function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', error: { code, message }, id: null })
}

/** MCP_ALLOWED_HOSTS (null: any host), or this server's own names; loopback always. */
export function allowedHosts(configured: string[] | null | undefined, listenHost: string): Set<string> | null {
  if (configured === null) return null
  return new Set([...LOOPBACK_HOSTS, ...(configured ?? ownHostNames(listenHost))])
}

/** onRequest hook: refuses a Host or Origin outside the allow-list before the key is looked at. */
export function hostGuard(allowed: Set<string> | null) {
  // An async hook that answers must return the reply, so Fastify stops there.
  return async function checkHost(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (allowed === null) return
    const host = hostNameOf(request.host)
    if (!host || !allowed.has(host))
      return jsonRpcError(
        reply,
        403,
        -32000,
        `Host "${request.host}" is not allowed for /mcp (DNS-rebinding protection): connect by one of this server's names, or add the name to MCP_ALLOWED_HOSTS`,
      )
    const origin = request.headers.origin
    if (origin === undefined) return
    const originHost = hostNameOf(origin)
    if (!originHost || !allowed.has(originHost))
      return jsonRpcError(
        reply,
        403,
        -32000,
        `Origin "${origin}" is not allowed for /mcp (DNS-rebinding protection): web pages on other sites may not call this server; add the name to MCP_ALLOWED_HOSTS if it is yours`,
      )
  }
}

/** A JSON-RPC batch over the cap, as an error message; undefined when the body is within it. */
export function batchTooLarge(body: unknown): string | undefined {
  if (!Array.isArray(body) || body.length <= MAX_BATCH) return undefined
  return `A JSON-RPC batch may hold at most ${MAX_BATCH} messages and this one has ${body.length}: send them in smaller batches or one at a time`
}
