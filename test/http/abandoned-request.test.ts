// A request whose client hangs up fails on its rolled-back transaction; that is logged as
// an abandoned request, not as a server error with a stack (a load test ending logged one
// error per in-flight request).
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { errorHandler } from '../../src/http/error-handler.js'

async function logsOf(abort: boolean): Promise<{ level: number; msg: string }[]> {
  const lines: { level: number; msg: string }[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string })
      done()
    },
  })
  const app = Fastify({ logger: { level: 'info', stream } })
  app.setErrorHandler(errorHandler)
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200))
    throw new Error('Transaction is already rolled back')
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const controller = new AbortController()
  if (abort) setTimeout(() => controller.abort(), 50)
  await fetch(`${url}/slow`, { signal: controller.signal }).catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, 300))
  await app.close()
  return lines.filter((line) => line.msg === 'request failed' || line.msg.startsWith('request abandoned'))
}

describe('error logging', () => {
  it('a failure after the client left is an abandoned request at info level', async () => {
    expect(await logsOf(true)).toEqual([expect.objectContaining({ level: 30, msg: 'request abandoned: the client closed the connection before the answer' })])
  })

  it('the same failure with the client still there is a server error', async () => {
    expect(await logsOf(false)).toEqual([expect.objectContaining({ level: 50, msg: 'request failed' })])
  })
})
