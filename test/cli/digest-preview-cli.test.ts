// `beacon digest preview`: the digest a channel would get now, printed as text, HTML or data,
// from answers imported over the last two weeks (their counts decide what it must say).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'

const { dataDir, beacon, beaconWith, json } = cliSandbox('beacon-digest', 120_000)

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

describe('beacon digest preview', () => {
  it('prints the digest as text, as HTML with --html and as data with --json', { timeout: 300_000 }, () => {
    json(beacon('workspace', 'create', '--name', 'Preview Co', '--json'))
    const prompt = json(beacon('prompt', 'add', '--workspace', 'Preview Co', '--text', 'Best CRM?', '--json'))
    json(beacon('brand', 'add', '--workspace', 'Preview Co', '--name', 'Acme', '--primary', '--json'))
    // This week (yesterday): Acme in 30 of 40; the week before (8 days ago): 10 of 40.
    const lines: string[] = []
    for (const [when, acme] of [
      [day(-1), 30],
      [day(-8), 10],
    ] as const)
      for (let i = 0; i < 40; i++)
        lines.push(
          JSON.stringify({
            prompt_id: prompt.id,
            provider: 'openai',
            model: 'gpt-4o',
            content: i < acme ? `Acme is good (${i}).` : `Nothing (${i}).`,
            created_at: `${when}T12:00:00Z`,
          }),
        )
    const file = join(dataDir, 'answers.jsonl')
    writeFileSync(file, lines.join('\n'))
    json(beacon('import', 'responses', file, '--workspace', 'Preview Co', '--json'))

    const text = beaconWith({ BEACON_PUBLIC_URL: 'https://beacon.example.com/' }, 'digest', 'preview', '--workspace', 'Preview Co')
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/^Subject: Beacon weekly digest for Preview Co/)
    expect(text.stdout).toContain(`${day(-7)} to ${day(-1)}, compared with ${day(-14)} to ${day(-8)}; 40 answers.`)
    expect(text.stdout).toMatch(/Acme \(your brand\): 75\.0% \[[\d.]+–[\d.]+\], was 25\.0%/)
    expect(text.stdout).toContain('change +50.0 pts: significant (p < 0.001)')
    expect(text.stdout).toContain(`Open the dashboard: https://beacon.example.com/?start_date=${day(-7)}&end_date=${day(-1)}`)

    const html = beacon('digest', 'preview', '--workspace', 'Preview Co', '--html')
    expect(html.code, html.stderr).toBe(0)
    expect(html.stdout).toMatch(/^<!DOCTYPE html>/)
    expect(html.stdout).toContain('Weekly digest: Preview Co')
    // Without BEACON_PUBLIC_URL there is no link to give.
    expect(html.stdout).not.toContain('Open the dashboard')

    const data = json(beacon('digest', 'preview', '--workspace', 'Preview Co', '--json'))
    expect(data.brands).toEqual([
      expect.objectContaining({
        name: 'Acme',
        visibility_score: 75,
        previous_visibility_score: 25,
        responses: 40,
        visibility_test: expect.objectContaining({ delta: 50, significant: true }),
      }),
    ])
    expect(data.dashboard_url).toBeNull()

    const unknown = beacon('digest', 'preview', '--workspace', 'Nobody')
    expect(unknown.code).toBe(2)
  })
})
