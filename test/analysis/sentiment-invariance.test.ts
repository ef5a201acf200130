// A brand's sentiment is what the text says about it, so it must not change when another
// brand is added to or removed from the configuration (docs/analysis.md). Checked on
// generated sentences and answers, and on the demo data set's answers.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { generateDemoDataset } from '../../src/demo/generate-demo.js'

// Names that never overlap one another (an overlapping term could take the other brand's
// match, which changes what is mentioned, not what is said).
const NAMES = ['Notion', 'Asana', 'Trello', 'Zorvex', 'Quillo', 'Jira', 'Monday', 'Basecamp', 'Wrike', 'Linear', 'Height', 'Plane']
const ADJECTIVES = ['great', 'excellent', 'pricey', 'slow', 'clunky', 'intuitive', 'reliable', 'buggy', 'cheap', 'fine', 'simple', 'awful']
const NOUNS = ['templates', 'pricing', 'support team', 'mobile app', 'timeline view', 'search']

const brand = fc.constantFrom(...NAMES)
const adjective = fc.constantFrom(...ADJECTIVES)
const noun = fc.constantFrom(...NOUNS)

// Clause shapes the rules distinguish: contrast, concession, comparison, relative
// clauses, negation, possessives, lists, pronouns, comparative verbs.
const clause = fc.oneof(
  fc.tuple(brand, adjective).map(([b, a]) => `${b} is ${a}`),
  fc.tuple(brand, adjective).map(([b, a]) => `${b} is not ${a}`),
  fc.tuple(brand, noun, adjective).map(([b, n, a]) => `${b}'s ${n} is ${a}`),
  fc.tuple(noun, adjective).map(([n, a]) => `its ${n} is ${a}`),
  fc.tuple(noun, adjective).map(([n, a]) => `the ${n} is ${a}`),
  fc.tuple(brand, adjective, brand).map(([b, a, c]) => `${b} is more ${a} than ${c}`),
  fc.tuple(brand, brand).map(([b, c]) => `${b} beats ${c}`),
  fc.tuple(brand, brand, adjective).map(([b, c, a]) => `unlike ${b}, ${c} is ${a}`),
  fc.tuple(brand, adjective).map(([b, a]) => `${b}, which is ${a},`),
  fc.tuple(brand, brand, adjective).map(([b, c, a]) => `${b} and ${c} are ${a}`),
  fc.tuple(brand, adjective).map(([b, a]) => `I found ${b} ${a}`),
  adjective.map((a) => `it is ${a}`),
)
const joiner = fc.constantFrom(', but ', '; ', ' although ', ' while ', ' whereas ', ', though ', ' and ', '. ', ', ')
const sentence = fc.tuple(clause, fc.array(fc.tuple(joiner, clause), { maxLength: 3 })).map(([first, rest]) => `${first}${rest.map(([j, c]) => j + c).join('')}.`)
// Answers with the layout rules in play: headings, numbered items, bold leads, Pros/Cons.
const block = fc.oneof(
  sentence,
  fc.tuple(brand, fc.array(sentence, { maxLength: 2 })).map(([b, body]) => `### ${b}\n${body.join('\n')}`),
  fc.tuple(fc.nat(9), brand, fc.array(sentence, { maxLength: 2 })).map(([n, b, body]) => `${n + 1}. **${b}**\n${body.map((s) => `   - ${s}`).join('\n')}`),
  fc.tuple(brand, adjective).map(([b, a]) => `- **${b}** – ${a} for small teams`),
  fc.tuple(brand, noun, noun).map(([b, n, m]) => `**${b}**\n**Pros:**\n- ${n}\n**Cons:**\n- ${m}`),
)
const answer = fc.array(block, { minLength: 1, maxLength: 4 }).map((blocks) => blocks.join('\n\n'))

const terms = (name: string): BrandTerms => ({ id: name, name, aliases: [], domain: null })

function sentimentOf(content: string, target: string, configured: readonly string[]): number | null | undefined {
  const brands = [...new Set([target, ...configured])].map(terms)
  return analyzeResponse({ content }, compileBrandMatcher(brands)).mentions.find((m) => m.brandId === target)?.sentiment
}

describe('brand sentiment does not depend on the other configured brands', () => {
  it('holds on generated sentences and answers (property)', () => {
    fc.assert(
      fc.property(answer, fc.subarray(NAMES), fc.subarray(NAMES), (content, some, others) => {
        for (const target of NAMES) {
          if (!content.includes(target)) continue
          const alone = sentimentOf(content, target, [])
          expect(sentimentOf(content, target, some)).toBe(alone)
          expect(sentimentOf(content, target, others)).toBe(alone)
          expect(sentimentOf(content, target, NAMES)).toBe(alone)
        }
      }),
      { numRuns: 150 },
    )
  })

  it('holds on the demo answers, with and without the tools the demo does not track', () => {
    const dataset = generateDemoDataset({ today: '2026-06-30', days: 14 })
    const brands: BrandTerms[] = dataset.brands.map((b) => ({ id: b.key, name: b.name, aliases: b.aliases, domain: b.domain }))
    // The demo's untracked tools, configured as brands for the "added" case.
    const untracked: BrandTerms[] = ['Cadencia', 'Trackory', 'Plotwise', 'Orbitask'].map((name) => ({ id: name, name, aliases: [], domain: null }))
    const all = compileBrandMatcher(brands)
    const withUntracked = compileBrandMatcher([...brands, ...untracked])
    const alone = new Map(brands.map((b) => [b.id, compileBrandMatcher([b])]))
    let compared = 0
    for (const response of dataset.responses.slice(0, 250)) {
      const full = analyzeResponse({ content: response.content }, all)
      const extended = new Map(analyzeResponse({ content: response.content }, withUntracked).mentions.map((m) => [m.brandId, m.sentiment]))
      for (const mention of full.mentions) {
        const single = analyzeResponse({ content: response.content }, alone.get(mention.brandId)!).mentions[0]
        expect(single.sentiment).toBe(mention.sentiment)
        expect(extended.get(mention.brandId)).toBe(mention.sentiment)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(200)
  })
})
