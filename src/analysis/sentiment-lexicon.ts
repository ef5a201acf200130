// Beacon's domain lexicon (docs/analysis.md): data/sentiment-lexicon.json, one entry per
// word with the reason it is there. wink-nlp stays the source of sentiment; these entries
// only fill its gaps for product answers ("pricey", "clunky", "easier"), neutralise words
// it misreads there ("support"), and name the verbs that compare ("X beats Y").
import { readFileSync } from 'node:fs'

interface LexiconFile {
  scores: { word: string; score: number; reason: string }[]
  overrides?: { word: string; score: number; reason: string }[]
  neutral: { word: string; reason: string }[]
  comparatives: { word: string; direction: 1 | -1; reason: string }[]
  excess: { score: number; reason: string }
  absence?: { score: number; reason: string }
  remedies?: { verbs: string[]; score: number; reason: string }
  returns?: { modals: string[]; score: number; reason: string }
  costs?: { nouns: string[]; low: string[]; high: string[]; score: number; reason: string }
  blocks: Record<'pros' | 'cons', { labels: string[]; score: number; reason: string }>
  sections: { titles: string[]; reason: string }
  others: { first: string[]; last: string[]; reason: string; anyLast?: string[]; anyLastReason?: string; notLast?: string[]; notLastReason?: string }
  chrome?: { phrases: string[]; reason: string }
  guides?: { words: string[]; reason: string }
  ranks?: { first: string[]; words: string[]; reason: string }
}

export interface SentimentLexicon {
  /** word → score on wink's scale, for words wink leaves neutral */
  scores: ReadonlyMap<string, number>
  /** word → score that replaces wink's own ("unbeatable", which wink scores as a complaint) */
  overrides: ReadonlyMap<string, number>
  /**
   * scored idioms of several words ("out of date", "blown away", "without sacrificing"), by
   * first word: the words after it and the score (0: the phrase says nothing, whatever wink says of its words)
   */
  phrases: ReadonlyMap<string, readonly { rest: readonly string[]; score: number }[]>
  /** words wink scores that are neutral in product answers */
  neutral: ReadonlySet<string>
  /** verbs that rank their subject above (1) or below (-1) their object */
  comparatives: ReadonlyMap<string, 1 | -1>
  /** the same for phrasal verbs ("makes up for"), by first word: the words after it and the direction */
  phrasalComparatives: ReadonlyMap<string, readonly { rest: readonly string[]; direction: 1 | -1 }[]>
  /** score of "too <word>" */
  excess: number
  /** price nouns, and the size words that praise (low) or criticise (high) them, at ±score */
  costs: { nouns: ReadonlySet<string>; low: ReadonlySet<string>; high: ReadonlySet<string>; score: number }
  /** modals that make "again"/"return to"/"come back" an intent to come back (±score, negated: a complaint) */
  returns: { modals: ReadonlySet<string>; score: number }
  /** score of a negated "have" with nothing scored after it ("does not have air conditioning"); 0: off */
  absence: number
  /** verbs that undo the bad thing after them ("resolved the problem"), and the praise they give */
  remedies: { verbs: ReadonlySet<string>; score: number }
  /** list labels whose items are praise / complaints, lower-cased, and the floor they give */
  blocks: { pros: ReadonlySet<string>; cons: ReadonlySet<string>; prosScore: number; consScore: number }
  /** heading titles that name a section, not a product (lower-cased) */
  sections: ReadonlySet<string>
  /**
   * an "other options" section title: its first word is one of `first` and its last one of
   * `last`, or its first word one of `anyLast` (written as a title) and its last not one of `notLast`
   */
  others: { first: ReadonlySet<string>; last: ReadonlySet<string>; anyLast: ReadonlySet<string>; notLast: ReadonlySet<string> }
  /** the answer engine's interface text ("Your feedback helps Google improve"): a sentence holding it is neutral */
  chrome: RegExp | null
  /** words of a buying guide's section title ("Things to Consider", "Tips"), lower-cased */
  guides: readonly string[]
  /** a rank title's first words ("Top …", "Best …") and its words anywhere ("Picks", "Recommended"), lower-cased */
  ranks: { first: readonly string[]; words: readonly string[] }
}

/**
 * Reads and checks the shipped lexicon (every entry needs a reason and a score in [-1, 1];
 * an override may score 0, a word wink should not read at all).
 */
