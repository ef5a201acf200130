// Sentence splitting and sentiment, both from wink-nlp's English "lite" model. The model
// ships inside its npm package (no download). Requiring and initialising it costs ~100 ms,
// so it happens on first use: code paths that import analysis but never score text
// (CLI commands, read-only API routes) do not pay for it.
import { isBareNegationCue, isNegationCue, isScopeBreak } from './discourse-words.js'
import type { ScoredSentence, Sentence, SentenceTokens } from './sentence-types.js'
import { comparativeAt, LEXICON, phraseAt } from './sentiment-lexicon.js'
import { winkParse } from './wink-parse.js'

export type { ScoredSentence, Sentence, SentenceTokens } from './sentence-types.js'

// Each line is read by wink-nlp with the pipe sbd, negation, sentiment and pos (clause
// attribution reads the noun phrases and verbs; NER is not needed and not run), through
// `winkParse`: wink's own tokenizer, automata and setters without its document object,
// with each chunk's tokenization remembered (wink-parse.ts says why that is the same parse).

// Markdown answers put one idea per line (bullets, headings, table rows) often without
// closing punctuation, and wink's sentence detector joins such lines, so a bullet praising
// one brand and the next criticising another would average into one neutral sentence.
// Lines are therefore split first and each line goes through wink once; every character
// is still parsed exactly once.
const LINE = /[^\n\r\u2028\u2029]+/g

// A "sentence" of only punctuation or markup (`---`, `|---|`, a lone bullet) says nothing
// and would only dilute averages, so it is dropped unless it carries sentiment anyway
// (emoticons such as `:)`). Emoji count as content.
const HAS_CONTENT = /[\p{L}\p{N}\p{Extended_Pictographic}]/u
const NOT_BLANK = /\S/u

// Markdown block markers (quote `>`, heading `#`, bullet, `1.`/`1)`/`**1.**`, and a heading
// or bullet that is also numbered: `### 1. **Sony WH-CH720N**`) are layout, not words; wink
// would otherwise report `1.` as a sentence of its own, and the line's lead sentence would
// be the number instead of the name.
const BLOCK_MARKER = /^[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]+|[-*+•][ \t]+)?(?:(?:\*\*|__)?\d{1,3}[.)](?:\*\*|__)?[ \t]+)?/

/** What a comparative verb says of its subject ("X beats Y": X +0.5; Y gets the opposite). */
const COMPARATIVE_SCORE = 0.5
// wink's run-in-colon fault, handled in one place, before the parse. With no space after a
// colon ("Pros:Secure fit", "Sony WH-CH720N:Durable", "Sony:Pros:Durable", "Price/Value:Decent",
// Google AI Mode's lost spaces) wink reads the colon and the next letter as an emoticon (":S"
// a frown, ":D" and ":P" a grin) and the rest of the word ("ecure") as a word of its own, so
// the label's colon scored, its first word did not, and clause analysis saw a word that does
// not exist. The line is parsed with a space after such a colon; offsets are still found in
// the line as written (the tokens are the same strings). A repair after the parse (scoring the
// glued word whole) was tried first, but it left the broken tokens and their tags in place.
const RUN_IN_COLON = /(?<=\S):(?=\p{L})/gu

/**
 * Whether the colon at `at` (a letter after it, a non-space before it) runs into a word:
 * not inside a URL ("https://example.com/a:b", "www.example.com/a:b"), and not an emoticon
 * after punctuation ("fun!:D", "(:P"), which is a letter standing alone after a character
 * that cannot end a label.
 */
function isRunInColon(line: string, at: number): boolean {
  if (!LABEL_END.test(line[at - 1]) && !/\p{L}/u.test(line[at + 2] ?? '')) return false
  let from = at - 1
  while (from > 0 && !/\s/.test(line[from - 1])) from--
  const before = line.slice(from, at)
  return !before.includes('://') && !/^www\./i.test(before)
}
/** What a label's last character can be: a letter, a digit, a closing bracket, a bold marker. */
const LABEL_END = /[\p{L}\p{N})\]*"'’]/u

/** How many tokens after a negation word it still negates ("not very good": 2). */
const NEGATION_REACH = 4

