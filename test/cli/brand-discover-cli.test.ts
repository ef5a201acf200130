// `beacon brand discover`: the same scan the API queues, run inline by the CLI.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'
import { corpus, precisionAndRecall } from '../helpers/discovery-corpus.js'

const { dataDir, beacon, json } = cliSandbox('beacon-discover', 120_000)

describe('beacon brand discover', () => {
  it('proposes the corpus brands inline, and a second run only updates them', { timeout: 600_000 }, () => {
    json(beacon('workspace', 'create', '--name', 'Mail', '--tier', 'premium', '--json'))
    const prompt = json(beacon('prompt', 'add', '--workspace', 'Mail', '--text', 'Best email tool?', '--json'))
    json(beacon('brand', 'add', '--workspace', 'Mail', '--name', 'Mailvio', '--alias', 'Mailvio Pro', '--primary', '--json'))
    const file = join(dataDir, 'answers.jsonl')
    writeFileSync(
      file,
      corpus.answers
        .map((a) => JSON.stringify({ external_id: a.id, prompt_id: prompt.id, provider: 'openai', model: 'gpt-4o', content: a.content, created_at: a.created_at }))
        .join('\n'),
    )
    json(beacon('import', 'responses', file, '--workspace', 'Mail', '--json'))

    const first = json(beacon('brand', 'discover', '--workspace', 'Mail', '--json'))
    expect(first.responses_scanned).toBe(corpus.answers.length)
    const names = (first.suggestions as { name: string }[]).map((s) => s.name)
    // Only Mailvio is configured here, so the other corpus brands are fair suggestions too.
    expect(names).not.toContain('Mailvio')
    expect(names).toEqual(expect.arrayContaining(['Brevoxa', 'Zestmail', 'Sendloop', 'Campaignly']))
    expect(precisionAndRecall(names).recall).toBeGreaterThanOrEqual(0.8)
    expect(first.pending).toBe(first.suggested)

    const second = json(beacon('brand', 'discover', '--workspace', 'Mail', '--json'))
    expect(second).toMatchObject({ suggested: 0, updated: first.suggested, pending: first.suggested })
    const text = beacon('brand', 'discover', '--workspace', 'Mail')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('Brevoxa')
  })
})
