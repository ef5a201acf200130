import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { isOthersTitle, isSpecListing, layoutOf } from '../../src/analysis/answer-structure.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { scoreSentences } from '../../src/analysis/sentiment.js'
import { loadSentimentLexicon, LEXICON } from '../../src/analysis/sentiment-lexicon.js'

const brands: BrandTerms[] = ['Notion', 'Asana', 'Trello', 'Jira'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment]))

describe('answer layout: a lead naming a brand owns its body', () => {
  it('reads an "other options" section as a listing: neutral, whatever its one-line blurbs say', () => {
    const content = ['### 1. **Notion**', '- Excellent templates', '', '### Other options', '- **Asana**: excellent for tasks', '- **Trello**: delightful boards'].join('\n')
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBe(0)
    expect(s.Trello).toBe(0)
    // The section ends at the next line at its level or above.
    expect(sentiments(['**Also consider:**', '- Asana is excellent.', '', '## Verdict', 'Trello is excellent.'].join('\n'))).toEqual({ Asana: 0, Trello: expect.any(Number) })
    expect(sentiments(['**Also consider:**', '- Asana is excellent.', '', '## Verdict', 'Trello is excellent.'].join('\n')).Trello).toBeGreaterThan(0.05)
  })

  it('finds an "other options" section inside a line whose breaks were lost, up to a generic section title', () => {
    // Shape of Google AI Mode answers (AI Product Bench): labels and items run on in one line.
    const content =
      'Top Picks: Notion: excellent templates and a delightful editor. Other Highly-Rated Options: Asana: excellent for tasks. Verdict: Price: Trello is excellent for small teams.'
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBe(0)
    expect(s.Trello).toBeGreaterThan(0.05)
  })

  it('finds an "other options" title inside a sentence, after text run on from a shopping card', () => {
    // Google AI Mode: the shopping cards run into the next title with no break, so wink reads
    // "…4.6(3k+)Other Solid Options: Asana: …" as one sentence.
    const content =
      'Top Picks: Notion: excellent templates and a delightful editor. Notion Plus$10.004.6(3k+)Other Solid Options: Asana: excellent for tasks and delightful. Trello Boards$5.004.4(1k+)Verdict: Price: Trello is excellent for small teams.'
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBe(0)
    // The generic title inside the card's sentence closes the section.
    expect(s.Trello).toBeGreaterThan(0.05)
    // The same title without the card before it is still found.
    expect(sentiments('Top Picks: Notion is excellent (great value).Other Great Choices (often on sale): Asana: excellent and delightful.').Asana).toBe(0)
  })

  it('reads a shopping card (a name run into its price) as listed, not judged', () => {
    const sentences = scoreSentences('Notion Plus Workspace$10.00$12.994.6(3k+)Asana is excellent.')
    const content = sentences.map((x) => x.text).join(' ')
    expect(sentiments(content).Notion).toBe(0)
    // Prose writes a space before a price: that is the answer's own sentence.
    expect(sentiments('Notion is excellent at $10 a month.').Notion).toBeGreaterThan(0.05)
  })

  it("reads a brand named in passing in another product's item as not judged there", () => {
    const content = ['### 1. **Notion**', '* **Integration**: Works with Slack, Asana and Jira, excellent and delightful', '* Great for Trello users'].join('\n')
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBe(0)
    expect(s.Jira).toBe(0)
    expect(s.Trello).toBe(0)
    // The same words about the brand as the line's subject, or under its own item, still count.
    expect(sentiments(['### 1. **Notion**', '* Asana is excellent and delightful'].join('\n')).Asana).toBeGreaterThan(0.05)
    expect(sentiments(['### 1. **Asana**', '* Works with Slack, Asana is excellent and delightful'].join('\n')).Asana).toBeGreaterThan(0.05)
  })

  it('reads a section title in title case as naming nothing, so the product above keeps its lines', () => {
    // "**Key Features**:" has two capitals, which inside a sentence make a name.
    const content = ['### 1. **Notion**', '', '* **Price**: $10', '* **Key Features**:', '', '  * Delightful editor', '  * Great for small teams'].join('\n')
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
  })

  it('tells "other options" titles from other headings', () => {
    for (const title of ['### Other options', '**Also consider:**', '### 🧠 Honorable Mentions', 'Alternatives:', 'Other Highly-Rated Options'])
      expect(isOthersTitle(title), title).toBe(true)
    for (const title of ['### Other features', '**Additional tips:**', '### Notion', 'Alternatively, pick Asana']) expect(isOthersTitle(title), title).toBe(false)
  })

  it('gives a numbered item the bullets under it, up to the next item', () => {
    const content = ['## Picks', '', '1. **Notion**', '   - Excellent templates', '   - Delightful editor', '2. **Asana**', '   - Clunky and slow'].join('\n')
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBeLessThan(-0.05)
  })

  it('reads a numbered heading by its name, not its number, and bold labels as labels', () => {
    // Shape of ChatGPT shopping answers (AI Product Bench): `### 1. **Name**`, then
    // `* **Label:** value` lines. The number is not the heading's sentence, and the
    // colon before the closing asterisks is not the ":*" emoticon.
    const content = [
      '### 1. **Notion**',
      '* **Type:** Workspace',
      '* **Highlights:** Excellent templates',
      '### 2. **Asana**',
      '* **Type:** Tasks',
      '* **Watch out:** Clunky and slow',
    ].join('\n')
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBeLessThan(-0.05)
    expect(scoreSentences('* **Type:** Over-ear')[0].sentiment).toBe(0)
    expect(scoreSentences('### 1. **Notion**').map((x) => x.text)).toEqual(['**Notion**'])
  })

  it('gives a heading the paragraphs under it, up to the next heading of its level', () => {
    const content = ['### Trello', 'It is simple and friendly.', 'Boards are intuitive.', '### Jira', 'Configuration is convoluted.'].join('\n')
    const s = sentiments(content)
    expect(s.Trello).toBeGreaterThan(0.05)
    expect(s.Jira).toBeLessThan(-0.05)
  })

  it('gives a bold lead bullet its sub-bullets, not its siblings', () => {
    const content = ['- **Notion** – workspace', '  - Excellent templates', '- **Asana** – tasks', '  - Pricey for small teams'].join('\n')
    const s = sentiments(content)
    expect(s.Notion).toBeGreaterThan(0.05)
    expect(s.Asana).toBeLessThan(-0.05)
  })

  it('keeps a body sentence about another name with that name', () => {
    // (A single capitalised word opening a sentence is read as an ordinary word — "Setup
    // is easy" — so the other name here is one that looks like a name.)
    const content = ['1. **Notion**', '   - HubSpot is pricey for small teams.', '   - Setup is easy.'].join('\n')
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
    const [, , setup] = scoreSentences(content)
    expect(sentiments(content).Notion).toBeCloseTo((0 + setup.sentiment) / 2, 12)
  })

  it('lets a lead that names something else own its body, and a topic heading pass it through', () => {
    // "Linear" is not configured, but it names something: its body is not Notion's.
    const named = ['## Notion', '### Linear', '- Excellent and fast'].join('\n')
    expect(sentiments(named).Notion).toBe(0)
    const topic = ['## Notion', '### Pricing', '- Excellent value'].join('\n')
    expect(sentiments(topic).Notion).toBeGreaterThan(0.05)
  })

  it('weighs "Pros:" and "Cons:" items, even when their words are neutral', () => {
    const pros = ['**Trello**', '**Pros:**', '- Kanban boards', '- Power-ups'].join('\n')
    expect(sentiments(pros).Trello).toBeCloseTo((0 + LEXICON.blocks.prosScore * 2) / 3, 12)
    const cons = ['**Jira**', 'Cons: heavy, many settings'].join('\n')
    expect(sentiments(cons).Jira).toBeCloseTo(LEXICON.blocks.consScore / 2, 12)
    // The singular and warning forms label the same list.
    for (const label of ['Downside', 'Caution', 'Drawback'])
      expect(sentiments(['**Jira**', `* **${label}:** many settings`].join('\n')).Jira, label).toBeLessThanOrEqual(LEXICON.blocks.consScore / 2)
    expect(sentiments(['**Jira**', '* **Setup:** many settings'].join('\n')).Jira).toBe(0)
  })

  it("reads the answer engine's interface text as neutral, not as praise of the brand it names", () => {
    const google = compileBrandMatcher([{ id: 'Google', name: 'Google', aliases: [], domain: null }])
    const closing = 'Consider your needs before buying. AI responses may include mistakes. Learn moreThank youYour feedback helps Google improve.'
    const sentences = scoreSentences(closing)
    const chrome = sentences.find((s) => s.text.includes('Google'))!
    // wink reads "helps … improve" as praise: the sentence scores positive on its words.
    expect(chrome.sentiment).toBeGreaterThan(0.05)
    expect(layoutOf(closing, sentences)[sentences.indexOf(chrome)].spec).toBe(true)
    expect(analyzeResponse({ content: closing }, google).mentions[0].sentiment).toBe(0)
    // The answer's own words about Google still count.
    const praised = analyzeResponse({ content: `The Google Pixel 9a is excellent. ${closing}` }, google).mentions[0].sentiment
    expect(praised).toBeGreaterThan(0.05)
  })

  it('reads the capital after a field label ("**Why:** Super easy") as the text starting again, not as a name', () => {
    const content = ['### 4. **Notion**', '', '* **Type:** Workspace app', '* **Why:** Super easy to set up, reliable, great for documents.'].join('\n')
    // "Super" read as a name took the clauses after it from the block's owner: Notion got 0.
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
    // A name after a label is still a name: its clauses are not the owner's.
    expect(sentiments(['### 4. **Notion**', '', '* **Instead:** Microsoft Loop is great for documents.'].join('\n')).Notion).toBe(0)
  })

  it('ends a field bullet ("* **Price**: ~$100") at a bulleted "Pros:" label of its level', () => {
    const content = ['### 3. **Notion**', '', '* **Price**: ~$10', '* **Pros**:', '  * Strong templates.', '  * Great search.'].join('\n')
    // The Price bullet stayed open and, naming "Price", owned the items: Notion got 0.
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
    const sentences = scoreSentences(content)
    const layout = layoutOf(content, sentences)
    expect(layout[sentences.findIndex((s) => s.text === 'Great search.')]).toMatchObject({ leads: [0], weight: 'pros' })
  })

  it('reads a bare spec listing as neutral and does not let it dilute', () => {
    const content = ['1. **Asana**', '   * RAM: 16GB', '   * Price: $10.99 per user', '   * Great timeline view'].join('\n')
    const [lead, ...body] = scoreSentences(content)
    expect(body.map(isSpecListing)).toEqual([true, true, false])
    // A product's blurb after its name is not a spec listing, numbers in the name or not.
    const blurbs = scoreSentences(['Asana PA278CGV: A great all-around option with 90W USB-C.', 'Specs: Intel Core i7, 16GB RAM, 512GB SSD'].join('\n'))
    expect(blurbs.map(isSpecListing)).toEqual([false, true])
    // A label that is itself a verdict heads a judgement, not a spec.
    const verdicts = scoreSentences(['Pros: 20-hour battery, 250g', 'Worst part: $12 appetizers', 'Best value: $499 with 16GB RAM', 'Battery: 20 hours'].join('\n'))
    expect(verdicts.map(isSpecListing)).toEqual([false, false, false, true])
    const great = body[2].sentiment
    expect(sentiments(content).Asana).toBeCloseTo((lead.sentiment + great) / 2, 12)
  })

  it('finds leads, labels and weights line by line', () => {
    const content = ['# Tools', '1. **Notion**', '   **Pros:**', '   - Fast', '   **Cons:**', '   - Heavy', '2. **Asana**', '', 'Plain closing words.'].join('\n')
    const sentences = scoreSentences(content)
    const layout = layoutOf(content, sentences)
    const at = (text: string) => layout[sentences.findIndex((s) => s.text === text)]
    expect(at('Fast')).toMatchObject({ leads: [0, 1], weight: 'pros' })
    expect(at('Heavy')).toMatchObject({ leads: [0, 1], weight: 'cons' })
    expect(at('**Pros:**')).toMatchObject({ label: true })
    // A paragraph at the left margin ends the list: it is the heading's, not item 2's.
    expect(at('Plain closing words.')).toMatchObject({ leads: [0], weight: null })
  })
})

