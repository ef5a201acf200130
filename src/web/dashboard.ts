// The web dashboard (docs/dashboard.md), served by the same app at `/`. Files come from web/dist
// (built by `npm run build:web`, at install or on first `beacon serve`); assets are sent
// pre-compressed (gzip/brotli written at build) and cached for good (their names carry a
// content hash); index.html is never cached and carries a strict Content-Security-Policy.
// `/` answers the app to any client that does not ask only for JSON; any other GET outside
// the API that asks for HTML gets index.html: the app routes itself.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url))

/**
 * Scripts, styles, fonts and data only from this origin, no inline code, no framing, no
 * plugins. `data:` images cover the empty favicon; brand icons on other sites are not
 * loaded (the dashboard makes no third-party requests).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Paths the dashboard must never shadow: the API, agents, docs and probes keep their own 404s. */
const NOT_DASHBOARD = /^\/(api|mcp|docs|openapi\.json|healthz|readyz)(\/|$|\?)/

export const dashboardAvailable = (root: string = WEB_DIST): boolean => existsSync(`${root}index.html`)

/** `Accept` names media types and every one of them is JSON (`application/json`, `…+json`). */
export function asksOnlyForJson(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .split(',')
    .map((part) => part.split(';')[0].trim().toLowerCase())
    .filter(Boolean)
  return types.length > 0 && types.every((type) => type === 'application/json' || type.endsWith('+json'))
}

export function securityHeaders(reply: FastifyReply, html: boolean): void {
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Referrer-Policy', 'no-referrer')
  if (html) {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    reply.header('X-Frame-Options', 'DENY')
    reply.header('Cache-Control', 'no-cache')
  }
}

/**
 * Registers the static files when web/dist exists. Returns the fallback for unknown routes
 * (index.html for a page path, false to let the JSON 404 answer), or null without a build.
 */
export async function registerDashboard(app: FastifyInstance, root: string = WEB_DIST): Promise<((request: FastifyRequest, reply: FastifyReply) => boolean) | null> {
  if (!dashboardAvailable(root)) {
    app.log.warn(`web dashboard not built (${root}index.html is missing): run npm run build:web; the API is unaffected`)
    return null
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file (found at start-up), so nothing else is captured.
    wildcard: false,
    // `/` is the route below, which also answers clients that do not ask for HTML.
    index: false,
    preCompressed: true,
    cacheControl: false,
    schemaHide: true,
    setHeaders: (reply, path) => {
      const html = path.endsWith('.html')
      securityHeaders(reply, html)
      if (!html) reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
    },
  })
  // `/` answers the app to every client that does not ask only for JSON: curl (`*/*`, with or
  // without --compressed), health checkers, a browser. A client that wants JSON gets the 404.
  app.get('/', { schema: { hide: true } }, (request, reply) => {
    if (asksOnlyForJson(request.headers.accept)) return reply.callNotFound()
    securityHeaders(reply, true)
    return reply.type('text/html; charset=utf-8').sendFile('index.html')
  })
  return (request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || NOT_DASHBOARD.test(request.url)) return false
    if (!/text\/html/.test(String(request.headers.accept ?? ''))) return false
    securityHeaders(reply, true)
    void reply.type('text/html; charset=utf-8').sendFile('index.html')
    return true
  }
}
