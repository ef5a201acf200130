import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeJsonBody, findIllFormedString } from '../../src/http/json-body.js'

const strict = new TextDecoder('utf-8', { fatal: true })
const isValidUtf8 = (bytes: Uint8Array) => {
  try {
    strict.decode(bytes)
    return true
  } catch {
    return false
  }
}

describe('decodeJsonBody', () => {
  it('agrees with a strict decoder on which byte strings are UTF-8, and decodes those exactly', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.string({ unit: 'binary' }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
      // valid text with one byte changed: truncated sequences, stray continuations, overlongs
      fc.tuple(fc.string({ unit: 'binary', minLength: 1 }), fc.nat(), fc.integer({ min: 0x80, max: 0xff })).map(([s, at, byte]) => {
        const b = Buffer.from(s, 'utf8')
        b[at % b.length] = byte
        return new Uint8Array(b)
      }),
    )
    fc.assert(
      fc.property(bytes, (raw) => {
        const { text, invalidUtf8 } = decodeJsonBody(Buffer.from(raw))
        expect(invalidUtf8).toBe(!isValidUtf8(raw))
        if (!invalidUtf8) expect(text).toBe(strict.decode(raw))
        // Invalid input always leaves a lone surrogate behind for the field check to find.
        else expect(findIllFormedString(text)).toBe('')
      }),
      { numRuns: 2000 },
    )
  })

  it('marks each bad sequence and keeps the text around it', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xc3, 0x28]), Buffer.from('y","b":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])
    const { text, invalidUtf8 } = decodeJsonBody(bytes)
    expect(invalidUtf8).toBe(true)
    const value = JSON.parse(text)
    expect(value.a).toBe('x\uD800(y')
    expect(findIllFormedString(value)).toBe('a')
  })
})

describe('findIllFormedString', () => {
  it('names the first field, in document order, that holds a lone surrogate', () => {
    expect(findIllFormedString({ responses: [{ content: 'ok 😀' }, { content: 'a\uDC00', model: '\uD800' }] })).toBe('responses[1].content')
    expect(findIllFormedString({ 'bad\uD83D': 1 })).toBe('bad\uD83D')
    expect(findIllFormedString({ a: { b: ['x', 'y\uDBFF'] } })).toBe('a.b[1]')
    expect(findIllFormedString('\uDE00')).toBe('')
  })

  it('accepts complete pairs and ordinary text', () => {
    expect(findIllFormedString({ text: '😀 \uD83D\uDE00 \uFFFD', tags: ['é', '中文'], n: 1, z: null })).toBeUndefined()
  })
})
