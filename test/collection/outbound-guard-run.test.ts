// The SSRF case of issue 27 through a whole run on both backends: an openai_compatible base_url
// on 127.0.0.1 (allowed with COLLECTION_ALLOW_PRIVATE=true) answers
// `302 Location: http://0.0.0.0:<port>/latest/meta-data/iam/security-credentials/`. The redirect
// is not followed, and nothing of any answer's body (the redirect's, a 500's, a 2xx that is not
// a chat completion) appears in the run's errors or in the collection.run.failed webhook.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createPrompt, post } from '../helpers/requests.js'
import { addTarget, startRun, waitForRun } from './helpers.js'

const SECRET_KEY = 'outbound-guard-run-test-key-0123456789abcdef'
const LEAK = 'AKIAEXAMPLEINTERNALBODY'

/** The hostile server: each path prefix answers one way; every request is counted. */
async function startHostileServer() {
  const hits: string[] = []
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    hits.push(path)
    request.resume()
    if (path.startsWith('/redirect/')) {
      response.writeHead(302, { location: `http://0.0.0.0:${port}/latest/meta-data/iam/security-credentials/`, 'content-type': 'text/plain' })
      response.end(`Found. ${LEAK}`)
    } else if (path.startsWith('/latest/meta-data/')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ AccessKeyId: LEAK }))
    } else if (path.startsWith('/error/')) {
      // An OpenAI-style error object (openai/core/error.d.ts reads `error.message`) carrying the internal text.
      response.writeHead(400, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: LEAK, type: 'invalid_request_error' } }))
    } else {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end(`<p>${LEAK}</p>`)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { hits, port, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}

/** Collects webhook deliveries' bodies. */
async function startReceiver() {
  const bodies: string[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'))
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { bodies, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(testBackends)('outbound guard through a collection run (%s)', (backend) => {
  let ctx: TestContext
  let hostile: Awaited<ReturnType<typeof startHostileServer>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  beforeAll(async () => {
    hostile = await startHostileServer()
    receiver = await startReceiver()
    ctx = await createTestContext(backend, {
      jobsWorker: true,
      rateLimitPerMinute: 1_000_000,
      secretKey: SECRET_KEY,
      collectionAllowPrivate: true,
      webhookAllowPrivate: true,
      // one attempt: a malformed answer is otherwise retried with backoff
      collectionMaxAttempts: 1,
    })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await hostile?.close()
    await receiver?.close()
  })

  it('does not follow the redirect to the metadata path; no answer body reaches run errors or the collection.run.failed webhook', async () => {
    const w = await ctx.tenant()
    await createPrompt(ctx, w.key, 'Which kanban tool?')
    const hook = await post(ctx, '/api/v1/webhooks', w.key, { url: receiver.url, events: ['collection.run.failed'] })
    expect(hook.statusCode, hook.body).toBe(201)
    const base = `http://127.0.0.1:${hostile.port}`
    const redirect = await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${base}/redirect/v1` })
    const error = await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${base}/error/v1` })
    const page = await addTarget(ctx, w.key, { provider: 'openai', model: 'llama3', api: 'openai_compatible', base_url: `${base}/page/v1` })

    const run = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 60_000)
    expect(run).toMatchObject({ state: 'failed', planned: 3, succeeded: 0, failed: 3 })
    const byTarget = Object.fromEntries(run.errors.map((e) => [e.target_id, e]))
    expect(byTarget[redirect]).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/\(HTTP 302\): redirect \(302\) not followed/) })
    expect(byTarget[error]).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/\(HTTP 400\): the server refused the request/) })
    expect(byTarget[page]).toMatchObject({ code: 'malformed', message: expect.stringMatching(/the answer is not a chat completion/) })
    // The metadata path was never asked; each target was asked once.
    expect(hostile.hits.filter((path) => path.includes('meta-data'))).toEqual([])
    expect(hostile.hits.sort()).toEqual(['/error/v1/chat/completions', '/page/v1/chat/completions', '/redirect/v1/chat/completions'])
    expect(JSON.stringify(run)).not.toMatch(new RegExp(`${LEAK}|meta-data|0\\.0\\.0\\.0`))

    // The run's failure event carries the same errors, and nothing of the bodies.
    const deadline = Date.now() + 30_000
    while (!receiver.bodies.some((body) => body.includes('collection.run.failed')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    const event = receiver.bodies.find((body) => body.includes('collection.run.failed'))
    expect(event).toBeDefined()
    expect(JSON.parse(event!).data.run.errors).toHaveLength(3)
    expect(event).not.toMatch(new RegExp(`${LEAK}|meta-data|0\\.0\\.0\\.0`))
  })
})
