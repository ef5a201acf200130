import { describe, expect, it } from 'vitest'
import { analyzeResponse } from '../../src/analysis/analyze-response.js'
import { describeStructure, scoreBrandsInSentence } from '../../src/analysis/clauses.js'
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

  it('gives a single-brand sentence whose every clause is about the brand the sentence score', () => {
    const text = 'Notion is excellent and I love it, although setup took a while.'
    const [sentence] = scoreSentences(text)
    const scores = scoreBrandsInSentence(sentence, [{ brandId: 'n', start: 0, end: 6 }])
    expect(scores.get('n')).toBeCloseTo(sentence.sentiment, 12)
  })
})

/** Sign of one target's sentiment when it alone is configured (as a customer has it: the other names are not brands). */
function alone(text: string, target: string): number {
  const analysis = analyzeResponse({ content: text }, compileBrandMatcher([{ id: target, name: target, aliases: [], domain: null }]))
  return Math.sign(analysis.mentions[0]?.sentiment ?? NaN)
}

describe('attribution from the sentence structure, whatever else is configured', () => {
  it('keeps a clause about another name away from the brand (issue 30)', () => {
    const text = 'Notion is great for teams, but Asana is pricey.'
    expect(alone(text, 'Asana')).toBe(-1)
    expect(alone(text, 'Notion')).toBe(1)
  })

  it('treats any noun phrase as a subject of its own', () => {
    expect(alone('The food was great but the service was awful.', 'service')).toBe(-1)
    expect(alone('The food was great but the service was awful.', 'food')).toBe(1)
    expect(alone('We came across this restaurant by accident on our way home and thoroughly enjoyed our meal.', 'meal')).toBe(1)
  })

  it('does not praise a noun phrase for a verdict on another one', () => {
    // The screen gets "dim" (a domain-lexicon complaint), not the battery's praise; with a
    // word no lexicon scores it gets nothing, unless a contrast opposes it to the praise
    // (sixth round: "but" then implies the complaint "hazy" does not say).
    expect(alone('Great battery life, but the screen is dim.', 'screen')).toBeLessThan(0)
    expect(alone('Great battery life, and the screen is hazy.', 'screen')).toBe(0)
    expect(alone('Great battery life, but the screen is hazy.', 'screen')).toBe(-1)
    expect(alone('Great battery life, but the screen is dim.', 'battery life')).toBe(1)
  })

  it('compares against names that are not configured', () => {
    expect(alone('Trello is easier than Jira for small teams.', 'Jira')).toBe(-1)
    expect(alone('Unlike Jira, Trello is simple to set up.', 'Jira')).toBe(-1)
    expect(alone('Asana beats Trello for big projects.', 'Trello')).toBe(-1)
    expect(alone('Asana beats Trello for big projects.', 'Asana')).toBe(1)
    expect(alone('Asana lags behind Trello.', 'Trello')).toBe(1)
  })

  it('gives the complement of a copula the words of its common-noun subject', () => {
    // "The best option is X" is praise of X; "the only drawback is X" a complaint.
    expect(signs('The best option for small teams is Notion.')).toEqual({ Notion: 1 })
    expect(signs('The only drawback is Asana, which we use daily.')).toEqual({ Asana: -1 })
    // A name as the subject keeps its own words: "Notion is Asana's rival" says nothing of Asana.
    expect(signs('The excellent Notion is a rival of Asana.')).toEqual({ Notion: 1, Asana: 0 })
  })

  it('reads "not as good as" as falling short of the name after it', () => {
    // wink reads "as good as" as a neutral set phrase and leaves "not as fast as" unnegated.
    expect(signs('Asana is not as good as Notion.')).toEqual({ Asana: -1, Notion: 1 })
    expect(signs('Trello is nowhere near as fast as Jira.')).toEqual({ Trello: -1, Jira: 1 })
    // A plain equative praises its subject and ranks nobody below it.
    expect(signs('Asana is as good as Notion.')).toEqual({ Asana: 1, Notion: 0 })
  })

  it('gives a relative clause to the phrase it describes', () => {
    expect(alone('Asana is more reliable than ClickUp, which has frequent bugs.', 'ClickUp')).toBe(-1)
    expect(alone('Kalotor is excellent for teams that hate clutter.', 'Kalotor')).toBe(1)
  })

  it('reads "its …" as an aspect of the current subject, "our …" as not', () => {
    expect(alone("Intercom's chat is excellent, but its pricing is confusing.", 'Intercom')).toBe(-1)
    expect(alone('The service was rather slow but our waiter was very pleasant.', 'service')).toBe(-1)
  })

  it('ends negation at the clause and after a few words', () => {
    expect(alone('Asana is not cheap, but Trello is excellent.', 'Trello')).toBe(1)
    expect(alone('Asana is not cheap, but Trello is excellent.', 'Asana')).toBe(-1)
    expect(textSentiment('They do not have empathy for their clients, and the procedures are very slow.')).toBeLessThan(0)
  })

  it('leaves conditions and the brand name itself out', () => {
    expect(alone('Zendesk is easy to reach if something goes wrong.', 'Zendesk')).toBe(1)
    expect(alone('Best Buy sells laptops.', 'Best Buy')).toBe(0)
  })

  it('gives a verdict object of the writer to what its preposition attaches', () => {
    // "no complaints about X", "problems with X", "a great time at X": the object is the verdict, X what it is about.
    expect(alone('I have no complaints about my stay here.', 'stay')).toBe(1)
    expect(alone('We had problems with the checkout, but the staff fixed it.', 'checkout')).toBe(-1)
    expect(alone('We had a great time at Luigi.', 'Luigi')).toBe(1)
    // An object that is no verdict leaves the phrase after it alone.
    expect(alone('I ordered the pasta with clams and it was great.', 'clams')).toBe(0)
  })

  it('gives a phrase coordinated with a prepositional phrase the same part', () => {
    const [sentence] = scoreSentences('I have no complaints about the wait or the service.')
    expect(describeStructure(sentence)).toBe('[main| (i):sP have (no complaints):o about (the wait):b or (the service):b .]')
    expect(alone('I have no complaints about the wait or the service.', 'service')).toBe(1)
    // Followed by a verb, it starts a statement of its own.
    expect(alone('My phone has a week of use and the battery is already failing.', 'battery')).toBe(-1)
  })

  it("reads an infinitive of purpose after the writer's verb as the purpose, not what the clause is about", () => {
    // "to insure my vehicle" says why; the insurer is where the writer went, and "they" continue it.
    expect(alone('I went to the insurer to insure my vehicle, they gave me excellent attention.', 'insurer')).toBe(1)
    expect(alone('I went to the insurer to insure my vehicle, they gave me excellent attention.', 'vehicle')).toBe(0)
    // "decided to give it a try": the verb's complement, not a purpose.
    expect(alone('When we looked at the menu we decided to give it a try.', 'menu')).toBe(0)
  })

  it('gives a list continuing the objects of a statement, or its examples, that statement', () => {
    // "drunken chicken and the dumplings" are more of what the writer recommends.
    expect(alone('I recommend the jelly fish, drunken chicken and the soupy dumplings.', 'dumplings')).toBe(1)
    // "particularly the desserts": an example of the food that was very good.
    expect(alone('The service was slow, but the food was very good, particularly the desserts.', 'desserts')).toBe(1)
    // Names merely listed after an object that is not what the praise is about stay neutral.
    expect(alone('Popular options include Notion, Asana and Trello.', 'Trello')).toBe(0)
  })

  it('reads "makes up for" as a comparative verb, and "than" before a verb as no comparison', () => {
    // the subject outweighs the object's shortcoming
    expect(alone('The wait is long, but the food more than makes up for it.', 'food')).toBe(1)
    expect(alone('The food more than makes up for the slow service.', 'service')).toBe(-1)
    // a phrasal verb's words must come in a row
    expect(alone('The food makes us wait.', 'food')).toBe(0)
  })

  it("does not take a length of time for what a writer's clause is about", () => {
    // "5 days" measures the stay; the hotel is what the writer spoke of, and "its pool" is its
    expect(alone('We stayed 5 days in the hotel, and its pool was dirty.', 'hotel')).toBe(-1)
    expect(alone('We stayed 5 days in the hotel, the wonderful food and its wonderful pool.', 'hotel')).toBe(1)
  })

  it('reads an idiom opening a fragment as an adjective of its phrase, not a name', () => {
    expect(alone('Long waiting time.', 'waiting time')).toBe(-1)
  })

  it('gives a target that nothing was attributed to the words of a clause where it is the only thing named', () => {
    expect(alone('Very good phone, and for the price it is very very good.', 'price')).toBe(1)
    expect(alone('Unlike Mailchimp, Klaviyo syncs purchase data natively and works brilliantly with Shopify.', 'Shopify')).toBe(1)
    // not when another phrase in the clause can be what the words are about
    expect(alone('The staff were great with the kids.', 'kids')).toBe(0)
  })

  it('reads a common-noun subject after "I bought this X" as an aspect of X', () => {
    // the demonstrative points at the thing under review: its engine failing is a complaint about it
    expect(alone('I bought this car three months ago, and the engine is failing.', 'car')).toBe(-1)
    // without it, what the writer merely had stays out of the next clause's verdict
    expect(alone('I had a turkey melt, the turkey was fresh.', 'turkey melt')).toBe(0)
  })

  it('gives a leading verdict label to what follows it', () => {
    // "Good:" labels the statement after it, as "Pros:" labels a list.
    expect(alone('Good: continually updating your catalog.', 'catalog')).toBe(1)
    expect(alone('Bad: the app keeps logging me out.', 'app')).toBe(-1)
    // A label that only names a section says nothing.
    expect(alone('Price: the plan costs $10 a month.', 'plan')).toBe(0)
  })

  it('counts the words of a target that is a quality, not a name or a noun', () => {
    // Tracked as written in lower case with no noun in it, "very expensive" is the verdict itself.
    expect(alone('Bad: very expensive compared to other services.', 'very expensive')).toBe(-1)
    expect(alone('Waited an hour for seating and food was awful.', 'awful')).toBe(-1)
    // A noun phrase's adjective says which one it is; a name's words are never its verdict.
    expect(alone('Appetizers include a bountiful calamari plate.', 'bountiful calamari plate')).toBe(0)
    expect(alone('We drove to Best Buy.', 'Best Buy')).toBe(0)
  })

  it('reads a verbless clause whose phrases carry words of their own as a statement, not a bare list', () => {
    // "with very good lining" describes the seats; the clause is no list of names waiting for the next statement.
    expect(alone('What a spectacular car, seats with very good lining, excellent tires.', 'lining')).toBe(1)
    expect(alone('You get a salad, three wedges of bland potatoes, and a slice of pastisio.', 'potatoes')).toBe(-1)
  })

  it('reads the first word after markup or an emoji as capitalised by position, not as a name', () => {
    // "Sharp" opens the line after "✅ *": an adjective here, so the line is about the item it sits under.
    const [sentence] = scoreSentences('✅ *Sharp display at a lower price; great for general office work.*')
    expect(describeStructure(sentence)).toContain('(sharp display):s ')
    const answer = '### 1. **Kalotor 27Q**\n\n✅ *Sharp display at a lower price; great for general office work.*'
    expect(alone(answer, 'Kalotor')).toBe(1)
  })

  it('gives the part after "of" what is said of the subject it belongs to, and a quantifier\'s "of" phrase its place', () => {
    expect(alone('The quality of their pizza is excellent, but the service is slow.', 'pizza')).toBe(1)
    expect(alone('We ordered a lot, and some of the dishes were bland.', 'dishes')).toBe(-1)
    // A measure on the object side is not judged by the predicate.
    expect(alone('The service was slow and took ten minutes to bring a glass of water.', 'water')).toBe(0)
    // "and" before a subject with an "of" part opens a clause of its own.
    expect(alone('We had a long dinner and none of the dishes impressed.', 'long dinner')).toBe(0)
  })

  it('gives a clause without a subject the writer as its subject when the clause before had the writer', () => {
    // "would not recommend …" is the writer's again, about its own object: not the decor's.
    expect(alone('I love the decor but would not recommend the communal tables.', 'decor')).toBe(1)
    expect(alone('I love the decor but would not recommend the communal tables.', 'communal tables')).toBe(-1)
  })

  it('reads "there was X in Y" as about X and where it is, without making them the subject', () => {
    expect(alone('The room was fine, but there was a strange smell in the bathroom.', 'bathroom')).toBe(-1)
    // A pronoun after it still continues the subject before.
    expect(alone('Kalotor is fast; there is an awful wait at launch, but it is the best.', 'launch')).toBe(-1)
  })

  it('finds the structure without knowing the brands', () => {
    // Clauses [kind| …] with noun phrases (…):role+flags — s subject, E a name, S "its …".
    // "Notion" opens the sentence, so the text alone does not make it a name (it might be
    // "Setup"); as a configured brand it is one. wink tags "crashes" a noun here, which
    // changes nothing: the relative clause is the app's.
    const [sentence] = scoreSentences('Notion is great, but its mobile app, which crashes often, is slower than Trello.')
    expect(describeStructure(sentence)).toBe('[main| (notion):s is great] [contrast*| (its mobile app):sS] [relative| (crashes):s often] [main| is slower] [foil| (trello):sE .]')
    expect(alone('Notion is great, but its mobile app, which crashes often, is slower than Trello.', 'Trello')).toBe(1)
  })
})
