// The real `beacon` command in a child process, against an embedded database in a
// temporary directory.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'

const { dataDir, beacon, json } = cliSandbox('beacon-cli', 60_000)

describe('beacon CLI', () => {
  it('exits 2 with a clear message on bad arguments', () => {
    const tier = beacon('workspace', 'create', '--name', 'X', '--tier', 'gold')
    expect(tier.code).toBe(2)
    expect(tier.stderr).toContain('--tier must be one of: basic, premium')
    const missing = beacon('key', 'create', '--scopes', 'read:analytics')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--workspace')
    expect(beacon('no-such-command').code).toBe(2)
  })

  // Fourteen child processes, each booting tsx and PGlite: minutes on a busy machine.
  it('creates a workspace and keys, adds data, imports JSON Lines idempotently', { timeout: 600_000 }, () => {
    const workspace = json(beacon('workspace', 'create', '--name', 'Acme', '--tier', 'premium', '--json'))
    expect(workspace).toMatchObject({ name: 'Acme', tier: 'premium' })

    const badScope = beacon('key', 'create', '--workspace', 'Acme', '--scopes', 'read:analytics,root')
    expect(badScope.code).toBe(2)
    expect(badScope.stderr).toContain('Unknown scope "root"')

    const key = json(beacon('key', 'create', '--workspace', 'Acme', '--scopes', 'read:analytics,write:data', '--name', 'ci', '--expires-in-days', '30', '--json'))
    expect(key.key).toMatch(/^bvk_[0-9A-Za-z]{36}$/)
    const listed = json(beacon('key', 'list', '--workspace', workspace.id, '--json'))
    expect(listed).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain(key.key)

    const prompt = json(beacon('prompt', 'add', '--workspace', 'Acme', '--text', 'Best CRM?', '--tag', 'crm', '--tag', ' smb ', '--json'))
    expect(prompt.tags).toEqual(['crm', 'smb'])
    const brand = json(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Acme', '--domain', 'acme.com', '--primary', '--json'))
    expect(brand).toMatchObject({ name: 'Acme', is_primary: true })

    const file = join(dataDir, 'responses.jsonl')
    const line = (id: string) =>
      JSON.stringify({ external_id: id, prompt_id: prompt.id, provider: 'openai', model: 'gpt-4o', content: 'Acme is great.', created_at: '2026-05-01T10:00:00Z' })
    writeFileSync(file, [line('a'), line('b'), '', line('a')].join('\n'))
    expect(json(beacon('import', 'responses', file, '--workspace', 'Acme', '--json'))).toMatchObject({ lines: 3, accepted: 2, duplicates: 1 })
    expect(json(beacon('import', 'responses', file, '--workspace', 'Acme', '--json'))).toMatchObject({ lines: 3, accepted: 0, duplicates: 3 })

    const bad = join(dataDir, 'bad.jsonl')
    writeFileSync(bad, [line('c'), JSON.stringify({ prompt_id: prompt.id, provider: 'bard' })].join('\n'))
    const failed = beacon('import', 'responses', bad, '--workspace', 'Acme')
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('line 2: provider')

    const reanalysis = json(beacon('reanalyze', '--workspace', 'Acme', '--json'))
    expect(reanalysis).toEqual({ responses: 2, observations: 0 })

    const revoked = json(beacon('key', 'revoke', key.id, '--json'))
    expect(revoked.revoked_at).not.toBeNull()
    expect(beacon('key', 'revoke', '00000000-0000-0000-0000-000000000000').code).toBe(2)
  })
})