export function loadSentimentLexicon(json = readFileSync(new URL('./data/sentiment-lexicon.json', import.meta.url), 'utf8')): SentimentLexicon {
  const raw = JSON.parse(json) as LexiconFile
  const scores = new Map<string, number>()
  for (const e of raw.scores) {
    if (!e.reason?.trim()) throw new Error(`sentiment-lexicon.json: "${e.word}" needs a reason`)
    if (!(e.score >= -1 && e.score <= 1) || e.score === 0) throw new Error(`sentiment-lexicon.json: "${e.word}" needs a non-zero score in [-1, 1]`)
    if (scores.has(e.word)) throw new Error(`sentiment-lexicon.json: "${e.word}" is listed twice`)
    scores.set(e.word, e.score)
  }
  // Overrides replace wink's score where `scores` only fills its gaps: wink's general-English
  // lexicon reads some product-review words and phrases the wrong way round ("unbeatable").
  const overrides = new Map<string, number>()
  for (const e of raw.overrides ?? []) {
    if (!e.reason?.trim()) throw new Error(`sentiment-lexicon.json: override "${e.word}" needs a reason`)
    if (!(e.score >= -1 && e.score <= 1)) throw new Error(`sentiment-lexicon.json: override "${e.word}" needs a score in [-1, 1]`)
    if (scores.has(e.word) || overrides.has(e.word)) throw new Error(`sentiment-lexicon.json: "${e.word}" is listed twice`)
    overrides.set(e.word, e.score)
  }
  // An entry of several words is an idiom whose words say nothing alone ("out of date"):
  // it is looked up by its first word, so only lines holding such a word pay for it. A
  // phrase replaces whatever wink says of its words, so an override of several words is one too.
  const phrases = phrasal([...scores, ...overrides].filter(([w]) => w.includes(' ')).map(([word, score]) => ({ word, direction: score })))
  for (const word of [...scores.keys()]) if (word.includes(' ')) scores.delete(word)
  for (const word of [...overrides.keys()]) if (word.includes(' ')) overrides.delete(word)
  if (raw.remedies && !raw.remedies.reason?.trim()) throw new Error('sentiment-lexicon.json: "remedies" needs a reason')
  for (const [name, list] of [
    ['guides', raw.guides],
    ['ranks', raw.ranks],
  ] as const)
    if (list && !list.reason?.trim()) throw new Error(`sentiment-lexicon.json: "${name}" needs a reason`)
  for (const e of [...raw.neutral, ...raw.comparatives]) {
    if (!e.reason?.trim()) throw new Error(`sentiment-lexicon.json: "${e.word}" needs a reason`)
  }
  for (const e of raw.neutral) if (overrides.has(e.word)) throw new Error(`sentiment-lexicon.json: "${e.word}" is both neutral and an override`)
  return {
    scores,
    overrides,
    phrases: new Map([...phrases].map(([first, list]) => [first, list.map(({ rest, direction }) => ({ rest, score: direction }))])),
    neutral: new Set(raw.neutral.map((e) => e.word)),
    comparatives: new Map(raw.comparatives.filter((e) => !e.word.includes(' ')).map((e) => [e.word, e.direction])),
    phrasalComparatives: phrasal(raw.comparatives.filter((e) => e.word.includes(' '))),
    excess: raw.excess.score,
    absence: raw.absence?.score ?? 0,
    remedies: { verbs: new Set(raw.remedies?.verbs ?? []), score: raw.remedies?.score ?? 0 },
    returns: { modals: new Set(raw.returns?.modals ?? []), score: raw.returns?.score ?? 0 },
    costs: { nouns: new Set(raw.costs?.nouns ?? []), low: new Set(raw.costs?.low ?? []), high: new Set(raw.costs?.high ?? []), score: raw.costs?.score ?? 0 },
    blocks: {
      pros: new Set(raw.blocks.pros.labels),
      cons: new Set(raw.blocks.cons.labels),
      prosScore: raw.blocks.pros.score,
      consScore: raw.blocks.cons.score,
    },
    sections: new Set([...(raw.sections?.titles ?? []), ...raw.blocks.pros.labels, ...raw.blocks.cons.labels]),
    others: {
      first: new Set(raw.others?.first ?? []),
      last: new Set(raw.others?.last ?? []),
      anyLast: new Set(raw.others?.anyLast ?? []),
      notLast: new Set(raw.others?.notLast ?? []),
    },
    chrome: raw.chrome?.phrases.length ? new RegExp(raw.chrome.phrases.map((p) => p.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|'), 'i') : null,
    guides: raw.guides?.words ?? [],
    ranks: { first: raw.ranks?.first ?? [], words: raw.ranks?.words ?? [] },
  }
}

function phrasal<D extends number>(entries: { word: string; direction: D }[]): Map<string, { rest: string[]; direction: D }[]> {
  const out = new Map<string, { rest: string[]; direction: D }[]>()
  for (const e of entries) {
    const [first, ...rest] = e.word.split(/\s+/)
    const list = out.get(first)
    if (list) list.push({ rest, direction: e.direction })
    else out.set(first, [{ rest, direction: e.direction }])
  }
  return out
}

/** The score of a scored idiom starting at `t` and its length in words, or null. */
export function phraseAt(words: readonly string[], t: number): { score: number; length: number } | null {
  const entry = entryAt(LEXICON.phrases, words, t)
  return entry === undefined ? null : { score: entry.score, length: entry.rest.length + 1 }
}

/** The entry of an index by first word (phrases, phrasal comparatives) whose other words follow `t`. */
function entryAt<Entry extends { rest: readonly string[] }>(index: ReadonlyMap<string, readonly Entry[]>, words: readonly string[], t: number): Entry | undefined {
  const candidates = index.get(words[t])
  if (candidates !== undefined) for (const entry of candidates) if (entry.rest.every((w, k) => words[t + 1 + k] === w)) return entry
  return undefined
}

export const LEXICON: SentimentLexicon = loadSentimentLexicon()

/** The direction of a comparative verb at `t` (one word, or a phrasal verb starting there: "makes up for"); 0 if none. */
export function comparativeAt(words: readonly string[], t: number): number {
  return LEXICON.comparatives.get(words[t]) ?? entryAt(LEXICON.phrasalComparatives, words, t)?.direction ?? 0
}
