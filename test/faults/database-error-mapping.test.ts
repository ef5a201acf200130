// Which failures of the database connection become a retryable 503 rather than a 500.
// The errors are real ones, raised by node-postgres against a tiny fake server that
// misbehaves on purpose (refuses, never answers, hangs up, shuts down mid-query), so a
// change of pg's error shapes shows up here.
import { createServer, type Server, type Socket } from 'node:net'
import Fastify from 'fastify'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { errorHandler, isDatabaseUnavailable } from '../../src/http/error-handler.js'
import { freePort } from './helpers/private-services.js'

type Mode = 'silent' | 'hangup' | 'shutdown-mid-query' | 'drop-when-idle' | 'syntax-error'

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5)
  head.write(type, 0)
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}
const authOk = () => message('R', Buffer.from([0, 0, 0, 0]))
const readyForQuery = () => message('Z', Buffer.from('I'))
const errorResponse = (severity: string, code: string, text: string) =>
  message('E', Buffer.concat([Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${text}\0`), Buffer.from([0])]))

/** Speaks just enough of the PostgreSQL protocol to let a client in, then misbehaves. */
async function fakePostgres(mode: Mode): Promise<{ port: number; server: Server }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    if (mode === 'silent') return
    if (mode === 'hangup') return void socket.destroy()
    let started = false
    socket.on('data', () => {
      if (!started) {
        started = true
        socket.write(Buffer.concat([authOk(), readyForQuery()]))
        if (mode === 'drop-when-idle') setTimeout(() => socket.destroy(), 20)
        return
      }
      if (mode === 'shutdown-mid-query') socket.end(errorResponse('FATAL', '57P01', 'terminating connection due to administrator command'))
      if (mode === 'syntax-error') socket.write(Buffer.concat([errorResponse('ERROR', '42601', 'syntax error at or near "selec"'), readyForQuery()]))
    })
  })
  server.on('close', () => sockets.forEach((s) => s.destroy()))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  return { port: typeof address === 'object' && address ? address.port : 0, server }
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.close()
    server.emit('close')
  }
})

/** The error node-postgres raises for one query through a pool, as the app's Kysely pool would. */
async function poolQueryError(port: number, connectionTimeoutMillis = 300): Promise<Error> {
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'beacon', database: 'beacon', connectionTimeoutMillis, max: 1 })
  pool.on('error', () => {})
  try {
    await pool.query('select 1')
    throw new Error('the query unexpectedly succeeded')
  } catch (error) {
    return error as Error
  } finally {
    pool.end().catch(() => {})
  }
}

async function errorFor(mode: Mode | 'refused'): Promise<Error> {
  if (mode === 'refused') return poolQueryError(await freePort())
  const { port, server } = await fakePostgres(mode)
  servers.push(server)
  if (mode !== 'drop-when-idle') return poolQueryError(port)
  // A client checked out of the pool whose connection dies before it sends its query.
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'beacon', database: 'beacon' })
  client.on('error', () => {})
  await client.connect()
  await new Promise((done) => client.once('end', done))
  try {
    await client.query('select 1')
    throw new Error('the query unexpectedly succeeded')
  } catch (error) {
    return error as Error
  }
}

/** What a client sees when a route's query fails with this error. */
async function responseFor(error: Error) {
  const app = Fastify({ logger: false })
  app.setErrorHandler(errorHandler)
  app.get('/query', async () => {
    throw error
  })
  const response = await app.inject('/query')
  await app.close()
  return { status: response.statusCode, code: response.json().error.code as string, retryAfter: response.headers['retry-after'], body: response.body }
}

describe('database failures map to a retryable 503', () => {
  it.each([
    ['refused', 'nothing listens on the port (server stopped)'],
    ['silent', 'the server accepts but never answers (pool connect timeout)'],
    ['hangup', 'the server closes the socket during the handshake'],
    ['shutdown-mid-query', 'the server shuts down while a query runs (57P01)'],
    ['drop-when-idle', 'a checked-out client lost its connection before querying'],
  ] as const)('%s: %s', async (mode, _situation) => {
    const error = await errorFor(mode)
    expect(isDatabaseUnavailable(error), `${mode}: ${(error as { code?: string }).code} ${error.message}`).toBe(true)
    const response = await responseFor(error)
    expect(response.status).toBe(503)
    expect(response.code).toBe('service_unavailable')
    expect(Number(response.retryAfter)).toBeGreaterThan(0)
    // 5xx bodies never carry driver internals.
    expect(response.body).not.toContain(error.message)
  })

  it('keeps real query errors as 500: a database that answers is not unavailable', async () => {
    const error = await errorFor('syntax-error')
    expect((error as { code?: string }).code).toBe('42601')
    expect(isDatabaseUnavailable(error)).toBe(false)
    const response = await responseFor(error)
    expect(response.status).toBe(500)
    expect(response.code).toBe('internal_error')
    expect(response.body).not.toContain('selec')
  })

  it.each([
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
  ])('server error %s (%s) is unavailability', (code, text) => {
    expect(isDatabaseUnavailable(Object.assign(new Error(text), { code }))).toBe(true)
  })
})
