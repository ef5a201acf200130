// What /mcp refuses before any tool runs (src/mcp/mcp-guard.ts): a Host or Origin that is
// not one of the server's names (DNS rebinding), before the key is looked at; a JSON-RPC
// batch over 20 messages. Both answer with a JSON-RPC error object. The SDK client against a
// listening server (test/mcp/mcp-http.test.ts) shows ordinary clients pass.
import { hostname } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { generateApiKey } from '../../src/auth/api-keys.js'
import { ConfigError, loadConfig, type Config } from '../../src/config.js'
import { allowedHosts, MAX_BATCH, ownHostNames } from '../../src/mcp/mcp-guard.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'

const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })

describe.each(testBackends)('/mcp Host, Origin and batch checks (%s)', (backend) => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    key = (await ctx.tenant()).key
  })
  afterAll(() => ctx.close())

  const mcp = (headers: Record<string, string>, body: unknown = listTools(1), app = ctx.app) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      payload: JSON.stringify(body),
    })

  it('answers clients that reach it by a loopback name or its own name, on any port, with or without an Origin of those names', async () => {
    const cases: Record<string, string>[] = [
      { host: '127.0.0.1:3000' },
      { host: 'localhost' },
      { host: '[::1]:8080' },
      { host: `${hostname()}:3000` },
      { host: 'LOCALHOST:3000' },
      { host: '127.0.0.1:3000', origin: 'http://localhost:5173' },
      { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
    ]
    for (const headers of cases) {
      const response = await mcp(headers)
      expect(response.statusCode, `${JSON.stringify(headers)}: ${response.body}`).toBe(200)
      expect(response.json().result.tools.length).toBeGreaterThan(5)
    }
  })

  it('refuses another Host or Origin with a JSON-RPC error, before the key is looked at', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ host: 'evil.example' }, /^Host "evil\.example" is not allowed for \/mcp \(DNS-rebinding protection\).*MCP_ALLOWED_HOSTS/],
      [{ host: 'evil.example:3000' }, /^Host "evil\.example:3000" is not allowed/],
      [{ host: '127.0.0.1.evil.example' }, /^Host "127\.0\.0\.1\.evil\.example" is not allowed/],
      [{ host: '127.0.0.1:3000', origin: 'http://evil.example' }, /^Origin "http:\/\/evil\.example" is not allowed for \/mcp.*MCP_ALLOWED_HOSTS/],
      [{ host: '127.0.0.1:3000', origin: 'http://localhost.evil.example:3000' }, /^Origin "http:\/\/localhost\.evil\.example:3000" is not allowed/],
      [{ host: '127.0.0.1:3000', origin: 'null' }, /^Origin "null" is not allowed/],
    ]
    for (const [headers, message] of cases) {
      const response = await mcp(headers)
      expect(response.statusCode, JSON.stringify(headers)).toBe(403)
      expect(response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(message) }, id: null })
      expect(response.headers['x-request-id']).toBeDefined()
    }
    // Before the key: an unknown key gets the same 403, not a 401 (nothing was looked up).
    const unknown = await ctx.app.inject({ method: 'POST', url: '/mcp', headers: { host: 'evil.example', authorization: `Bearer ${generateApiKey()}` }, payload: '{}' })
    expect(unknown.statusCode).toBe(403)
    // GET and DELETE are refused the same way before their 405.
    expect((await ctx.app.inject({ method: 'GET', url: '/mcp', headers: { host: 'evil.example' } })).statusCode).toBe(403)
    expect((await ctx.app.inject({ method: 'GET', url: '/mcp', headers: { host: 'localhost' } })).statusCode).toBe(405)
    // The API itself is not behind this check (its clients are not browsers holding a session).
    expect((await ctx.app.inject({ url: '/api/v1/filters', headers: { host: 'evil.example', authorization: `Bearer ${key}` } })).statusCode).toBe(200)
  })

  it('MCP_ALLOWED_HOSTS names the hosts it answers to (loopback always), and * turns the check off', async () => {
    const withHosts = async (mcpAllowedHosts: Config['mcpAllowedHosts'], fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) => {
      const app = await buildApp({ config: { ...ctx.config, mcpAllowedHosts }, database: ctx.database, logger: false })
      try {
        await fn(app)
      } finally {
        await app.close()
      }
    }
    await withHosts(['beacon.example.com'], async (app) => {
      expect((await mcp({ host: 'beacon.example.com' }, listTools(1), app)).statusCode).toBe(200)
      expect((await mcp({ host: 'beacon.example.com:443', origin: 'https://beacon.example.com' }, listTools(1), app)).statusCode).toBe(200)
      expect((await mcp({ host: 'localhost:3000' }, listTools(1), app)).statusCode).toBe(200)
      expect((await mcp({ host: 'evil.example' }, listTools(1), app)).statusCode).toBe(403)
      expect((await mcp({ host: 'beacon.example.com', origin: 'https://evil.example' }, listTools(1), app)).statusCode).toBe(403)
    })
    await withHosts(null, async (app) => {
      expect((await mcp({ host: 'evil.example', origin: 'http://evil.example' }, listTools(1), app)).statusCode).toBe(200)
    })
  })

  it(`answers a batch of up to ${MAX_BATCH} calls and refuses a bigger one with a JSON-RPC error`, async () => {
    const full = await mcp(
      { host: 'localhost' },
      Array.from({ length: MAX_BATCH }, (_, i) => listTools(i + 1)),
    )
    expect(full.statusCode, full.body).toBe(200)
    expect((full.json() as { id: number }[]).map((answer) => answer.id).sort((a, b) => a - b)).toEqual(Array.from({ length: MAX_BATCH }, (_, i) => i + 1))
    const over = await mcp(
      { host: 'localhost' },
      Array.from({ length: 50 }, (_, i) => listTools(i + 1)),
    )
    expect(over.statusCode).toBe(400)
    expect(over.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'A JSON-RPC batch may hold at most 20 messages and this one has 50: send them in smaller batches or one at a time' },
      id: null,
    })
  })
})

