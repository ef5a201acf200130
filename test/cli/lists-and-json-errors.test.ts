// `beacon brand list`, `beacon prompt list`, and errors under --json: the real command in
// a child process, against an embedded database in a temporary directory.
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'

const { beacon, json } = cliSandbox('beacon-cli-lists')
/** A failed --json run: nothing on stdout, exactly one JSON error document on stderr. */
const jsonError = (run: ReturnType<typeof beacon>, exitCode: number) => {
  expect(run.code, run.stderr).toBe(exitCode)
  expect(run.stdout).toBe('')
  const body = JSON.parse(run.stderr)
  expect(body.success).toBe(false)
  expect(Object.keys(body.error).sort()).toEqual(expect.arrayContaining(['code', 'message']))
  return body.error as { code: string; message: string; param?: string }
}

describe('beacon brand list / prompt list and --json errors', () => {
  it('reports bad arguments as JSON with exit code 2', () => {
    expect(jsonError(beacon('workspace', 'create', '--name', 'X', '--tier', 'gold', '--json'), 2)).toEqual({
      code: 'invalid_argument',
      message: '--tier must be one of: basic, premium',
    })
    const missing = jsonError(beacon('brand', 'list', '--json'), 2)
    expect(missing.code).toBe('invalid_argument')
    expect(missing.message).toContain('--workspace')
    expect(jsonError(beacon('prompt', 'list', '--workspace', 'X', '--bogus', '--json'), 2).message).toContain("unknown option '--bogus'")
    // Without --json the same error stays a line of text.
    const text = beacon('brand', 'list')
    expect(text.code).toBe(2)
    expect(text.stderr).toContain("required option '--workspace")
    expect(() => JSON.parse(text.stderr)).toThrow()
  })

  it('lists brands and prompts as a table and as JSON', { timeout: 600_000 }, () => {
    json(beacon('workspace', 'create', '--name', 'Acme', '--tier', 'basic', '--json'))
    expect(beacon('brand', 'list', '--workspace', 'Acme').stdout.trim()).toBe('(none)')
    json(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Globex', '--alias', 'Globex Corp', '--json'))
    json(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Acme', '--domain', 'acme.com', '--primary', '--json'))
    const prompt = json(beacon('prompt', 'add', '--workspace', 'Acme', '--text', 'Best CRM?', '--tag', 'crm', '--tag', 'smb', '--json'))

    const brands = json(beacon('brand', 'list', '--workspace', 'Acme', '--json'))
    expect(brands.map((b: { name: string }) => b.name)).toEqual(['Acme', 'Globex'])
    expect(brands[0]).toMatchObject({ domain: 'acme.com', is_primary: true, is_active: true })
    expect(brands[1]).toMatchObject({ aliases: ['Globex Corp'], is_primary: false })
    const table = beacon('brand', 'list', '--workspace', 'Acme').stdout.trim().split('\n')
    expect(table[0].split(/\s+/)).toEqual(['id', 'name', 'domain', 'aliases', 'primary', 'active'])
    expect(table[1]).toMatch(new RegExp(`^${brands[0].id}\\s+Acme\\s+acme\\.com\\s+-\\s+yes\\s+yes$`))
    expect(table).toHaveLength(3)

    expect(json(beacon('prompt', 'list', '--workspace', 'Acme', '--json'))).toEqual([{ ...prompt }])
    const prompts = beacon('prompt', 'list', '--workspace', 'Acme').stdout.trim().split('\n')
    expect(prompts[1]).toMatch(new RegExp(`^${prompt.id}\\s+Best CRM\\?\\s+crm,smb\\s+yes$`))

    // Errors found while running keep their API code; a refused value is a bad argument (2).
    expect(jsonError(beacon('brand', 'list', '--workspace', 'Nope', '--json'), 2).message).toContain('No workspace "Nope"')
    expect(jsonError(beacon('brand', 'add', '--workspace', 'Acme', '--name', 'Acme', '--json'), 2)).toMatchObject({ code: 'invalid_parameter', param: 'name' })
  })
})
