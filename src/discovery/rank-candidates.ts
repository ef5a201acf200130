// Competitor discovery, step two: names tallied across a workspace's answers, filtered and
// ranked. Pure: the job feeds it answers in batches (src/discovery/run-discovery.ts) and asks
// for the ranking once at the end; the result does not depend on the order answers came in.
//
// Score of a name = Σ over the answers naming it of the weight of its strongest cue in that
// answer (CUE_WEIGHT: a heading or list item 3, a table row or bold 2.5, a link 2, inside a
// sentence 1, opening a sentence 0.5). A name is suggested when at least `minResponses`
// distinct answers name it other than at a sentence's start (every sentence opens with a
// capital, so "Create" or "Based" there is no evidence) and its score reaches `minScore`,
// and it is none of:
//   - a configured brand: a name or alias of any brand of the workspace (any status, so a
//     rejected one too) or a name containing one as whole words ("Kanbrio Business");
//   - a rejected suggestion's name (kept apart from the brand, so a rename does not revive it);
//   - an AI provider, assistant or model ("ChatGPT", "Claude Sonnet 4", "Google Drive"), from the
//     stop list and the workspace's model catalogue;
//   - a well-known cited site (G2, Reddit, Wikipedia: data/source-domains.json of analysis);
//   - common words only: every word is on the stop list or the answers themselves write it in
//     lower case, in at least a tenth as many answers as name it (a "steady drip of emails"
//     makes "Drip" a word; a brand such as "Linear", named far more often than the word is
//     used, stays a name).
// Of two suggestions where one name starts the other ("Trackory", "Trackory Cloud") the one
// with the higher score stays.
import { CUE_WEIGHT, scanAnswer, type CandidateHit, type Cue } from './extract-candidates.js'
import { foldName, nameTokens } from './name-key.js'
import { STOP_LIST } from './stop-list.js'

export interface DiscoveryOptions {
  minResponses: number
  minScore: number
  maxSuggestions: number
  examples: number
}

/** Tuned on test/fixtures/discovery (precision and recall printed by its test) and the demo. */
export const DISCOVERY_DEFAULTS: DiscoveryOptions = { minResponses: 3, minScore: 4, maxSuggestions: 25, examples: 3 }

export interface ScannedAnswer {
  id: string
  createdAt: Date
  content: string
}

export interface DiscoveryExample {
  response_id: string
  snippet: string
  cue: Cue
}

export interface Suggestion {
  key: string
  name: string
  responses: number
  score: number
  signals: Record<Cue, number>
  first_seen: Date
  last_seen: Date
  examples: DiscoveryExample[]
}

export interface Exclusions {
  /** folded names, aliases and domains of every brand of the workspace, rejected discovery names, model ids and names */
  terms: Iterable<string>
  /** folded names of cited sites (g2, reddit, wikipedia …) */
  sites?: Iterable<string>
}

interface Example extends DiscoveryExample {
  weight: number
  at: number
}

interface Tally {
  surfaces: Map<string, number>
  responses: number
  /** answers naming it somewhere other than at a sentence's start */
  unambiguous: number
  score: number
  signals: Record<Cue, number>
  firstSeen: number
  lastSeen: number
  examples: Example[]
}

const emptySignals = (): Record<Cue, number> => ({ heading: 0, list: 0, table: 0, bold: 0, link: 0, prose: 0, start: 0 })

const SNIPPET_BEFORE = 60
const SNIPPET_AFTER = 100

/** A short, one-line excerpt around the name, cut at word edges. */
export function snippetAround(content: string, start: number, end: number): string {
  let from = Math.max(0, start - SNIPPET_BEFORE)
  let to = Math.min(content.length, end + SNIPPET_AFTER)
  if (from > 0) {
    const space = content.indexOf(' ', from)
    if (space !== -1 && space < start) from = space + 1
  }
  if (to < content.length) {
    const space = content.lastIndexOf(' ', to)
    if (space > end) to = space
  }
  const text = content.slice(from, to).replace(/\s+/g, ' ').trim()
  return `${from > 0 ? '…' : ''}${text}${to < content.length ? '…' : ''}`
}

/** Examples are ordered strongest cue first, then oldest, then by response id: the same whatever the scan order. */
function before(a: { weight: number; at: number; response_id: string }, b: { weight: number; at: number; response_id: string }): boolean {
  if (a.weight !== b.weight) return a.weight > b.weight
  if (a.at !== b.at) return a.at < b.at
  return a.response_id < b.response_id
}

export class DiscoveryTally {
  private readonly names = new Map<string, Tally>()
  /** answers writing a word in lower case, by the word as written (folded once, when ranking) */
  private readonly lowerAnswers = new Map<string, number>()
  private foldedLower: Map<string, number> | undefined
  answers = 0

  constructor(private readonly options: DiscoveryOptions = DISCOVERY_DEFAULTS) {}

