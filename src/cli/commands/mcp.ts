// `beacon mcp`: the MCP server on stdin/stdout, for agents that start a local process
// (Claude Desktop and the like). Each JSON-RPC message is handed to the app's own POST /mcp
// in-process with BEACON_API_KEY, so the key, scopes, tools and errors are exactly those
// of the HTTP transport. stdout carries only protocol messages; anything else goes to stderr.
// The app and the MCP SDK load when the command runs, so `beacon --help` stays quick.
import type { Command } from 'commander'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { loadConfig } from '../../config.js'
import { UsageError } from '../output.js'

/** JSON-RPC error code for a request the API refused before MCP saw it (bad key, scope). */
const REFUSED = -32001

const errorMessage = (body: string, statusCode: number): string => {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } }
    if (parsed.error?.message) return parsed.error.message
  } catch {
    // not JSON: fall through
  }
  return `The service answered ${statusCode}`
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve MCP (Model Context Protocol) on stdin/stdout for an AI agent; the API key comes from BEACON_API_KEY')
    .action(async () => {
      const key = process.env.BEACON_API_KEY?.trim()
      if (!key) throw new UsageError('BEACON_API_KEY is not set: create a key with "beacon key create --workspace W --scopes read:analytics" and put it in the environment')
      // This process answers one agent: no background worker here (beacon serve runs jobs).
      const config = { ...loadConfig(), jobsWorker: false }
      const [{ StdioServerTransport }, { isJSONRPCRequest }, { buildApp }, { openDatabase }, { migrateToLatest }, { MCP_PATH }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('@modelcontextprotocol/sdk/types.js'),
        import('../../app.js'),
        import('../../db/database.js'),
        import('../../db/migrate.js'),
        import('../../mcp/mcp-routes.js'),
      ])
      const database = await openDatabase(config)
      let closed: Promise<void> | undefined
      const app = await (async () => {
        try {
          await migrateToLatest(database.db)
          const built = await buildApp({ config, database, logger: false })
          await built.ready()
          return built
        } catch (error) {
          await database.close()
          throw error
        }
      })()
      const shutdown = () =>
        (closed ??= (async () => {
          await app.close()
          await database.close()
        })())

      const forward = (message: JSONRPCMessage) =>
        app.inject({
          method: 'POST',
          url: MCP_PATH,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          payload: JSON.stringify(message),
        })

      // A bad or under-scoped key fails now, with the API's message, not at the first tool call.
      const check = await forward({ jsonrpc: '2.0', id: 0, method: 'ping' })
      if (check.statusCode !== 200) {
        await shutdown()
        throw new UsageError(`BEACON_API_KEY was refused: ${errorMessage(check.body, check.statusCode)}`)
      }

      const transport = new StdioServerTransport()
      const done = new Promise<void>((resolve) => {
        transport.onclose = resolve
        process.stdin.once('end', resolve)
      })
      // Messages are answered in arrival order, one at a time, as the agent sent them.
      let queue = Promise.resolve()
      transport.onmessage = (message) => {
        queue = queue
          .then(async () => {
            const answer = await forward(message)
            if (answer.statusCode === 202 || answer.body === '') return
            if (answer.statusCode !== 200) {
              if (isJSONRPCRequest(message))
                await transport.send({ jsonrpc: '2.0', id: message.id, error: { code: REFUSED, message: errorMessage(answer.body, answer.statusCode) } })
              return
            }
            const parsed = JSON.parse(answer.body) as JSONRPCMessage | JSONRPCMessage[]
            for (const reply of Array.isArray(parsed) ? parsed : [parsed]) await transport.send(reply)
          })
          .catch((error: unknown) => {
            process.stderr.write(`beacon mcp: ${error instanceof Error ? error.message : String(error)}\n`)
          })
      }
      await transport.start()
      process.stderr.write('beacon mcp: serving MCP on stdio\n')
      await done
      await queue
      await transport.close()
      await shutdown()
    })
}
