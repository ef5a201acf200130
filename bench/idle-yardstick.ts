// The yardstick for worst-case /healthz figures on a shared machine: a second Node process
// that does nothing but answer. Probed by the same client in the same run, it shows what the
// client and the machine add to a probe; its own worst event-loop delay meanwhile (a 10 ms
// timer's lateness, which no client stall inflates) shows how long the OS left an idle
// process without a core. What the server sees beyond these is the server's own.
import { spawn } from 'node:child_process'
import { once } from 'node:events'

const SERVER = `
const http = require('node:http')
let worstDelayMs = 0
let last = performance.now()
setInterval(() => {
  const now = performance.now()
  worstDelayMs = Math.max(worstDelayMs, now - last - 10)
  last = now
}, 10)
const server = http.createServer((req, res) => {
  if (req.url === '/worst-delay') {
    res.end(JSON.stringify({ worstDelayMs }))
    worstDelayMs = 0
  } else res.end('{"status":"ok"}')
})
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
`

export interface IdleYardstick {
  url: string
  /** The idle process's worst event-loop delay since the last call (or its start), ms. */
  worstDelayMs(): Promise<number>
  stop(): Promise<void>
}

export async function startIdleYardstick(): Promise<IdleYardstick> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
  const url = `http://127.0.0.1:${chunk.toString().trim()}`
  return {
    url,
    async worstDelayMs() {
      const body = (await (await fetch(`${url}/worst-delay`)).json()) as { worstDelayMs: number }
      return Math.round(body.worstDelayMs)
    },
    async stop() {
      if (child.exitCode !== null) return
      child.kill()
      await once(child, 'exit')
    },
  }
}
