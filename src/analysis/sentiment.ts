// Sentence splitting and sentiment, both from wink-nlp's English "lite" model. The model
// ships inside its npm package (no download). Requiring and initialising it costs ~100 ms,
// so it happens on first use: code paths that import analysis but never score text
// (CLI commands, read-only API routes) do not pay for it.
import { createRequire } from 'node:module'
import type { WinkMethods } from 'wink-nlp'

const require = createRequire(import.meta.url)

export interface Sentence {
  start: number
  end: number
  text: string
}

export interface ScoredSentence extends Sentence {
  /** wink-nlp sentence sentiment, in [-1, 1]. */
  sentiment: number
}

let nlp: WinkMethods | null = null

// Only what sentences and sentiment need: skipping POS tagging and NER roughly halves
// the per-document cost, which dominates ingest time.
function getNlp(): WinkMethods {
  if (nlp === null) {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default
    const model = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default
    nlp = winkNLP(model, ['sbd', 'negation', 'sentiment'])
  }
  return nlp
}

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

// Markdown block markers (quote `>`, bullet, `1.`/`1)`, heading `#`) are layout, not
// words; wink would otherwise report `1.` as a sentence of its own.
const BLOCK_MARKER = /^[ \t]*(?:>[ \t]*)*(?:[-*+•][ \t]+|\d{1,3}[.)][ \t]+|#{1,6}[ \t]+)?/

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
  const winkNlp = getNlp()
  const its = winkNlp.its
  const doc = winkNlp.readDoc(line)
  const values = doc.tokens().out(its.value) as string[]
  const spans = doc.sentences().out(its.span) as unknown as [number, number][]
  const scores = doc.sentences().out(its.sentiment) as unknown as number[]

  // wink reports sentences as token ranges. Token offsets are recovered by finding each
  // token's text in order: wink drops some whitespace-like characters (U+2028, trailing
  // spaces) so summing token and space lengths would drift, while token values are
  // always verbatim slices of the input.
  const starts = new Array<number>(values.length)
  let cursor = 0
  for (let i = 0; i < values.length; i++) {
    const at = line.indexOf(values[i], cursor)
    starts[i] = at
    if (at !== -1) cursor = at + values[i].length
  }

  for (let s = 0; s < spans.length; s++) {
    const [first, last] = spans[s]
    let startToken = first
    while (startToken <= last && starts[startToken] === -1) startToken++
    let endToken = last
    while (endToken >= startToken && starts[endToken] === -1) endToken--
    if (startToken > endToken) continue
    const start = lineStart + starts[startToken]
    const end = lineStart + starts[endToken] + values[endToken].length
    const sentenceText = text.slice(start, end)
    const sentiment = clampUnit(scores[s] ?? 0)
    if (sentiment === 0 && !HAS_CONTENT.test(sentenceText)) continue
    out.push({ start, end, text: sentenceText, sentiment })
  }
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