/**
 * Sentences of `text` with character offsets into it and their sentiment, from one NLP
 * pass. Lines are split first, then wink-nlp's sentence boundaries within each line.
 */
export function scoreSentences(text: string): ScoredSentence[] {
  const sentences: ScoredSentence[] = []
  if (!text) return sentences
  for (const line of text.matchAll(LINE)) {
    const marker = BLOCK_MARKER.exec(line[0])?.[0].length ?? 0
    const body = line[0].slice(marker)
    if (NOT_BLANK.test(body)) scoreLine(text, line.index + marker, body, sentences)
  }
  return sentences
}

function scoreLine(text: string, lineStart: number, line: string, out: ScoredSentence[]): void {
  // (RUN_IN_COLON says why a colon run into a word gets a space for the parse.)
  const parse = winkParse(line.includes(':') ? line.replace(RUN_IN_COLON, (colon, at: number) => (isRunInColon(line, at) ? ': ' : colon)) : line)
  let { values, negated, pos, spans } = parse

  // wink reports sentences as token ranges. Token offsets are recovered by finding each
  // token's text in order: wink drops some whitespace-like characters (U+2028, trailing
  // spaces) so summing token and space lengths would drift, while token values are
  // always verbatim slices of the input.
  let starts = new Array<number>(values.length)
  let ends = new Array<number>(values.length)
  let cursor = 0
  let lost = 0
  for (let i = 0; i < values.length; i++) {
    const at = line.indexOf(values[i], cursor)
    starts[i] = at
    ends[i] = at === -1 ? -1 : at + values[i].length
    if (at !== -1) cursor = at + values[i].length
    else lost++
  }
  // Tokens that could not be located (rare) are dropped, so that every token of a
  // sentence has offsets and clause analysis can use the line's arrays as they are.
  let hits = parse.hits
  if (lost > 0) {
    const index = new Array<number>(values.length)
    let k = 0
    for (let i = 0; i < values.length; i++) index[i] = starts[i] === -1 ? -1 : k++
    const keep = (_: unknown, i: number) => starts[i] !== -1
    values = values.filter(keep)
    negated = negated.filter(keep)
    pos = pos.filter(keep)
    ends = ends.filter(keep)
    const located = (i: number, step: number, bound: number) => {
      while (i !== bound && index[i] === -1) i += step
      return index[i] ?? -1
    }
    spans = spans.map(([first, last]): [number, number] => [located(first, 1, last + 1), located(last, -1, first - 1)]).filter(([a, b]) => a !== -1 && b !== -1 && a <= b)
    hits = hits.filter(([first]) => index[first] !== -1).map(([first, last, score]) => [index[first], last, score])
    starts = starts.filter((at) => at !== -1)
  }

  // Token sentiment: wink's lexicon hit (scored on the hit's first token; the setter has
  // already turned thousandths into [-1, 1]), else the domain lexicon for words wink
  // leaves neutral.
  const tokenScore = new Array<number>(values.length).fill(0)
  for (const [first, , score] of hits) tokenScore[first] = score
  const words = new Array<string>(values.length)
  const info = new Array<WordInfo>(values.length)
  // Which of the context rules below this line needs (most lines need none of them).
  let context = 0
  for (let i = 0; i < words.length; i++) {
    const word = (info[i] = wordInfo(values[i]))
    words[i] = word.lower
    context |= word.context
    if (word.neutral) tokenScore[i] = 0
    // The domain lexicon's override replaces wink's score ("unbeatable", a complaint to wink).
    else if (word.override) tokenScore[i] = word.fallback
    // The domain lexicon's word as the first half of a compound ("dry-aged", "late-night")
    // is a kind, not a verdict.
    else if (tokenScore[i] === 0 && !(word.fallback !== 0 && values[i + 1] === '-' && starts[i + 1] === ends[i])) tokenScore[i] = word.fallback
    // "I got a coke and dessert as well": "as well" at a clause's end means "too"; wink
    // scores its "well" as praise. ("as well as" is left to the equative rule below.)
    if (word.lower === 'well' && i > 0 && words[i - 1] === 'as' && (i + 1 === values.length || values[i + 1] !== 'as')) tokenScore[i] = 0
    // "too basic", "too simple", "too heavily fragranced": the word after "too" is a
    // complaint whatever its own score, unless it already is one.
    // Not after a negation: "not too friendly" is "not friendly", graded (the negation
    // below turns the word), and "not too bad" praise.
    if (i > 0 && words[i - 1] === 'too' && word.letter && tokenScore[i] >= 0 && !(i > 1 && info[i - 2].scope === NEGATION_CUE)) tokenScore[i] = LEXICON.excess
    // wink tags a capitalised word at the start of a fragment as a proper noun
    // ("Excellent templates", "Pricey for teams"); a word with a sentiment there is an
    // adjective.
    if (pos[i] === 'PROPN' && tokenScore[i] !== 0 && (i === 0 || pos[i - 1] === 'PUNCT')) pos[i] = 'ADJ'
  }

  // A phrasal comparative verb ("X more than makes up for Y") scores its first word, like "beats".
  if (context & PHRASAL_WORD) {
    for (let i = 0; i + 1 < words.length; i++) {
      if (tokenScore[i] === 0 && info[i].context & PHRASAL_WORD) tokenScore[i] = COMPARATIVE_SCORE * comparativeAt(words, i)
    }
  }

  // Idioms whose words say nothing alone ("the decor was out of date", "I was blown away",
  // "it took forever"): the whole phrase scores on its first word, its other words not at
  // all (wink's "forever", "away" would otherwise add their own). Before negation, so
  // "was not out of date" is praise. Nor do its words negate what follows: "without
  // sacrificing sound quality" keeps the quality (wink negated "quality").
  let idiom: Uint8Array | null = null
  if (context & PHRASE_WORD) {
    for (let i = 0; i + 1 < words.length; i++) {
      if (!(info[i].context & PHRASE_WORD)) continue
      const phrase = phraseAt(words, i)
      if (phrase === null) continue
      tokenScore[i] = phrase.score
      for (let k = 1; k < phrase.length; k++) tokenScore[i + k] = 0
      idiom ??= new Uint8Array(words.length)
      idiom.fill(1, i, i + phrase.length)
      // as for a single scored word above: "Long wait." opens with an adjective, not a name
      if (pos[i] === 'PROPN' && (i === 0 || pos[i - 1] === 'PUNCT')) pos[i] = 'ADJ'
      i += phrase.length - 1
    }
  }

  // "I will definitely come back", "we would return to this place", "I will never fly with
  // them again": meaning to come back is a recommendation, negated a complaint. Settled
  // here (the negation between the modal and the word decides), so the pass below leaves it.
  let settled: Uint8Array | null = null
  if (LEXICON.returns.score !== 0 && context & RETURN_WORD) {
    for (let i = 1; i < words.length; i++) {
      if (tokenScore[i] !== 0 || !returnsAt(words, pos, i)) continue
      let modal = -1
      let negatedReturn = false
      for (let k = i - 1; k >= 0 && k >= i - RETURN_REACH && info[k].scope !== SCOPE_BREAK; k--) {
        if (info[k].scope === NEGATION_CUE || info[k].scope === BARE_NEGATION_CUE) negatedReturn = true
        if (LEXICON.returns.modals.has(words[k])) {
          modal = k
          break
        }
      }
      if (modal === -1) continue
      tokenScore[i] = negatedReturn ? -LEXICON.returns.score : LEXICON.returns.score
      ;(settled ??= new Uint8Array(words.length))[i] = 1
    }
  }

  // "could be better", "should have been more attentive", "could use better lighting": a
  // standard the thing falls short of is a complaint, whatever the comparative's own sign;
  // negated ("couldn't be better") it is praise. Settled, so the negation pass leaves it.
  for (let i = 0; i + 2 < words.length; i++) {
    // (not of the writer or reader: "you could be happier with Bose" recommends Bose)
    if ((words[i] !== 'could' && words[i] !== 'should') || (i > 0 && READER_OR_WRITER.has(words[i - 1]))) continue
    let k = i + 1
    const negatedStandard = words[k] === "n't" || words[k] === 'not' || words[k] === 'nt'
    if (negatedStandard) k++
    if (words[k] === 'be' || words[k] === 'use') k++
    else if (words[k] === 'have' && words[k + 1] === 'been') k += 2
    else continue
    while (k < words.length && DEGREE.has(words[k])) k++
    // "more attentive": the adjective is the standard; "better", "nicer", "quicker" are
    if ((words[k] === 'more' || words[k] === 'less') && (pos[k + 1] === 'ADJ' || pos[k + 1] === 'ADV')) k++
    else if (!(words[k] === 'better' || words[k] === 'more' || (COMPARATIVE.test(words[k]) && (pos[k] === 'ADJ' || pos[k] === 'ADV')))) continue
    // "could be better off with …", "couldn't be more than $35" (an amount, not a standard)
    if (words[k + 1] === 'off' || ((words[k] === 'more' || words[k] === 'less') && words[k + 1] === 'than')) continue
    const size = Math.abs(tokenScore[k]) || UNMET_STANDARD
    tokenScore[k] = negatedStandard ? size : -size
    ;(settled ??= new Uint8Array(words.length))[k] = 1
  }

  // "the price was low", "very high prices": a price is better the lower it is, while "low"
  // and "high" alone say nothing. Scored before negation, so "not low" is a complaint.
  if (LEXICON.costs.score !== 0 && context & COST_SIZE_WORD && context & COST_NOUN) {
    for (let i = 0; i < words.length; i++) {
      const low = LEXICON.costs.low.has(words[i])
      if ((!low && !LEXICON.costs.high.has(words[i])) || tokenScore[i] !== 0 || !nearCost(words, info, i)) continue
      tokenScore[i] = low ? LEXICON.costs.score : -LEXICON.costs.score
    }
  }

  // "the staff resolved the problem quickly", "the desserts counter this flaw": a verb that
  // undoes the bad thing after it is praise, and that thing no complaint here. Before
  // negation, so "did not fix the issue" is a complaint.
  if (LEXICON.remedies.score !== 0 && context & REMEDY_WORD) {
    for (let i = 0; i + 1 < words.length; i++) {
      // a verb, not a thing ("on their counter", which wink may still tag a verb)
      if (!(info[i].context & REMEDY_WORD) || pos[i] !== 'VERB' || (i > 0 && (pos[i - 1] === 'DET' || OWNER.has(words[i - 1])))) continue
      let undone = false
      for (let k = i + 1; k < words.length && k <= i + REMEDY_REACH && info[k].scope !== SCOPE_BREAK; k++) {
        if (tokenScore[k] < 0) {
          tokenScore[k] = 0
          undone = true
        }
      }
      if (undone && tokenScore[i] <= 0) tokenScore[i] = LEXICON.remedies.score
    }
  }

  // An equative ("as good as", "as fast as") compares on the adjective's own scale. wink
  // reads "as good as" as a neutral set phrase and, after "not", often leaves the adjective
  // unflagged, so "X is not as good as Y" scored 0 or even praise: the adjective gets its
  // own score and a negation cue before the equative negates it (scope rules below).
  let equative: Uint8Array | null = null
  for (let i = 0; i + 2 < words.length; i++) {
    if (words[i] !== 'as' || words[i + 2] !== 'as' || (pos[i + 1] !== 'ADJ' && pos[i + 1] !== 'ADV')) continue
    if (tokenScore[i + 1] === 0 && !LEXICON.neutral.has(words[i + 1])) tokenScore[i + 1] = wordScore(words[i + 1])
    equative ??= new Uint8Array(words.length)
    equative[i + 1] = 1
  }

  for (let s = 0; s < spans.length; s++) {
    const [startToken, endToken] = spans[s]
    const start = lineStart + starts[startToken]
    const end = lineStart + starts[endToken] + values[endToken].length
    const sentenceText = text.slice(start, end)

    let sum = 0
    let scored = 0
    // wink negates every sentiment word from "not" to the end of the sentence or the
    // next punctuation. A flag only counts if a negation word precedes the token closely
    // (at most NEGATION_REACH tokens, VADER's window) within its clause: a contrast
    // ("not cheap but great") or a new clause ("do not have empathy, and when you ask the
    // procedures are slow") ends the scope.
    let cueAt = -1
    /** "did nt", "was nt": a negation wink does not flag after */
    let bareAt = -1
    /** inside a hyphenated compound that opens with a negation ("not-so-friendly", "not-too-shabby") */
    let compoundNegated = false
    for (let t = startToken; t <= endToken; t++) {
      const scope = info[t].scope
      // wink reads the compound's hyphens as punctuation and flags nothing after them, but
      // the compound is one word: its negation holds up to the compound's end.
      if (compoundNegated && starts[t] !== ends[t - 1]) compoundNegated = false
      if (scope === NEGATION_CUE && t < endToken && values[t + 1] === '-' && starts[t + 1] === ends[t] && t + 2 <= endToken && starts[t + 2] === ends[t + 1]) compoundNegated = true
      // A hyphen inside a word ("not-to-shabby", "must-have") joins, it does not end the scope.
      // Nor does "so" before the word it grades ("wasn't so great", "not so friendly"): a
      // degree adverb there, not the clause-opening "so" of a consequence.
      if (
        scope === SCOPE_BREAK &&
        !(values[t] === '-' && t > startToken && t < endToken && starts[t] === ends[t - 1] && ends[t] === starts[t + 1]) &&
        !(words[t] === 'so' && t < endToken && (pos[t + 1] === 'ADJ' || pos[t + 1] === 'ADV'))
      )
        cueAt = bareAt = -1
      // (an idiom's words do not negate: "without sacrificing", "second to none")
      else if (scope === NEGATION_CUE && idiom?.[t] !== 1) cueAt = quantifiedEnd(words, pos, t, endToken)
      else if (scope === BARE_NEGATION_CUE && t > startToken && pos[t - 1] === 'AUX' && idiom?.[t] !== 1) bareAt = t
      // wink's flag also stops at a degree "so" ("wasn't so great"), which grades the word
      // the negation is about: a negation, one adverb and an adjective or adverb read as one.
      const graded = cueAt !== -1 && t - cueAt === 2 && words[t - 1] === 'so' && (pos[t] === 'ADJ' || pos[t] === 'ADV')
      const flagged = ((negated[t] || equative?.[t] === 1 || graded) && cueAt !== -1 && t - cueAt <= NEGATION_REACH) || (compoundNegated && scope !== NEGATION_CUE)
      if (tokenScore[t] !== 0 && settled?.[t] !== 1 && (flagged || (bareAt !== -1 && t - bareAt <= NEGATION_REACH))) tokenScore[t] = -tokenScore[t]
      if (tokenScore[t] !== 0) {
        sum += tokenScore[t]
        scored++
      }
    }
    // "does not have air conditioning", "doesn't have much range": something missing is a
    // complaint, but wink reads a negated "have" as nothing. It scores as an absence when
    // nothing scored follows it within its clause's next few words ("did not have any
    // problems" is already praise by its negated noun).
    if (LEXICON.absence !== 0 && context & POSSESSION_WORD) {
      for (let t = startToken + 1; t < endToken; t++) {
        // "never had more than a ten minute wait" bounds an amount; nothing is missing.
        if (!POSSESSION.has(words[t]) || tokenScore[t] !== 0 || AMOUNT.has(words[t + 1]) || !negatedAt(words, info, pos, t, startToken)) continue
        let said = false
        for (let k = t + 1; k <= endToken && k <= t + NEGATION_REACH && info[k].scope !== SCOPE_BREAK; k++) said ||= tokenScore[k] !== 0
        if (!said) {
          tokenScore[t] = LEXICON.absence
          sum += LEXICON.absence
          scored++
        }
      }
    }
    const tokens: SentenceTokens = { offset: lineStart, from: startToken, to: endToken, start: starts, end: ends, value: values, word: words, pos, score: tokenScore }
    const sentiment = clampUnit(scored === 0 ? 0 : sum / scored)
    if (sentiment === 0 && !HAS_CONTENT.test(sentenceText)) continue
    out.push({ start, end, text: sentenceText, sentiment, tokens })
  }
}

