// `beacon mcp` over stdio with the SDK's own client, spawned as an agent would start it,
// on an embedded database the CLI filled. Its numbers are then compared with the HTTP
// routes of an app opened on the same data (the embedded database is one process at a time).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { READ_TOOLS, WRITE_TOOLS } from './expected-tools.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/db/database.js'
import { cliSandbox } from '../helpers/cli.js'

const { dataDir, beacon, json } = cliSandbox('beacon-mcp-stdio')
const RANGE = { start_date: '2026-05-01', end_date: '2026-05-03' }

describe('beacon mcp (stdio)', () => {
  let fullKey: string
  let writeOnlyKey: string
  let acme: string
  let promptId: string
  const results = new Map<string, { url: string; data: unknown }>()

  const env = (key: string): Record<string, string> => {
    const vars: Record<string, string> = {}
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && name !== 'DATABASE_URL') vars[name] = value
    return { ...vars, BEACON_DATA_DIR: dataDir, LOG_LEVEL: 'silent', BEACON_API_KEY: key }
  }
  const connect = async (key: string) => {
    const client = new Client({ name: 'beacon-test', version: '1.0.0' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/beacon.js', 'mcp'], env: env(key), stderr: 'pipe' }))
    return client
  }

  beforeAll(() => {
    json(beacon('workspace', 'create', '--name', 'Acme', '--tier', 'premium', '--json'))
    fullKey = json(beacon('key', 'create', '--workspace', 'Acme', '--scopes', 'read:analytics,write:data', '--json')).key
    writeOnlyKey = json(beacon('key', 'create', '--workspace', 'Acme', '--scopes', 'write:data', '--json')).key
    acme = json(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Acme', '--domain', 'acme.com', '--primary', '--json')).id
    json(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Globex', '--json'))
    promptId = json(beacon('prompt', 'add', '--workspace', 'Acme', '--text', 'Best CRM?', '--tag', 'crm', '--json')).id
    const contents = ['Acme is great.', 'Globex and Acme both work.', 'Globex wins.', 'Neither, honestly.', 'Acme, see https://acme.com/pricing']
    const lines = contents.map((content, i) =>
      JSON.stringify({
        external_id: `r${i}`,
        prompt_id: promptId,
        provider: i % 2 ? 'anthropic' : 'openai',
        model: i % 2 ? 'claude-sonnet-4' : 'gpt-4o',
        content,
        created_at: `2026-05-0${1 + (i % 3)}T10:00:00Z`,
      }),
    )
    const file = join(dataDir, 'responses.jsonl')
    writeFileSync(file, lines.join('\n'))
    expect(json(beacon('import', 'responses', file, '--workspace', 'Acme', '--json'))).toMatchObject({ accepted: 5 })
  }, 180_000)

  it('lists the tools and answers calls', async () => {
    const client = await connect(fullKey)
    try {
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).toEqual(expect.arrayContaining([...READ_TOOLS, ...WRITE_TOOLS]))
      const calls: [string, Record<string, unknown>, string][] = [
        ['get_dashboard', RANGE, `/api/v1/dashboard?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`],
        ['get_brand', { brand_id: acme, ...RANGE }, `/api/v1/brands/${acme}?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`],
        ['list_prompts', { brand_id: acme, ...RANGE }, `/api/v1/prompts?brand_id=${acme}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`],
        ['list_sources', RANGE, `/api/v1/sources?start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`],
        ['list_brands', {}, '/api/v1/brands'],
      ]
      for (const [name, args, url] of calls) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy()
        results.set(name, { url, data: result.structuredContent })
      }
      // Acme is named in r0, r1, r4 of 5 answers.
      expect(results.get('get_dashboard')!.data).toMatchObject({ brands: { Acme: { visibility_score: 60 } } })
      const error = (await client.callTool({ name: 'get_dashboard', arguments: { start_date: 'yesterday' } })) as CallToolResult
      expect(error.isError).toBe(true)
      expect((error.content[0] as { text: string }).text).toMatch(/start_date/)
    } finally {
      await client.close()
    }
  }, 120_000)

  it('a key without read:analytics, or none, is refused at start with the API’s message', () => {
    const run = (key: string | undefined) => {
      const vars = env(key ?? '')
      if (key === undefined) delete vars.BEACON_API_KEY
      return spawnSync(process.execPath, ['bin/beacon.js', 'mcp'], { env: vars, encoding: 'utf8', input: '', timeout: 60_000 })
    }
    const scoped = run(writeOnlyKey)
    expect(scoped.status).toBe(2)
    expect(scoped.stderr).toContain('lacks the scope "read:analytics"')
    expect(scoped.stdout).toBe('')
    const missing = run(undefined)
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('BEACON_API_KEY is not set')
  }, 120_000)

  it('gave the same data as the HTTP routes', async () => {
    expect(results.size).toBe(5)
    const config = { ...loadConfig({ BEACON_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), jobsWorker: false }
    const database = await openDatabase(config)
    const app = await buildApp({ config, database, logger: false })
    try {
      for (const [name, { url, data }] of results) {
        const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${fullKey}` } })
        expect(response.statusCode, response.body).toBe(200)
        expect(data, name).toEqual(response.json().data)
      }
    } finally {
      await app.close()
      await database.close()
    }
  }, 60_000)
})
