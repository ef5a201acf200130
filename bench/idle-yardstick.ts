// The yardstick for worst-case /healthz figures on a shared machine: a second Node process
// that does nothing but answer, probed by the same client in the same run. Whatever stalls
// it sees (the OS not scheduling it, the probing client's own pauses) are the machine's;
// what the server sees beyond them is the server's own.
import { spawn } from 'node:child_process'
import { once } from 'node:events'

const SERVER = `
const http = require('node:http')
const server = http.createServer((req, res) => res.end('{"status":"ok"}'))
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
`

export async function startIdleYardstick(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer]
  return {
    url: `http://127.0.0.1:${chunk.toString().trim()}`,
    async stop() {
      if (child.exitCode !== null) return
      child.kill()
      await once(child, 'exit')
    },
  }
}
