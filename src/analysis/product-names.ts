// A brand in an AI answer is usually followed by the rest of its product's name: "Breville
// Bambino Plus", "Ninja Professional Plus Blender", "Spalding Zi/O Excel", "Breville Fresh &
// Furious". wink scores some of those words ("Plus" +0.69, "Excel" +0.5, "Furious" −0.25), so
// a product's name praised or faulted it whatever the answer said. The words of a name are
// not a verdict: for brand sentiment they score nothing.
import type { MentionMatch } from './mentions.js'
import { meanTokenScore, NAME_WORD, type ScoredSentence } from './sentence-types.js'

/** The most words after the brand a product's name is read to have ("Ninja Professional Plus Blender DUO"). */
const NAME_WORDS = 8
const LOWER = /\p{Ll}/u
/** Joiners inside a name ("Zi/O", "Fresh & Furious", "Auto-iQ", "S24+"). */
const NAME_JOINER = new Set(['&', '/', '-', '+'])
/** Tags that end a name however the word is written: a verb ("Offers", "Is") is the sentence going on. */
const NOT_NAME = new Set(['VERB', 'AUX', 'PUNCT', 'SYM'])
/** Tags of a lower-case word an adjective may describe ("Excellent noise cancellation" after a name is a verdict, not a name). */
const DESCRIBED = new Set(['NOUN', 'ADJ'])
/** How far the name may start from the brand's end: a space or two. */
const NAME_GAP = 2

/**
 * `sentence` with the scores of the product-name words after each of `matches` removed (and
 * its sentiment recomputed from what is left), or `sentence` itself when no such word
 * scores (most sentences). The line's token arrays are not changed: the sentence gets its
 * own copy of the scores.
 */
export function withoutProductNames(sentence: ScoredSentence, matches: readonly MentionMatch[]): ScoredSentence {
  const tokens = sentence.tokens
  // (in a sentence written all in capitals every word looks like a name's: "SERVICE NOT SO OK")
  if (!tokens || !LOWER.test(sentence.text)) return sentence
  let score: number[] | null = null
  let t = tokens.from
  for (const m of matches) {
    while (t <= tokens.to && tokens.offset + tokens.start[t] < m.end) t++
    if (t > tokens.to) break
    if (tokens.offset + tokens.start[t] - m.end > NAME_GAP) continue
    let last = -1
    for (let k = t, words = 0; k <= tokens.to && words < NAME_WORDS; k++) {
      const value = tokens.value[k]
      if (NAME_JOINER.has(value) && last === k - 1 && k < tokens.to && NAME_WORD.test(tokens.value[k + 1])) continue
      if (!NAME_WORD.test(value) || NOT_NAME.has(tokens.pos[k])) break
      // a capitalised adjective opening a fragment after the name ("… Pro 2 Excellent noise cancellation")
      if (tokens.score[k] !== 0 && k < tokens.to && /^\p{Ll}/u.test(tokens.value[k + 1]) && DESCRIBED.has(tokens.pos[k + 1])) break
      last = k
      words++
      if (tokens.score[k] !== 0) (score ??= tokens.score.slice())[k] = 0
    }
  }
  if (score === null) return sentence
  return { ...sentence, sentiment: meanTokenScore(score, tokens.from, tokens.to), tokens: { ...tokens, score } }
}
