// The single analysis entry point ingestion calls for each stored AI response.
import { extractCitations, type Citation, type CitationInput } from './citations.js'
import { BrandMatcher, compileBrandMatcher, mentionsFromMatches, type BrandTerms, type MentionMatch } from './mentions.js'
import { isListedAt, isNamedInPassing, isShoppingCard, layoutOf, sentenceFrom, type InlineItem, type SentenceLayout } from './answer-structure.js'
import { withoutProductNames } from './product-names.js'
import { namesSomething, scoreBrandsInSentence, scoreImplicitSubject } from './clauses.js'
import { LEXICON } from './sentiment-lexicon.js'
import { meanSentiment, scoreSentences, type ScoredSentence } from './sentiment.js'
import { findUrlSpans } from './urls.js'

export interface ResponseAnalysis {
  sentiment: number | null
  mentions: { brandId: string; occurrences: number; position: number; sentiment: number | null }[]
  citations: Citation[]
}

/**
 * Mentions (with positions and per-brand sentiment), response sentiment and citations of
 * one response. The text is parsed by the NLP model once; URL spans are found once and
 * shared by mention matching and citation extraction.
 */
export function analyzeResponse(input: { content: string; citations?: CitationInput[] | null }, brands: readonly BrandTerms[] | BrandMatcher): ResponseAnalysis {
  const content = typeof input.content === 'string' ? input.content : ''
  const urlSpans = findUrlSpans(content)
  const matcher = brands instanceof BrandMatcher ? brands : compileBrandMatcher(brands)
  const blank = !/\S/u.test(content)
  const sentences = blank ? [] : scoreSentences(content)

  const matches = matcher.match(content, urlSpans)
  // No brand named: no brand sentiment to find, so neither the layout nor any structure.
  const sentiments = blank || matches.length === 0 ? null : brandSentiments(matches, sentences, layoutOf(content, sentences))
  const mentions = mentionsFromMatches(matches).map((m) => ({
    brandId: m.brandId,
    occurrences: m.occurrences,
    position: m.position,
    sentiment: sentiments === null ? null : (sentiments.get(m.brandId) ?? null),
  }))

  return {
    sentiment: blank ? null : meanSentiment(sentences),
    mentions,
    citations: extractCitations(content, input.citations ?? [], urlSpans),
  }
}

/**
 * Each brand's sentiment: the mean, over the sentences that name it (each sentence once
 * however often), of what the sentence says about that brand (scoreBrandsInSentence:
 * its own clauses, comparisons, negation scope), and — with the answer's `layout` — over
 * the sentences in blocks it leads (a heading, numbered item or bold lead naming it owns
 * the lines under it) that say something about their implicit subject. Items under
 * "Pros:"/"Cons:" count as praise/complaint at least; spec listings are neutral. A brand
 * with no sentence holding a match is absent (cannot happen for matched words).
 * `matches` sorted by start.
 */