/** Negating quantifiers that take an "of" phrase ("none of the dishes"). */
const NEGATING_QUANTIFIER = new Set(['none', 'neither'])
const QUANTIFIED_PART = new Set(['DET', 'ADJ', 'NUM', 'NOUN', 'PROPN'])

/**
 * Where a negation cue at `t` counts its reach from: the cue itself, or, for "none of the
 * dishes really impressed", the end of the phrase the quantifier takes (the verb it
 * negates comes after that phrase, often beyond the reach counted from "none").
 */
function quantifiedEnd(words: readonly string[], pos: readonly string[], t: number, last: number): number {
  if (!NEGATING_QUANTIFIER.has(words[t]) || words[t + 1] !== 'of') return t
  let k = t + 2
  while (k <= last && (QUANTIFIED_PART.has(pos[k]) || OWNER.has(words[k]))) k++
  return k - 1
}

/** How far a price noun may stand from its "low"/"high": "the price of the rooms was very high" (6 back), "low prices" (1 ahead). */
const COST_BACK = 6
const COST_AHEAD = 2

/** Whether a price noun is said to be low or high by the word at `i` (within its clause). */
function nearCost(words: readonly string[], info: readonly WordInfo[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - COST_BACK && info[k].scope !== SCOPE_BREAK; k--) if (LEXICON.costs.nouns.has(words[k])) return true
  for (let k = i + 1; k < words.length && k <= i + COST_AHEAD && info[k].scope !== SCOPE_BREAK; k++) if (LEXICON.costs.nouns.has(words[k])) return true
  return false
}

