// Google AI Mode answers lose the space after a label's colon ("Pros:Secure fit", "Sony
// WH-CH720N:Durable and light"). wink read the colon and the next capital as an emoticon
// (":S" −0.4, ":D" +0.6, ":P" +0.6) and the word without its first letter ("ecure"), so a
// label's colon scored and its first word did not (issue 30, a known wink fault).
import { describe, expect, it } from 'vitest'
import { scoreSentences } from '../../src/analysis/sentiment.js'

const tokensOf = (text: string) => {
  const t = scoreSentences(text)[0].tokens!
  const out: { value: string; score: number; at: number }[] = []
  for (let i = t.from; i <= t.to; i++) out.push({ value: t.value[i], score: t.score[i], at: t.offset + t.start[i] })
  return out
}

describe('a colon run into the next word', () => {
  it('is a colon, and the word keeps its first letter and its score', () => {
    for (const [text, word] of [
      ['Pros:Secure fit and long battery life.', 'Secure'],
      ['Sony WH-CH720N:Durable and light.', 'Durable'],
      ['Edge 40:Packed with features.', 'Packed'],
    ]) {
      const tokens = tokensOf(text)
      expect(tokens.map((t) => t.value)).toContain(':')
      const found = tokens.find((t) => t.value === word)
      expect(found, text).toBeDefined()
      // Offsets still point into the text as written (no space was added to it).
      expect(text.slice(found!.at, found!.at + word.length)).toBe(word)
      expect(tokens.find((t) => t.value === ':')!.score).toBe(0)
    }
  })

  it('scores the label’s words as with a space after the colon', () => {
    expect(scoreSentences('Pros:Secure fit, great sound.')[0].sentiment).toBeCloseTo(scoreSentences('Pros: Secure fit, great sound.')[0].sentiment, 6)
    expect(scoreSentences('Cons:Durable? Not really.')[0].tokens!.value).not.toContain(':D')
  })

  it('is one rule for a label after another label, a slash or a quote', () => {
    // These used to be repaired after the parse (the glued ":D" unscored, "urable" scored as
    // "durable"), which left tokens that are not words for clause analysis.
    for (const [text, word] of [
      ['Sony:Pros:Durable and light.', 'Durable'],
      ['Price/Value:Decent for the money.', 'Decent'],
      ['"Pros":Secure fit.', 'Secure'],
    ]) {
      const tokens = tokensOf(text)
      expect(
        tokens.map((t) => t.value).filter((v) => /^:\p{L}/u.test(v)),
        text,
      ).toEqual([])
      const found = tokens.find((t) => t.value === word)
      expect(found, text).toBeDefined()
      expect(found!.score, text).toBeGreaterThan(0)
      expect(text.slice(found!.at, found!.at + word.length)).toBe(word)
    }
  })

  it('keeps an emoticon that stands alone', () => {
    for (const text of ['What a fun night!:D', 'Loved it :D', 'Dinner was great :P']) {
      const values = scoreSentences(text).flatMap((s) => s.tokens!.value.slice(s.tokens!.from, s.tokens!.to + 1))
      expect(values, text).toContain(text.slice(-2))
      expect(scoreSentences(text).at(-1)!.sentiment, text).toBeGreaterThan(0)
    }
  })

  it('leaves times and addresses alone', () => {
    expect(tokensOf('Opens at 10:30 daily.').map((t) => t.value)).toContain('10:30')
    expect(tokensOf('See https://example.com/a:b for more.').map((t) => t.value)).not.toContain(':')
    expect(tokensOf('See www.example.com/a:Decent for more.').map((t) => t.value)).not.toContain(':')
  })
})
