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

  it('leaves times and addresses alone', () => {
    expect(tokensOf('Opens at 10:30 daily.').map((t) => t.value)).toContain('10:30')
    expect(tokensOf('See https://example.com/a:b for more.').map((t) => t.value)).not.toContain(':')
  })
})
