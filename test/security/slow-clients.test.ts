// Connection-level hostility on a real port: oversized headers and slow clients get an
// answer (or are cut off) and the server keeps serving.
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, type TestContext } from '../helpers/test-app.js'

function rawRequest(port: number, payload: string, options: { end?: boolean; timeoutMs?: number } = {}): Promise<{ text: string; ms: number; closed: boolean }> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const done = (closed: boolean) => resolve({ text, ms: Date.now() - started, closed })
    const timer = setTimeout(() => {
      socket.destroy()
      done(false)
    }, options.timeoutMs ?? 10_000)
    socket.on('data', (chunk) => (text += chunk.toString()))
    socket.on('close', () => {
      clearTimeout(timer)
      done(true)
    })
    socket.on('error', () => {})
    socket.write(payload)
  })
}

describe('slow and oversized clients (real port)', () => {
  let ctx: TestContext
  let port: number
  beforeAll(async () => {
    ctx = await createTestContext('pglite', { requestTimeoutMs: 1_000 })
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    port = (ctx.app.server.address() as { port: number }).port
  })
  afterAll(() => ctx.close())

  it('answers an oversized URL with 431 and the envelope', async () => {
    const result = await rawRequest(port, `GET /api/v1/filters?tags=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(result.text).toMatch(/^HTTP\/1\.1 431/)
    expect(JSON.parse(result.text.split('\r\n\r\n')[1]).error.code).toBe('invalid_parameter')
  })

  it('cuts off a client that never finishes its headers', async () => {
    const result = await rawRequest(port, 'GET /api/v1/filters HTTP/1.1\r\nHost: x\r\nX-Slow: ', { timeoutMs: 8_000 })
    expect(result.closed).toBe(true)
    expect(result.ms).toBeLessThan(5_000)
    expect(result.text).toMatch(/^HTTP\/1\.1 408/)
  })

  it('cuts off a client that never finishes its body', async () => {
    const result = await rawRequest(port, 'POST /api/v1/prompts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"te', { timeoutMs: 8_000 })
    expect(result.closed).toBe(true)
    expect(result.ms).toBeLessThan(5_000)
  })

  it('keeps serving afterwards', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(response.status).toBe(200)
  })
})