describe('MCP host allow-list settings', () => {
  it('reads MCP_ALLOWED_HOSTS as host names, any port, IPv6 in brackets; * is any', () => {
    expect(loadConfig({ MCP_ALLOWED_HOSTS: 'Beacon.Example.com:8443, 10.0.0.5 ,[2001:db8::1]' }).mcpAllowedHosts).toEqual(['beacon.example.com', '10.0.0.5', '[2001:db8::1]'])
    expect(loadConfig({ MCP_ALLOWED_HOSTS: '*' }).mcpAllowedHosts).toBeNull()
    expect(loadConfig({}).mcpAllowedHosts).toBeUndefined()
    expect(() => loadConfig({ MCP_ALLOWED_HOSTS: 'beacon.example.com/mcp' })).toThrow(ConfigError)
    expect(() => loadConfig({ MCP_ALLOWED_HOSTS: 'a b' })).toThrow(/MCP_ALLOWED_HOSTS must be a comma-separated list of host names/)
  })

  it('defaults to loopback, the machine name and the listening address, or every interface address on 0.0.0.0', () => {
    expect(ownHostNames('10.1.2.3')).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase(), '10.1.2.3']))
    expect(ownHostNames('10.1.2.3')).not.toContain('0.0.0.0')
    const all = ownHostNames('0.0.0.0')
    expect(all).toEqual(expect.arrayContaining(['localhost', hostname().toLowerCase()]))
    expect(all).not.toContain('0.0.0.0')
    expect(allowedHosts(['beacon.example.com'], '0.0.0.0')).toEqual(new Set(['localhost', '127.0.0.1', '[::1]', 'beacon.example.com']))
    expect(allowedHosts(null, '127.0.0.1')).toBeNull()
  })
})