export function brandSentiments(matches: readonly MentionMatch[], sentences: readonly ScoredSentence[], layout?: readonly SentenceLayout[]): Map<string, number> {
  const tallies = new Map<string, { sum: number; count: number }>()
  const add = (brandId: string, score: number) => {
    const tally = tallies.get(brandId)
    if (tally) {
      tally.sum += score
      tally.count++
    } else tallies.set(brandId, { sum: score, count: 1 })
  }
  const naming = new Map<number, boolean>()
  const namesAny = (k: number) => {
    let yes = naming.get(k)
    if (yes === undefined) naming.set(k, (yes = namesSomething(sentences[k])))
    return yes
  }
  /** the innermost lead around a sentence that names something (its item's product), if any */
  const ownerOf = (place: SentenceLayout): number | undefined => {
    for (let i = place.leads.length - 1; i >= 0; i--) if (namesAny(place.leads[i])) return place.leads[i]
    return undefined
  }
  /** brands named in each sentence (only those with a match) */
  const named: (Map<string, number> | undefined)[] = new Array(sentences.length)
  /** the owner is an item of its own (not sentence k itself) that does not name the brand */
  const isOtherItem = (owner: number | undefined, k: number, brandId: string) => owner !== undefined && owner !== k && !named[owner]?.has(brandId)
  /** brands named only as examples in a buying guide's section or in shopping cards (neutral, unless named elsewhere too) */
  const examples = new Set<string>()
  /** the matches in each sentence that names a brand */
  const matchesIn: (MentionMatch[] | undefined)[] = new Array(sentences.length)
  /** the configured brands named in the label of the last item of sentence `lead`, or null when none */
  const ownersOfItem = (lead: number | null): Set<string> | null => {
    if (lead === null || !layout) return null
    const items = layout[lead].items
    const inLead = matchesIn[lead]
    if (items === null || inLead === undefined) return null
    const [from, to] = items[items.length - 1].label
    let owners: Set<string> | null = null
    for (const x of inLead) if (x.start >= from && x.end <= to) (owners ??= new Set()).add(x.brandId)
    return owners
  }
  let m = 0
  for (let k = 0; k < sentences.length; k++) {
    const { start, end } = sentences[k]
    while (m < matches.length && matches[m].end <= start) m++
    // A match may straddle a sentence boundary (an abbreviation's dot); every sentence it
    // overlaps mentions the brand.
    let j = m
    const inSentence: MentionMatch[] = []
    while (j < matches.length && matches[j].start < end) inSentence.push(matches[j++])
    if (inSentence.length === 0) continue
    // (the words of a product's name after the brand judge nothing: product-names.ts)
    const sentence = withoutProductNames(sentences[k], inSentence)
    // After a leading field label ("**Why It's Great:** The Beats Solo Pro offers …") the
    // brands named in its text are scored on that text alone (see SentenceLayout.field).
    const field = layout?.[k]?.field ?? null
    const rest = field !== null && inSentence.every((x) => x.start >= field) ? sentenceFrom(sentence, field) : null
    const scores = scoreBrandsInSentence(rest ?? sentence, inSentence)
    named[k] = scores
    matchesIn[k] = inSentence
    const place = layout?.[k]
    if (!place) {
      for (const [brandId, score] of scores) add(brandId, score)
      continue
    }
    // The item the line sits under, when it is another product's: a brand the line names
    // only in passing ("works with Google Assistant") is not what it judges.
    for (const [brandId, score] of scores) {
      // (The owner is looked up only for a name in passing: most names are not.)
      const passing = place.leads.length > 0 && everyMatchOf(inSentence, brandId, (m) => isNamedInPassing(sentence, m.start)) && isOtherItem(ownerOf(place), k, brandId)
      // Named in passing or only listed: neutral, whatever list it sits in.
      // Named only as an example in a buying guide: it counts only if nothing else names it.
      if (place.guide !== null && everyMatchOf(inSentence, brandId, (m) => within(place.guide, m.start))) examples.add(brandId)
      // Named only in a shopping card (the engine's product box, not the answer's words): the
      // same, so that a card beside the product's own item does not dilute what the item says.
      else if (everyMatchOf(inSentence, brandId, (m) => isShoppingCard(sentence.text, m.end - sentence.start))) examples.add(brandId)
      else if (passing || everyMatchOf(inSentence, brandId, (m) => within(place.guide, m.start) || isListedAt(sentence, place, m.start, m.end))) add(brandId, 0)
      else {
        // Named only in an item's label ("OnePlus 13R:This phone boasts a vibrant display"):
        // the blurb after it is what the answer says of it, whatever the blurb's own subject.
        const item = place.items === null ? undefined : labelOf(place.items, inSentence, brandId)
        let said = item === undefined ? score : (blurbScore(sentence, item) ?? score)
        // One of the answer's ranked picks ("Top Picks:\u00a0Notion Pro: …", "**Best Overall:** Notion"): praise at least,
        // unless the line itself finds fault with it ("## Best tools" / "3. Asana is clunky and slow": the title ranks, the line judges).
        if (said >= 0 && place.picks !== null && inSentence.some((m) => m.brandId === brandId && within(place.picks, m.start))) said = Math.max(said, LEXICON.blocks.prosScore)
        // A Pros/Cons list is its item's: a brand it names in comparison ("Cons: more
        // expensive than the ASUS ProArt" under a Dell item) is judged by the clause, not weighed.
        const othersList = place.weight !== null && (place.itemLead !== null ? !(ownersOfItem(place.itemLead)?.has(brandId) ?? false) : isOtherItem(ownerOf(place), k, brandId))
        add(brandId, othersList ? (place.spec ? 0 : said) : weigh(place, place.spec ? 0 : said))
      }
    }
  }
  if (layout) {
    for (let k = 0; k < sentences.length; k++) {
      const place = layout[k]
      if (place.spec || place.label || within(place.guide, sentences[k].start)) continue
      // A sentence continuing an item in its line belongs to the brands its label names.
      // (An item whose label names no configured brand — "**Why it's great**: …" — passes
      // its sentences on to the block it sits in.)
      const itemOwners = ownersOfItem(place.itemLead)
      if (itemOwners !== null) {
        const implicit = scoreImplicitSubject(sentences[k])
        if (implicit === null && place.weight === null) continue
        for (const brandId of itemOwners) if (!named[k]?.has(brandId)) add(brandId, weigh(place, implicit ?? 0))
        continue
      }
      if (place.leads.length === 0) continue
      // Only a lead that names a configured brand can hand the sentence to one.
      if (!place.leads.some((i) => named[i] !== undefined)) continue
      // The innermost lead that names anything owns the sentence; its configured brands
      // get it (none if it names only other things).
      let lead = -1
      for (let i = place.leads.length - 1; i >= 0 && lead < 0; i--) if (namesAny(place.leads[i])) lead = place.leads[i]
      const owners = lead >= 0 ? named[lead] : undefined
      if (!owners) continue
      const own = named[k]
      const implicit = scoreImplicitSubject(sentences[k])
      if (implicit === null && place.weight === null) continue
      for (const brandId of owners.keys()) if (!own?.has(brandId)) add(brandId, weigh(place, implicit ?? 0))
    }
  }
  const out = new Map<string, number>()
  for (const brandId of examples) out.set(brandId, 0)
  for (const [brandId, { sum, count }] of tallies) out.set(brandId, sum / count)
  return out
}