/** Verbs of possession: negated, they say something is missing. */
const POSSESSION = new Set(['have', 'has', 'had'])
const AMOUNT = new Set(['more', 'less', 'fewer', 'over', 'under'])

/** Whether the verb at `t` is negated by the words just before it ("does not have", "didnt have", "never had"). */
function negatedAt(words: readonly string[], info: readonly WordInfo[], pos: readonly string[], t: number, first: number): boolean {
  for (let k = t - 1; k >= first && k >= t - 2; k--) {
    if (info[k].scope === NEGATION_CUE || (info[k].scope === BARE_NEGATION_CUE && k > first && pos[k - 1] === 'AUX')) return words[k] !== 'no'
    if (pos[k] !== 'AUX' && pos[k] !== 'ADV') return false
  }
  return false
}

const SCOPE_BREAK = 1
const NEGATION_CUE = 2
const BARE_NEGATION_CUE = 3

/** What the lexicons say of a token's word, looked up once per distinct token text (see wordInfo). */
interface WordInfo {
  /** the token's text lower-cased: the word the lexicons list */
  lower: string
  /** listed as neutral in the domain lexicon: scores nothing whatever wink says */
  neutral: boolean
  /** the domain lexicon's override of wink's score, else its score (or a comparative verb's) where wink has none; 0 if neither */
  fallback: number
  /** `fallback` is an override: it replaces wink's score, not only where wink has none */
  override: boolean
  /** starts with a letter ("too <word>") */
  letter: boolean
  /** ends a negation's scope (SCOPE_BREAK), is a negation cue (NEGATION_CUE, BARE_NEGATION_CUE), or neither (0) */
  scope: number
  /** which context rules the word takes part in (PHRASAL_WORD, COST_NOUN, COST_SIZE_WORD, POSSESSION_WORD bits) */
  context: number
}

