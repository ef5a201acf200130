import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { scoreBrandsInSentence } from '../../src/analysis/clauses.js'
import { compileBrandMatcher, type BrandTerms } from '../../src/analysis/mentions.js'
import { scoreSentences, textSentiment } from '../../src/analysis/sentiment.js'

const names = [
  'Notion',
  'Asana',
  'Trello',
  'Jira',
  'ClickUp',
  'Shopify',
  'WooCommerce',
  'Bitwarden',
  '1Password',
  'Zoho',
  'HubSpot',
  'Zendesk',
  'Canva',
  'T-Mobile',
  'Verizon',
  'Stripe',
  'Slack',
  'MS Teams',
  'Ben & Jerry’s',
]
const brands: BrandTerms[] = names.map((name) => ({ id: name, name, aliases: [], domain: null }))
const matcher = compileBrandMatcher(brands)

/** Sign of each named brand's sentiment in `text`: 1, -1 or 0. */
function signs(text: string): Record<string, number> {
  const analysis = analyzeResponse({ content: text }, matcher)
  return Object.fromEntries(analysis.mentions.map((m) => [m.brandId, Math.sign(m.sentiment ?? 0)]))
}

describe('brand-scoped sentiment: clauses', () => {
  it('splits at a contrastive conjunction after a comma', () => {
    expect(signs('Notion is great for teams, but Asana is pricey.')).toEqual({ Notion: 1, Asana: -1 })
    expect(signs('Trello is simple and friendly, while Jira can feel overwhelming.')).toEqual({ Trello: 1, Jira: -1 })
  })

  it('splits at a semicolon and at a contrastive word without a comma', () => {
    expect(signs('Notion is excellent; Asana is clunky.')).toEqual({ Notion: 1, Asana: -1 })
    expect(signs('Notion is excellent whereas Asana is clunky.')).toEqual({ Notion: 1, Asana: -1 })
  })

  it('gives a clause without a brand to the brand before it (pronouns), or the one after it', () => {
    expect(signs('Zendesk is powerful, but it is slow and expensive.')).toEqual({ Zendesk: -1 })
    expect(signs('For small teams on a budget, Trello is excellent.')).toEqual({ Trello: 1 })
  })

  it('lets the clause after "but" outweigh the one before it for the same brand', () => {
    expect(signs('Zendesk is powerful but expensive.')).toEqual({ Zendesk: -1 })
  })

  it('lets names listed before a statement share it, and leaves a neutral list neutral', () => {
    expect(signs('Notion, Asana and Trello are all excellent.')).toEqual({ Notion: 1, Asana: 1, Trello: 1 })
    expect(signs('Tools in this space include Notion, Asana and Trello.')).toEqual({ Notion: 0, Asana: 0, Trello: 0 })
  })

  it('does not split inside a brand name that contains punctuation', () => {
    expect(signs('T-Mobile is great, but Verizon is expensive.')).toEqual({ 'T-Mobile': 1, Verizon: -1 })
    expect(signs('Ben & Jerry’s is wonderful, but Shopify is clunky.')).toEqual({ 'Ben & Jerry’s': 1, Shopify: -1 })
  })

  it('scores a markdown bullet "name: verdict" for the name', () => {
    expect(signs('- **ClickUp**: feature-rich, but buggy and overwhelming')).toEqual({ ClickUp: -1 })
  })
})

describe('brand-scoped sentiment: comparisons', () => {
  it('gives the brand after "than" the opposite of the comparison', () => {
    expect(signs('Trello is easier than Jira for small teams.')).toEqual({ Trello: 1, Jira: -1 })
    expect(signs('Shopify is more expensive than WooCommerce.')).toEqual({ Shopify: -1, WooCommerce: 1 })
  })

  it('handles a leading "unlike" / "compared with"', () => {
    expect(signs('Unlike Jira, Trello is simple to set up.')).toEqual({ Jira: -1, Trello: 1 })
    expect(signs('Compared with Zendesk, HubSpot is far easier to adopt.')).toEqual({ Zendesk: -1, HubSpot: 1 })
  })

  it('keeps what is said directly about the compared brand', () => {
    expect(signs('Asana is more reliable than ClickUp, which has frequent bugs.')).toEqual({ Asana: 1, ClickUp: -1 })
    expect(signs("Zoho is cheap, but its support is slow and unhelpful, unlike HubSpot's excellent support team.")).toEqual({
      Zoho: -1,
      HubSpot: 1,
    })
  })

  it('returns to the main brand after the compared one', () => {
    expect(signs('Bitwarden is cheaper than 1Password and just as secure.').Bitwarden).toBe(1)
  })

  it('treats "over" as a comparison only before a brand name', () => {
    expect(signs('Stripe works in over 40 countries and is excellent.')).toEqual({ Stripe: 1 })
    expect(signs('Pick Slack over MS Teams: it is faster and friendlier.').Slack).toBe(1)
  })
})

describe('sentiment words and negation scope', () => {
  it('ends a negation at a contrastive conjunction', () => {
    expect(signs('Notion is not cheap but Asana is great.').Asana).toBe(1)
    expect(textSentiment('It is not good.')).toBeLessThan(0)
    expect(signs('Trello isn’t powerful enough, but Notion is excellent.')).toEqual({ Trello: -1, Notion: 1 })
  })

  it('scores product-review words wink leaves neutral, and "too <word>" as a complaint', () => {
    expect(signs('Asana is pricey and clunky.')).toEqual({ Asana: -1 })
    expect(signs('Canva is too basic for professional designers.')).toEqual({ Canva: -1 })
    expect(signs('Stripe supports 40 currencies.')).toEqual({ Stripe: 0 })
  })
})

describe('scoreBrandsInSentence', () => {
  it('gives every brand the sentence score when the sentence has no token data', () => {
    const scores = scoreBrandsInSentence({ start: 0, end: 10, text: '', sentiment: 0.5 }, [
      { brandId: 'a', start: 0, end: 1 },
      { brandId: 'b', start: 3, end: 4 },
    ])
    expect([...scores]).toEqual([
      ['a', 0.5],
      ['b', 0.5],
    ])
  })

  it('gives a single-brand sentence without comparisons the sentence score', () => {
    const text = 'Notion is excellent and I love it, although setup took a while.'
    const [sentence] = scoreSentences(text)
    const scores = scoreBrandsInSentence(sentence, [{ brandId: 'n', start: 0, end: 6 }])
    expect(scores.get('n')).toBeCloseTo(sentence.sentiment, 12)
  })
})