/** Whether every match of the brand in the sentence passes `test` (only listed there, only named in passing). */
function everyMatchOf(inSentence: readonly MentionMatch[], brandId: string, test: (match: MentionMatch) => boolean): boolean {
  for (const m of inSentence) if (m.brandId === brandId && !test(m)) return false
  return true
}

/** Whether `at` lies in one of the spans. */
function within(spans: readonly [number, number][] | null, at: number): boolean {
  if (spans !== null) for (const [from, to] of spans) if (at >= from && at < to) return true
  return false
}

/** The item whose label holds every match of the brand in the sentence (and none in a blurb), if any. */
function labelOf(items: readonly InlineItem[], inSentence: readonly MentionMatch[], brandId: string): InlineItem | undefined {
  let found: InlineItem | undefined
  for (const m of inSentence) {
    if (m.brandId !== brandId) continue
    const item = items.find((i) => m.start >= i.label[0] && m.end <= i.label[1])
    if (item === undefined || (found !== undefined && found !== item)) return undefined
    found = item
  }
  return found
}

/**
 * What an item's blurb says of the item: its clauses about an implicit subject, else the
 * mean of its scored words ("This phone boasts a vibrant display": the phone is the item).
 * Null when nothing in it is scored.
 */
function blurbScore(sentence: ScoredSentence, item: InlineItem): number | null {
  const tokens = sentence.tokens
  if (!tokens) return null
  let from = tokens.from
  while (from <= tokens.to && tokens.offset + tokens.start[from] < item.blurb[0]) from++
  let to = from - 1
  let sum = 0
  let scored = 0
  while (to + 1 <= tokens.to && tokens.offset + tokens.start[to + 1] < item.blurb[1]) {
    to++
    if (tokens.score[to] !== 0) {
      sum += tokens.score[to]
      scored++
    }
  }
  if (scored === 0) return null
  const blurb: ScoredSentence = {
    start: item.blurb[0],
    end: item.blurb[1],
    text: sentence.text.slice(item.blurb[0] - sentence.start, item.blurb[1] - sentence.start),
    sentiment: sum / scored,
    tokens: { ...tokens, from, to },
  }
  return scoreImplicitSubject(blurb) ?? blurb.sentiment
}

/** A score inside a "Pros:"/"Cons:" list is praise/complaint at least. */
function weigh(place: SentenceLayout, score: number): number {
  if (place.weight === 'pros') return Math.max(score, LEXICON.blocks.prosScore)
  if (place.weight === 'cons') return Math.min(score, LEXICON.blocks.consScore)
  return score
}

/** One brand's sentiment over `sentences` (its matches only; see brandSentiments). Null if no sentence holds a match. */
export function brandSentiment(matches: readonly MentionMatch[], sentences: readonly ScoredSentence[]): number | null {
  if (matches.length === 0) return null
  return brandSentiments(matches, sentences).get(matches[0].brandId) ?? null
}