const RETURN_WORD = 16
/** How far back a modal may stand from "again" ("I will definitely be visiting this place again": 6). */
const RETURN_REACH = 8
const COMING = new Set(['come', 'coming', 'be', 'go', 'going', 'get', 'head'])

/** "again", "return to …" / "return." and "come/be/go back": the words of coming back. */
function returnsAt(words: readonly string[], pos: readonly string[], i: number): boolean {
  const w = words[i]
  if (w === 'again') return true
  if (w === 'return') return pos[i] === 'VERB' && (i + 1 === words.length || words[i + 1] === 'to' || !/\p{L}/u.test(words[i + 1]))
  return w === 'back' && COMING.has(words[i - 1])
}

const PHRASAL_WORD = 1
const COST_NOUN = 2
const COST_SIZE_WORD = 4
const POSSESSION_WORD = 8
const PHRASE_WORD = 32
const REMEDY_WORD = 64
/** Possessive determiners: after one a word is a thing, not a verb. */
const OWNER = new Set(['my', 'your', 'his', 'her', 'its', 'our', 'their'])
/** How far after a remedy verb the thing it undoes may stand ("resolved the billing problem": 3). */
const REMEDY_REACH = 4

// Every token of every line was lower-cased and asked the same five sets and maps; answers
// reuse a small vocabulary, so each distinct token text is looked up once. Keyed by the text
// as wink returns it (strings from its vocabulary, so their hashes are already computed).
// Bounded: cleared when full.
const wordInfos = new Map<string, WordInfo>()
const WORD_INFO_LIMIT = 50_000
function wordInfo(value: string): WordInfo {
  let info = wordInfos.get(value)
  if (info === undefined) {
    if (wordInfos.size >= WORD_INFO_LIMIT) wordInfos.clear()
    const word = value.toLowerCase()
    info = {
      lower: word,
      neutral: LEXICON.neutral.has(word),
      fallback: LEXICON.overrides.get(word) ?? LEXICON.scores.get(word) ?? COMPARATIVE_SCORE * (LEXICON.comparatives.get(word) ?? 0),
      override: LEXICON.overrides.has(word),
      letter: /^\p{L}/u.test(word),
      scope: isScopeBreak(word) ? SCOPE_BREAK : isNegationCue(word) ? NEGATION_CUE : isBareNegationCue(word) ? BARE_NEGATION_CUE : 0,
      context:
        (LEXICON.phrasalComparatives.has(word) ? PHRASAL_WORD : 0) |
        (LEXICON.costs.nouns.has(word) ? COST_NOUN : 0) |
        (LEXICON.costs.low.has(word) || LEXICON.costs.high.has(word) ? COST_SIZE_WORD : 0) |
        (POSSESSION.has(word) ? POSSESSION_WORD : 0) |
        (LEXICON.phrases.has(word) ? PHRASE_WORD : 0) |
        (word === 'again' || word === 'return' || word === 'back' ? RETURN_WORD : 0) |
        (LEXICON.remedies.verbs.has(word) ? REMEDY_WORD : 0),
    }
    wordInfos.set(value, info)
  }
  return info
}

