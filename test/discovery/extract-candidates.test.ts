// The extractor behind competitor discovery: which names an answer puts forward and by which cue.
import { describe, expect, it } from 'vitest'
import { scanAnswer, asName } from '../../src/discovery/extract-candidates.js'
import { foldName, containsTokens } from '../../src/discovery/name-key.js'
import { DiscoveryTally, snippetAround } from '../../src/discovery/rank-candidates.js'

const cues = (content: string) => scanAnswer(content).hits.map((h) => `${h.cue}:${h.name}`)

describe('foldName', () => {
  it('ignores case, diacritics, typographic apostrophes and space runs', () => {
    expect(foldName('Cadência')).toBe('cadencia')
    expect(foldName('  Paula’s   Choice ')).toBe("paula's choice")
    expect(foldName('ÆON')).toBe('æon')
    expect(foldName('T–Mobile')).toBe('t-mobile')
  })

  it('finds whole-token runs only', () => {
    expect(containsTokens(['kanbrio', 'business'], ['kanbrio'])).toBe(true)
    expect(containsTokens(['kanbrios'], ['kanbrio'])).toBe(false)
    expect(containsTokens(['a', 'b', 'c'], ['b', 'c'])).toBe(true)
  })
})

describe('asName', () => {
  it('accepts capitalised runs of up to four tokens and trims stop words at the edges', () => {
    expect(asName('Cadencia')?.name).toBe('Cadencia')
    expect(asName('The Trackory Suite:')?.name).toBe('Trackory')
    expect(asName('AT&T')?.name).toBe('AT&T')
    expect(asName('Monday.com')?.name).toBe('Monday.com')
    expect(asName('nTask')?.name).toBe('nTask')
    expect(asName("Cadencia's")?.name).toBe('Cadencia')
  })

  it('refuses phrases with lower-case words, too many tokens, or only common words', () => {
    expect(asName('Best for')).toBeNull()
    expect(asName('Map your current workflow')).toBeNull()
    expect(asName('Alpha Beta Gamma Delta Epsilon')).toBeNull()
    expect(asName('Key Features')).toBeNull()
    expect(asName('Pricing')).toBeNull()
  })
})

describe('scanAnswer', () => {
  it('reads list items, headings, bold text, links and table rows as structural cues', () => {
    const hits = cues(
      [
        '### 2. Cadencia',
        '1. **Plotwise** – great roadmaps.',
        '- [Orbitask](https://orbitask.com/pricing?utm_source=x) — async standups.',
        'Also try **Trackory**.',
        '',
        '| Tool | Price |',
        '|---|---|',
        '| Zenodesk | $5 |',
      ].join('\n'),
    )
    expect(hits).toContain('heading:Cadencia')
    expect(hits).toContain('list:Plotwise')
    expect(hits).toContain('bold:Plotwise')
    expect(hits).toContain('list:Orbitask')
    expect(hits).toContain('link:Orbitask')
    expect(hits).toContain('bold:Trackory')
    expect(hits).toContain('table:Zenodesk')
    // The header row names columns, not tools.
    expect(hits.some((h) => h.endsWith(':Tool'))).toBe(false)
  })

  it('splits a lead that names several tools', () => {
    expect(cues('- Cadencia, Trackory and Plotwise')).toEqual(expect.arrayContaining(['list:Cadencia', 'list:Trackory', 'list:Plotwise']))
    expect(cues('### Cadencia vs Trackory')).toEqual(expect.arrayContaining(['heading:Cadencia', 'heading:Trackory']))
  })

  it('tells a sentence-opening capital from one inside a sentence', () => {
    const hits = cues('Cadencia is new. Many teams pick Trackory over it. If Plotwise fits, use it.')
    expect(hits).toContain('start:Cadencia')
    expect(hits).toContain('prose:Trackory')
    // "If" is trimmed, so Plotwise is the run's first kept token, and it is not at the start.
    expect(hits).toContain('prose:Plotwise')
  })

  it('never reads names inside URLs or bare domains, and keeps compound adjectives out', () => {
    const hits = cues('See https://www.Cadencia.com/Pricing and trackory.io for AI-assisted planning; Best-in-class support.')
    expect(hits.some((h) => /cadencia|pricing|trackory/i.test(h))).toBe(false)
    expect(hits.some((h) => /assisted|class/i.test(h))).toBe(false)
  })

  it('collects the lower-case words as evidence of common words', () => {
    const { lowerWords } = scanAnswer('A steady drip of emails works. Visit https://drop.example/flow for more.')
    expect(lowerWords.has('drip')).toBe(true)
    expect(lowerWords.has('flow')).toBe(false)
  })
})

describe('DiscoveryTally', () => {
  const answers = [
    '1. **Cadencia** – good.\n2. **Kanbrio** – fine.',
    '- **Cadencia**: solid. ChatGPT likes **Kanbrio Business**.',
    'Teams often choose Cadencia. **Drip** is nice.',
    'Many pick Cadencia; a steady drip of updates helps. **Drip** again. ChatGPT says so.',
    'Create a board. Create columns. **Drip** once more. ChatGPT, Claude and Gemini agree. Teams use Kanbrio Business.',
  ]
  const tally = () => {
    const t = new DiscoveryTally({ minResponses: 3, minScore: 3, maxSuggestions: 10, examples: 2 })
    answers.forEach((content, i) => t.add({ id: `r${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)), content }))
    return t
  }

  it('suggests recurring names with their evidence, never configured ones, providers or common words', () => {
    const [first, ...rest] = tally().rank({ terms: ['Kanbrio'] })
    expect(rest).toEqual([])
    expect(first).toMatchObject({ key: 'cadencia', name: 'Cadencia', responses: 4, score: 3 + 3 + 1 + 1 })
    // Answers 0 and 1 open their item with it (start); 2 and 3 name it inside a sentence.
    expect(first.signals).toMatchObject({ list: 2, bold: 2, prose: 2, start: 2 })
    expect(first.first_seen.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(first.last_seen.toISOString()).toBe('2026-01-04T00:00:00.000Z')
    // Strongest cue first, then oldest.
    expect(first.examples.map((e) => e.response_id)).toEqual(['r0', 'r1'])
    expect(first.examples[0].snippet).toContain('**Cadencia**')
  })

  it('a name seen only opening sentences is no evidence ("Create")', () => {
    expect(
      tally()
        .rank({ terms: [] })
        .map((s) => s.name),
    ).not.toContain('Create')
  })

  it('a product name ending in a common word counts for its brand ("Kanbrio Business" is Kanbrio)', () => {
    const names = tally()
      .rank({ terms: [] })
      .map((s) => s.name)
    expect(names).toContain('Kanbrio')
    expect(names).not.toContain('Kanbrio Business')
  })

  it('is independent of the order answers come in', () => {
    const forward = tally().rank({ terms: [] })
    const t = new DiscoveryTally({ minResponses: 3, minScore: 3, maxSuggestions: 10, examples: 2 })
    answers
      .map((content, i) => ({ id: `r${i}`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)), content }))
      .reverse()
      .forEach((a) => t.add(a))
    expect(t.rank({ terms: [] })).toEqual(forward)
  })

  it('cuts snippets at word edges', () => {
    const text = `${'word '.repeat(40)}Cadencia is here ${'more '.repeat(40)}`
    const start = text.indexOf('Cadencia')
    const snippet = snippetAround(text, start, start + 8)
    expect(snippet.startsWith('…word')).toBe(true)
    expect(snippet.endsWith('more…')).toBe(true)
    expect(snippet.length).toBeLessThan(200)
  })
})
