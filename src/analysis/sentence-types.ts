// Types shared by sentence scoring (sentiment.ts), clause attribution (clauses.ts) and
// answer structure (answer-structure.ts), in a module of their own so that none of them
// imports another for its types; with the two definitions they all read tokens by: what
// starts like a name's word, and a stretch of tokens' sentiment.

/** A word that starts like a name's: with a capital or a digit ("Plus", "WH-1000XM5", "85h", "4"). */
export const NAME_WORD = /^[\p{Lu}\p{N}]/u

/** The sentiment of tokens from..to (inclusive) of `score`: the mean of those that score (wink-nlp's formula), 0 when none does. */
export function meanTokenScore(score: readonly number[], from: number, to: number): number {
  let sum = 0
  let scored = 0
  for (let t = from; t <= to; t++)
    if (score[t] !== 0) {
      sum += score[t]
      scored++
    }
  return scored === 0 ? 0 : sum / scored
}

export interface Sentence {
  start: number
  end: number
  text: string
}

/**
 * A sentence's tokens, for brand-scoped scoring: a view of its line's token arrays
 * (shared by the line's sentences, so no per-sentence copies), tokens `from`..`to`
 * inclusive. Every token has its offsets (tokens wink reports but that cannot be found
 * in the text are dropped when the line is read).
 */
export interface SentenceTokens {
  /** add to `start`/`end` to get offsets in the analysed text */
  offset: number
  from: number
  to: number
  start: readonly number[]
  end: readonly number[]
  /** the token's text as written */
  value: readonly string[]
  /** lower-cased token text */
  word: readonly string[]
  /** universal part-of-speech tag from wink-nlp (NOUN, PROPN, VERB, AUX, ADP …) */
  pos: readonly string[]
  /** the token's sentiment in its sentence (negation applied), 0 if it carries none */
  score: readonly number[]
}

export interface ScoredSentence extends Sentence {
  /** mean of the sentence's token sentiments (wink-nlp's formula), in [-1, 1] */
  sentiment: number
  /** absent only for sentences built by hand (tests) */
  tokens?: SentenceTokens
}