  add(answer: ScannedAnswer): void {
    this.answers++
    this.foldedLower = undefined
    if (!answer.content) return
    const { hits, lowerWords } = scanAnswer(answer.content)
    for (const word of lowerWords) this.lowerAnswers.set(word, (this.lowerAnswers.get(word) ?? 0) + 1)
    // Per name: its strongest hit in this answer, and which cues it had.
    const byKey = new Map<string, { best: CandidateHit; cues: Set<Cue>; surfaces: string[] }>()
    for (const hit of hits) {
      const seen = byKey.get(hit.key)
      if (!seen) {
        byKey.set(hit.key, { best: hit, cues: new Set([hit.cue]), surfaces: [hit.name] })
        continue
      }
      seen.cues.add(hit.cue)
      seen.surfaces.push(hit.name)
      if (CUE_WEIGHT[hit.cue] > CUE_WEIGHT[seen.best.cue] || (CUE_WEIGHT[hit.cue] === CUE_WEIGHT[seen.best.cue] && hit.start < seen.best.start)) seen.best = hit
    }
    const at = answer.createdAt.getTime()
    for (const [key, { best, cues, surfaces }] of byKey) {
      let tally = this.names.get(key)
      if (!tally) {
        tally = { surfaces: new Map(), responses: 0, unambiguous: 0, score: 0, signals: emptySignals(), firstSeen: at, lastSeen: at, examples: [] }
        this.names.set(key, tally)
      }
      const weight = CUE_WEIGHT[best.cue]
      tally.responses++
      if (best.cue !== 'start') tally.unambiguous++
      tally.score += weight
      for (const cue of cues) tally.signals[cue]++
      for (const surface of surfaces) tally.surfaces.set(surface, (tally.surfaces.get(surface) ?? 0) + 1)
      if (at < tally.firstSeen) tally.firstSeen = at
      if (at > tally.lastSeen) tally.lastSeen = at
      const candidate = { weight, at, response_id: answer.id }
      const examples = tally.examples
      if (examples.length < this.options.examples || before(candidate, examples[examples.length - 1])) {
        examples.push({ ...candidate, cue: best.cue, snippet: snippetAround(answer.content, best.start, best.end) })
        examples.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
        if (examples.length > this.options.examples) examples.pop()
      }
    }
  }

  /** Distinct names seen so far (before any filter). */
  get candidates(): number {
    return this.names.size
  }

  /** Whether a folded word is a common word: on the stop list, or written in lower case by enough answers. */
  private isCommon(word: string, capitalised: number): boolean {
    if (STOP_LIST.commonWords.has(word)) return true
    if (!this.foldedLower) {
      this.foldedLower = new Map()
      for (const [raw, n] of this.lowerAnswers) {
        const key = foldName(raw)
        this.foldedLower.set(key, (this.foldedLower.get(key) ?? 0) + n)
      }
    }
    const lower = this.foldedLower.get(word) ?? 0
    return lower >= 1 && lower >= 0.1 * capitalised
  }

  rank(exclusions: Exclusions): Suggestion[] {
    const { minResponses, minScore, maxSuggestions } = this.options
    const excluded = new Set([...exclusions.terms].map(foldName).filter(Boolean))
    const sites = new Set([...(exclusions.sites ?? [])].map(foldName))
    const providers = STOP_LIST.providers
    const eligible: { key: string; tally: Tally; tokens: string[] }[] = []
    for (const [key, tally] of this.names) {
      // Every sentence opens with a capital: a word seen only there ("Create", "Based") is no evidence of a name.
      if (tally.unambiguous < minResponses || tally.score < minScore) continue
      const tokens = nameTokens(key)
      if (containsExcluded(tokens, excluded)) continue
      if (sites.has(key) || sites.has(key.replace(/\s+/g, ''))) continue
      if (providers.some((p) => key === p || key.startsWith(`${p} `) || key.startsWith(`${p}-`) || key.startsWith(`${p}'`))) continue
      if (tokens.every((t) => this.isCommon(t, tally.responses))) continue
      if (/^[\d\s.&+-]+$/.test(key)) continue
      eligible.push({ key, tally, tokens })
    }
    eligible.sort((a, b) => b.tally.score - a.tally.score || b.tally.responses - a.tally.responses || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    const chosen: typeof eligible = []
    for (const candidate of eligible) {
      if (chosen.length >= maxSuggestions) break
      // "Trackory" and "Trackory Cloud": one product; the better-supported spelling stays.
      if (chosen.some((c) => startsWithTokens(c.tokens, candidate.tokens) || startsWithTokens(candidate.tokens, c.tokens))) continue
      chosen.push(candidate)
    }
    return chosen.map(({ key, tally }) => ({
      key,
      name: displayName(tally.surfaces),
      responses: tally.responses,
      score: Math.round(tally.score * 10) / 10,
      signals: { ...tally.signals },
      first_seen: new Date(tally.firstSeen),
      last_seen: new Date(tally.lastSeen),
      examples: tally.examples.map(({ response_id, snippet, cue }) => ({ response_id, snippet, cue })),
    }))
  }
}

/** Whether any run of whole tokens of the name is an excluded term ("kanbrio business" contains "kanbrio"). */
function containsExcluded(tokens: readonly string[], excluded: ReadonlySet<string>): boolean {
  for (let i = 0; i < tokens.length; i++) {
    let run = ''
    for (let j = i; j < tokens.length; j++) {
      run = j === i ? tokens[j] : `${run} ${tokens[j]}`
      if (excluded.has(run)) return true
    }
  }
  return false
}

function startsWithTokens(tokens: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= tokens.length && prefix.every((t, i) => tokens[i] === t)
}

/** The spelling used most often; ties go to the one sorting first (stable across runs). */
function displayName(surfaces: Map<string, number>): string {
  let best = ''
  let count = -1
  for (const [surface, n] of surfaces) {
    if (n > count || (n === count && surface < best)) {
      best = surface
      count = n
    }
  }
  return best
}
