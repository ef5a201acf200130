// Item labels inside a line ("Name: blurb"), the shape of answers whose line breaks were lost
// (Google AI Mode in AI Product Bench) and of markdown "**Name**: blurb" bullets.
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { inlineItems, isGuideTitle, isRankTitle, layoutOf } from '../../src/analysis/answer-structure.js'
import { scoreBrandsInSentence } from '../../src/analysis/clauses.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { scoreSentences } from '../../src/analysis/sentiment.js'
import { LEXICON } from '../../src/analysis/sentiment-lexicon.js'

const brands: BrandTerms[] = ['Notion', 'Asana', 'Trello'].map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)
const sentiments = (content: string) => Object.fromEntries(analyzeResponse({ content }, matcher).mentions.map((m) => [m.brandId, m.sentiment]))

describe('inline items: a label naming a product owns the blurb after its colon', () => {
  it('reads the blurb as said of the labelled product, whatever the blurb names as its subject', () => {
    const content = 'Notion 13R:This phone boasts a large, vibrant 120Hz OLED display, a powerful processor.'
    const [sentence] = scoreSentences(content)
    // The clause rules give "This tool …" to its own subject: the label's product got nothing.
    expect(scoreBrandsInSentence(sentence, matcher.match(content, [])).get('Notion')).toBe(0)
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
    // A brand named in the blurb is judged by the clause rules, as before.
    expect(sentiments('Battery Life: Asana is clunky and slow.').Asana).toBeLessThan(-0.05)
  })

  it('finds items after titles and prices, and not in a sentence whose label has a verb', () => {
    const [withTitle] = scoreSentences('Top Picks:\u00a0Notion Pro: These are excellent.')
    const items = inlineItems(withTitle)!
    expect(items.map((i) => withTitle.text.slice(i.label[0], i.label[1]))).toEqual(['Notion Pro'])
    expect(items.map((i) => withTitle.text.slice(i.blurb[0], i.blurb[1]))).toEqual([' These are excellent.'])
    // A card run into a title is not a label; the item after it is.
    const [card] = scoreSentences('Asana Boards$9.99$12.994.6(3k+)Budget Options:\u00a0Trello Free: A delightful start.')
    expect(inlineItems(card)!.map((i) => card.text.slice(i.label[0], i.label[1]))).toEqual(['Trello Free'])
    // "So are cooked plates:" opens the sentence's own list; "https:" and "10:30" are no labels.
    for (const text of ['So are cooked plates: the beef melts and the scallops are great.', 'See [Notion](https://notion.so) at 10:30 today.'])
      expect(inlineItems(scoreSentences(text)[0]) ?? [], text).toEqual([])
    expect(inlineItems(scoreSentences('No colon here.')[0])).toBeNull()
  })

  it("measures a linked label by the name the reader sees, not the link's long address", () => {
    const url = 'https://shop.example.com/products/notion-pro-workspace-plan-annual-subscription?variant=49336552292676&utm_source=chatgpt.com'
    const content = `* **[Notion Pro Workspace](${url})**: For teams, this workspace offers a compact plan with robust performance.`
    const [sentence] = scoreSentences(content)
    expect(inlineItems(sentence)!.map((i) => content.slice(i.label[0], i.label[1]))).toEqual([`[Notion Pro Workspace](${url})**`])
    // The blurb's subject is "this workspace": without the label, Notion got nothing.
    expect(sentiments(content).Notion).toBeGreaterThan(0.05)
    // A label whose visible text is itself too long stays no label.
    const [long] = scoreSentences(`* **[${'Notion '.repeat(14)}](${url})**: robust.`)
    expect(inlineItems(long)).toEqual([])
  })

  it('gives the next sentences of the line to the item, up to the next item or a shopping card', () => {
    const praised = 'Top Picks:\u00a0Notion Pro: A solid pick.It is excellent and delightful. Asana Max: A solid pick.'
    const criticised = 'Top Picks:\u00a0Notion Pro: A solid pick.It is clunky, slow and awful. Asana Max: A solid pick.'
    expect(sentiments(praised).Notion).toBeGreaterThan(sentiments(criticised).Notion as number)
    // The next item's sentences are its own.
    expect(sentiments(criticised).Asana).toBe(sentiments(praised).Asana)
    const sentences = scoreSentences(praised)
    const layout = layoutOf(praised, sentences)
    expect(layout.map((l) => l.itemLead)).toEqual([null, 0, null])
    // A shopping card ends the item: the text after it is not the item's.
    const carded = scoreSentences('Notion Pro: A solid pick. Notion Pro$10.00(3k+)It is clunky, slow and awful.')
    expect(layoutOf(carded.map((s) => s.text).join(' '), carded).every((l) => l.itemLead === null)).toBe(true)
  })

  it("passes a field item's continuation to the heading above when the field names no brand", () => {
    const content = ['### **Notion**', '* **Why it’s great**: The most popular tool. Excellent search, delightful editor.'].join('\n')
    const neutral = ['### **Notion**', '* **Why it’s great**: The most popular tool. Search, editor.'].join('\n')
    expect(sentiments(content).Notion).toBeGreaterThan(sentiments(neutral).Notion as number)
  })
})

