// Brand-scoped sentiment: which words of a sentence speak about which brand. AI answers
// compare brands inside one sentence ("Notion is great for teams, but Asana is pricey"),
// so the sentence's mean would give both brands the same, mixed score. The rules below
// split a sentence into clauses and give each brand the sentiment of its own clauses;
// src/analysis/README.md lists them with examples.
import type { MentionMatch } from './mentions.js'
import type { ScoredSentence, SentenceTokens } from './sentiment.js'

/** Punctuation that ends a clause. Commas included: lists of bare names are rejoined below. */
const CLAUSE_PUNCTUATION = new Set([',', ';', ':', '—', '–', '-', '(', ')', '|', '…', '...'])
/** Conjunctions that open a contrasting clause. */
const CONTRAST = new Set(['but', 'however', 'whereas', 'while', 'whilst', 'although', 'though', 'yet', 'except', 'meanwhile'])
/** After these the earlier part of the same brand's statement weighs half, the later 1.5× (VADER's "but" rule). */
const SHIFT = new Set(['but', 'however', 'yet'])
/** Words that introduce the brand a statement is compared against. */
const FOIL = new Set(['than', 'unlike', 'versus', 'vs', 'vs.', 'compared', 'over'])
const NEGATION = new Set(['not', "n't", 'n’t', 'no', 'never', 'neither', 'nor', 'without', 'cannot', 'none', 'nothing', 'hardly', 'barely'])
/** Words that may sit between brand names in a list without making a statement. */
const GLUE = new Set(['and', 'or', 'both', 'either', 'neither', 'nor', 'the', 'a', 'an', '&', 'with', 'to', "'s", '’s', '*', '**', '"', '“', '”', '.', '!', '?', 'also'])
/** A clause opening with these after a compared brand describes that brand ("than X, which…"). */
const RELATIVE = new Set(['which', 'who', 'whose'])

/** Whether a token ends a negation's scope (clause punctuation or a contrast/comparison word). */
export function isScopeBreak(word: string): boolean {
  return CLAUSE_PUNCTUATION.has(word) || CONTRAST.has(word) || FOIL.has(word)
}

export function isNegationCue(word: string): boolean {
  return NEGATION.has(word)
}

type ClauseKind = 'main' | 'foil' | 'resume'

interface Clause {
  kind: ClauseKind
  /** brands named in the clause, in order, once each */
  brands: string[]
  sum: number
  hits: number
  /** words that are neither brand, glue nor punctuation */
  content: number
  first: string
  /** the clause follows "but"/"however"/"yet" */
  shift: boolean
  /** a foil brand followed by a possessive: the rest describes the compared brand */
  possessive: boolean
}

interface Tally {
  sum: number
  hits: number
}

/**
 * Sentiment of each brand named in one sentence, from the words that speak about it.
 * `matches` are the sentence's brand matches (any brand), sorted by start. A sentence
 * without token data (built by hand) gives every brand the sentence's score.
 */
export function scoreBrandsInSentence(sentence: ScoredSentence, matches: readonly MentionMatch[]): Map<string, number> {
  const result = new Map<string, number>()
  const tokens = sentence.tokens
  if (!tokens) {
    for (const m of matches) result.set(m.brandId, sentence.sentiment)
    return result
  }
  const brandOf = tokenBrands(tokens, matches)
  const clauses = splitClauses(tokens, brandOf)

  const tallies = new Map<string, Tally>()
  /** Compared brands wait for the statement they are compared with. */
  const foils: { brands: string[]; main: Clause | null }[] = []
  let owners: string[] = []
  let lastMain: Clause | null = null
  let lastFoil: string[] = []
  let carried: string[] = []
  const leading: Clause[] = []

  for (const clause of clauses) {
    if (clause.kind === 'foil' && clause.brands.length > 0) {
      if (clause.hits > 0 || clause.possessive) addToTallies(tallies, clause.brands, clause)
      else foils.push({ brands: clause.brands, main: lastMain })
      lastFoil = clause.brands
      continue
    }
    if (clause.kind === 'main' && clause.brands.length > 0 && clause.hits === 0 && clause.content <= 1) {
      // "Notion, Asana and Trello are great": names listed before the statement share it.
      carried.push(...clause.brands)
      continue
    }
    const named = [...new Set([...carried, ...clause.brands])]
    carried = []
    if (named.length > 0) {
      owners = named
      lastMain = clause
      addToTallies(tallies, owners, clause)
      for (const early of leading.splice(0)) addToTallies(tallies, owners, early)
      for (const foil of foils) if (foil.main === null) foil.main = clause
      continue
    }
    if (RELATIVE.has(clause.first) && lastFoil.length > 0) addToTallies(tallies, lastFoil, clause)
    else if (owners.length > 0) {
      addToTallies(tallies, owners, clause)
      if (lastMain !== null && clause.kind === 'resume') lastMain = clause
    } else leading.push(clause)
  }
  // Names at the very end with no statement after them are the subject of what came
  // before them, if nothing else was ("For a quiet office, choose Bose").
  for (const brand of carried) if (!tallies.has(brand)) tallies.set(brand, { sum: 0, hits: 0 })
  if (carried.length > 0 && leading.length > 0) {
    for (const early of leading) addToTallies(tallies, carried, early)
  }

  for (const [brand, tally] of tallies) result.set(brand, tally.hits === 0 ? 0 : clamp(tally.sum / tally.hits))
  // A compared brand with nothing said about it directly gets the opposite of the
  // statement it is compared with: "Trello is easier than Jira" is negative for Jira.
  for (const foil of foils) {
    const main = foil.main
    const score = main === null || main.hits === 0 ? 0 : clamp(-main.sum / main.hits)
    for (const brand of foil.brands) if (!result.has(brand) || tallies.get(brand)?.hits === 0) result.set(brand, score)
  }
  for (const m of matches) if (!result.has(m.brandId)) result.set(m.brandId, 0)
  return result
}