/** Degree words between "could be" and its comparative ("a little better", "so much better"). */
const DEGREE = new Set(['a', 'little', 'bit', 'lot', 'much', 'so', 'far', 'way', 'even', 'slightly', 'somewhat', 'alot', 'tad'])
const COMPARATIVE = /^[a-z]{2,}er$/
const READER_OR_WRITER = new Set(['you', 'i', 'we'])
/** What an unmet standard scores when its comparative carries no score of its own ("could be quicker"). */
const UNMET_STANDARD = 0.4

// wink's score of a word on its own (for an adjective wink masks inside a set phrase);
// parsed once per word.
const wordScores = new Map<string, number>()
function wordScore(word: string): number {
  let score = wordScores.get(word)
  if (score === undefined) {
    score = winkParse(word).sentiment
    wordScores.set(word, (score = Number.isFinite(score) ? score : 0))
  }
  return score
}

// wink's sentence score is a mean of lexicon scores that are already in [-1, 1]; the
// clamp only guards the documented range against a future model change.
function clampUnit(value: number): number {
  if (!Number.isFinite(value)) return 0
  return value < -1 ? -1 : value > 1 ? 1 : value
}

/** Sentences with character offsets into `text` (lines first, then wink-nlp sentences). */
export function splitSentences(text: string): Sentence[] {
  return scoreSentences(text).map(({ start, end, text: sentenceText }) => ({ start, end, text: sentenceText }))
}

/**
 * Whole-text sentiment in [-1, 1]: the mean sentence sentiment, which is how wink-nlp
 * scores a document, applied to our line-aware sentences. Null for empty or blank text;
 * text with no scoreable sentence (only punctuation) is neutral, 0.
 */
export function textSentiment(text: string): number | null {
  if (!text || !NOT_BLANK.test(text)) return null
  return meanSentiment(scoreSentences(text))
}

/** Sentiment of one sentence (or any short text) in [-1, 1]; 0 when there is nothing to score. */
export function sentenceSentiment(sentence: string): number {
  return textSentiment(sentence) ?? 0
}

/** Mean sentiment of already scored sentences; 0 for none. */
export function meanSentiment(sentences: readonly ScoredSentence[]): number {
  if (sentences.length === 0) return 0
  let sum = 0
  for (const s of sentences) sum += s.sentiment
  return sum / sentences.length
}