describe('buying guides: brands named as examples of a criterion', () => {
  it('reads a brand named only in a "Things to Consider" section as neutral, and leaves other brands their picks', () => {
    const content =
      'Top Picks:\u00a0Notion Pro: A solid pick with a delightful editor.Asana Boards$9.99(3k+)Things to Consider When Choosing:\u00a0Battery Life: Trello and Notion phones offer excellent, superb battery life.'
    const s = sentiments(content)
    // Trello is only an example of a criterion there; its words are not a recommendation.
    expect(s.Trello).toBe(0)
    // Notion's pick is not diluted (nor raised) by its example in the guide.
    expect(s.Notion).toBe(sentiments('Top Picks:\u00a0Notion Pro: A solid pick with a delightful editor.').Notion)
    // The same words outside a guide are praise.
    expect(sentiments('Battery Life: Trello and Notion phones offer excellent, superb battery life.').Trello).toBeGreaterThan(0.05)
  })

  it('closes the guide at the next title that is not one, and tells guide titles from listings', () => {
    const content = 'Factors to Consider:\u00a0Price: Trello is excellent for small teams.Top Picks:\u00a0Trello Pro: Excellent and delightful.'
    expect(sentiments(content).Trello).toBeGreaterThan(0.05)
    for (const title of ['Things to Consider When Choosing', 'Key Factors', 'Tips', 'What to look for']) expect(isGuideTitle(title), title).toBe(true)
    for (const title of ['Other Options to Consider', 'Top Picks', 'Best for Gaming']) expect(isGuideTitle(title), title).toBe(false)
  })
})

describe('ranked picks and shopping cards', () => {
  it('reads a product under a rank title, or named by a rank label, as praised at least', () => {
    // "These are waterproof and light" says nothing good or bad in words.
    const plain = sentiments('Notion Pro: These are waterproof and light.').Notion
    expect(plain).toBe(0)
    expect(sentiments('Top Picks:\u00a0Notion Pro: These are waterproof and light.').Notion).toBeGreaterThanOrEqual(LEXICON.blocks.prosScore)
    expect(sentiments('**Best Overall:** Notion Pro – waterproof and light.').Notion).toBeGreaterThanOrEqual(LEXICON.blocks.prosScore)
    // A listing or a guide is no rank: "Other Options:" and "Things to Consider:" do not praise.
    expect(sentiments('Other Options:\u00a0Notion Pro: These are waterproof and light.').Notion).toBe(0)
    for (const title of ['Top Picks', 'Best Overall', 'Best for Gaming', 'Budget Pick', '**Our Recommendations**']) expect(isRankTitle(title), title).toBe(true)
    for (const title of ['Other Great Picks', 'Tips for picking', 'Battery Life', 'Topics']) expect(isRankTitle(title), title).toBe(false)
  })

  it('reads a rank title standing on its own line as ranking the product heading above it, or the items of its section', () => {
    const plain = ['### [Notion Pro]()', '', '*$10.00*', '', '* **Plan:** Team workspace, 20 seats'].join('\n')
    expect(sentiments(plain).Notion).toBe(0)
    // Under the product's heading: "#### Top Pick" ranks Notion, not the product after it.
    const under = ['### [Notion Pro]()', '', '#### Top Pick', '', '*$10.00*', '', '### [Asana Max]()', '', '*$12.00*'].join('\n')
    expect(sentiments(under).Notion).toBeGreaterThanOrEqual(LEXICON.blocks.prosScore)
    expect(sentiments(under).Asana).toBe(0)
    // Above a section: its numbered leads are picks, up to the next title at its level.
    const section = [
      '### 🔝 **Top Workspaces (2025)**',
      '',
      '#### 1. **Notion Pro**',
      '',
      '* **Plan:** Team workspace, 20 seats',
      '',
      '### Pricing',
      '',
      '#### 2. **Asana Max**',
    ].join('\n')
    expect(sentiments(section).Notion).toBeGreaterThanOrEqual(LEXICON.blocks.prosScore)
    expect(sentiments(section).Asana).toBe(0)
    // The title ranks, the line judges: a pick its own line finds fault with keeps the fault.
    expect(sentiments(['## Best workspaces', '', '1. Notion is clunky, slow and awful.'].join('\n')).Notion).toBeLessThan(-0.05)
    // An "other options" section closes the ranked section: its items are no picks.
    expect(sentiments(['### 🔝 **Top Workspaces**', '', '### Other options', '', '#### **Asana Max**'].join('\n')).Asana).toBe(0)
  })

  it('does not let a shopping card dilute the product item beside it, and reads a card alone as neutral', () => {
    const item = 'Notion Pro: An excellent, delightful pick with a clunky export.'
    const withCard = `${item} Notion Pro Workspace$10.00$12.994.6(3k+)Asana Boards$5.00(1k+)`
    expect(sentiments(withCard).Notion).toBe(sentiments(item).Notion)
    expect(sentiments(withCard).Asana).toBe(0)
  })
})