function addToTallies(tallies: Map<string, Tally>, brands: readonly string[], clause: Clause): void {
  for (const brand of brands) {
    let tally = tallies.get(brand)
    if (!tally) tallies.set(brand, (tally = { sum: 0, hits: 0 }))
    // Only a statement continued past "but" is reweighted; a brand first named there
    // has nothing earlier to discount.
    const shift = clause.shift && tally.hits > 0
    if (shift) tally.sum *= 0.5
    tally.sum += shift ? clause.sum * 1.5 : clause.sum
    tally.hits += clause.hits
  }
}

/** For each token of the sentence (indexed from `tokens.from`), the brand whose match contains it, or null. */
function tokenBrands(tokens: SentenceTokens, matches: readonly MentionMatch[]): (string | null)[] {
  const out = new Array<string | null>(tokens.to - tokens.from + 1).fill(null)
  let m = 0
  for (let t = tokens.from; t <= tokens.to; t++) {
    if (tokens.start[t] === -1) continue
    const start = tokens.offset + tokens.start[t]
    const end = tokens.offset + tokens.end[t]
    while (m < matches.length && matches[m].end <= start) m++
    if (m < matches.length && matches[m].start < end && start < matches[m].end) out[t - tokens.from] = matches[m].brandId
  }
  return out
}

function splitClauses(tokens: SentenceTokens, brandAt: readonly (string | null)[]): Clause[] {
  // Tokens whose text could not be located are left out; `word[i]`/`brandOf[i]` index
  // the remaining ones.
  const word: string[] = []
  const score: number[] = []
  const brandOf: (string | null)[] = []
  for (let t = tokens.from; t <= tokens.to; t++) {
    if (tokens.start[t] === -1) continue
    word.push(tokens.word[t])
    score.push(tokens.score[t])
    brandOf.push(brandAt[t - tokens.from])
  }
  const clauses: Clause[] = []
  let current = openClause(clauses, 'main', word[0] ?? '', false)
  let foilNamed = false
  for (let t = 0; t < word.length; t++) {
    const w = word[t]
    const brand = brandOf[t]
    if (brand !== null) {
      if (!current.brands.includes(brand)) current.brands.push(brand)
      if (current.kind === 'foil') {
        foilNamed = true
        const next = word[t + 1]
        if (brandOf[t + 1] === null && (next === "'s" || next === '’s')) current.possessive = true
      }
      continue
    }
    if (CLAUSE_PUNCTUATION.has(w)) {
      current = openClause(clauses, 'main', word[t + 1] ?? '', false)
      foilNamed = false
      continue
    }
    if (CONTRAST.has(w)) {
      current = openClause(clauses, 'main', w, SHIFT.has(w))
      foilNamed = false
      continue
    }
    if (isFoilMarker(word, brandOf, t)) {
      current = openClause(clauses, 'foil', w, false)
      foilNamed = false
      continue
    }
    // In a comparison, what follows the compared brand is the main statement again
    // ("cheaper than X and just as secure"), unless a possessive made it about the brand.
    if (current.kind === 'foil' && foilNamed && !current.possessive && !GLUE.has(w)) {
      current = openClause(clauses, 'resume', w, false)
      foilNamed = false
    }
    if (!GLUE.has(w) && WORDISH.test(w)) current.content++
    if (score[t] !== 0) {
      current.sum += score[t]
      current.hits++
    }
  }
  return clauses
}

const WORDISH = /[\p{L}\p{N}]/u

function openClause(clauses: Clause[], kind: ClauseKind, first: string, shift: boolean): Clause {
  const clause: Clause = { kind, brands: [], sum: 0, hits: 0, content: 0, first, shift, possessive: false }
  clauses.push(clause)
  return clause
}

// "over" and "compared" are comparisons only in "over <brand>" and "compared with/to";
// otherwise they are ordinary words ("over 40 countries", "as compared").
function isFoilMarker(word: readonly string[], brandOf: readonly (string | null)[], t: number): boolean {
  const w = word[t]
  if (!FOIL.has(w)) return false
  if (w === 'over') return brandOf[t + 1] != null
  if (w === 'compared') return word[t + 1] === 'with' || word[t + 1] === 'to'
  return true
}

function clamp(value: number): number {
  return value < -1 ? -1 : value > 1 ? 1 : value
}
