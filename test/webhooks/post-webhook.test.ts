// One POST to a receiver: a 2xx is a success, a redirect is not followed, a receiver that
// never answers is cut at the deadline, and a literal refused address is never contacted.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postWebhook } from '../../src/webhooks/post-webhook.js'

describe('postWebhook', () => {
  let server: http.Server
  let base: string
  const hits: string[] = []
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.url ?? '')
      if (request.url === '/redirect') {
        response.writeHead(307, { location: '/ok' })
        response.end()
      } else if (request.url === '/hang') {
        // Never answers: the sender must give up on its own.
      } else {
        response.end('ok')
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const send = (path: string, options: { timeoutMs?: number; allowPrivate?: boolean } = {}) =>
    postWebhook(new URL(`${base}${path}`), '{}', {}, { timeoutMs: options.timeoutMs ?? 2000, policy: { allowPrivate: options.allowPrivate ?? true } })

  it('reports 2xx as success and does not follow a redirect', async () => {
    expect(await send('/ok')).toMatchObject({ status: 200, error: null })
    expect(await send('/redirect')).toMatchObject({ status: 307, error: 'redirect (307) not followed' })
    expect(hits).toEqual(['/ok', '/redirect'])
  })

  it('gives up on a receiver that never answers, at the deadline', async () => {
    const outcome = await send('/hang', { timeoutMs: 600 })
    expect(outcome).toMatchObject({ status: null, error: 'no answer within 0.6 s' })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(550)
    expect(outcome.durationMs).toBeLessThan(1500)
  })

  it('never contacts a refused literal address', async () => {
    const before = hits.length
    expect(await send('/ok', { allowPrivate: false })).toMatchObject({ status: null, error: expect.stringContaining('127.0.0.1 is loopback') })
    expect(hits.length).toBe(before)
    const closed = await postWebhook(new URL('http://127.0.0.1:1/'), '{}', {}, { timeoutMs: 2000, policy: { allowPrivate: true } })
    expect(closed).toMatchObject({ status: null, error: 'connection refused' })
  })
})