describe('the domain lexicon', () => {
  it('has a reason for every entry and scores on wink’s scale', () => {
    const raw = JSON.parse(readLexicon()) as { scores: { word: string; score: number; reason: string }[] }
    expect(raw.scores.length).toBeGreaterThan(50)
    for (const e of raw.scores) {
      expect(e.reason.trim().length, e.word).toBeGreaterThan(5)
      expect(Math.abs(e.score), e.word).toBeLessThanOrEqual(1)
    }
  })

  it('rejects an entry without a reason, a zero score or a word listed twice', () => {
    const base = {
      neutral: [],
      comparatives: [],
      excess: { score: -0.4, reason: 'x' },
      blocks: { pros: { labels: [], score: 0.3, reason: 'x' }, cons: { labels: [], score: -0.3, reason: 'x' } },
    }
    expect(() => loadSentimentLexicon(JSON.stringify({ ...base, scores: [{ word: 'meh', score: -0.2, reason: '' }] }))).toThrow(/needs a reason/)
    expect(() => loadSentimentLexicon(JSON.stringify({ ...base, scores: [{ word: 'meh', score: 0, reason: 'r' }] }))).toThrow(/non-zero score/)
    expect(() =>
      loadSentimentLexicon(
        JSON.stringify({
          ...base,
          scores: [
            { word: 'meh', score: -0.2, reason: 'r' },
            { word: 'meh', score: -0.3, reason: 'r' },
          ],
        }),
      ),
    ).toThrow(/twice/)
  })

  it('keeps an entry of several words as an idiom looked up by its first word, not as a word', () => {
    const base = {
      neutral: [],
      comparatives: [],
      excess: { score: -0.4, reason: 'x' },
      blocks: { pros: { labels: [], score: 0.3, reason: 'x' }, cons: { labels: [], score: -0.3, reason: 'x' } },
    }
    const lexicon = loadSentimentLexicon(JSON.stringify({ ...base, scores: [{ word: 'out of date', score: -0.4, reason: 'r' }] }))
    expect(lexicon.scores.has('out of date')).toBe(false)
    expect(lexicon.phrases.get('out')).toEqual([{ rest: ['of', 'date'], score: -0.4 }])
  })
})

function readLexicon(): string {
  // The file the analysis loads, read the same way.
  return readFileSync(new URL('../../src/analysis/data/sentiment-lexicon.json', import.meta.url), 'utf8')
}
