// The compact automaton (breadth-first rows in one buffer, built from sorted terms) against
// the plainest possible reference: every term tried at every position of the text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { automatonBytes, buildAutomaton, planAutomaton, runInSlices, runToEnd, type FlatTerms, type HitBuffer } from '../../src/analysis/term-automaton.js'

function flat(terms: number[][]): FlatTerms {
  const offsets = [0]
  for (const term of terms) offsets.push(offsets[offsets.length - 1] + term.length)
  return { codePoints: Int32Array.from(terms.flat()), offsets: Int32Array.from(offsets), count: terms.length }
}

function compile(terms: number[][]) {
  const plan = runToEnd(planAutomaton(flat(terms)))
  const buffer = new SharedArrayBuffer(plan.bytes)
  return { plan, buffer, automaton: runToEnd(buildAutomaton(plan, buffer, 0)) }
}

function search(terms: number[][], text: number[]): string[] {
  const { automaton } = compile(terms)
  const hits: HitBuffer = { data: new Int32Array(3) }
  const count = automaton.search(text, text.length, hits)
  return Array.from({ length: count }, (_, h) => `${hits.data[h * 3]}:${hits.data[h * 3 + 1]}-${hits.data[h * 3 + 2]}`).sort()
}

/** Every (term, start, end) where the term occurs; of equal terms only the first is reported. */
function naive(terms: number[][], text: number[]): string[] {
  const out: string[] = []
  terms.forEach((term, t) => {
    if (term.length === 0 || terms.findIndex((other) => other.join() === term.join()) !== t) return
    for (let start = 0; start + term.length <= text.length; start++) {
      if (term.every((c, i) => text[start + i] === c)) out.push(`${t}:${start}-${start + term.length}`)
    }
  })
  return out.sort()
}

// ASCII (root table), Latin-1, CJK and an astral code point: every child-lookup path.
const codePoint = fc.constantFrom(0x61, 0x62, 0x63, 0xe9, 0x4e00, 0x1f600)

describe('TermAutomaton', () => {
  it('finds exactly the occurrences the naive search finds (property)', () => {
    const terms = fc.array(fc.array(codePoint, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 25 })
    const text = fc.array(codePoint, { maxLength: 80 })
    fc.assert(
      fc.property(terms, text, (t, x) => {
        expect(search(t, x)).toEqual(naive(t, x))
      }),
      { numRuns: 1000 },
    )
  })

  it('has one node per distinct prefix, and the bytes it announces', () => {
    const terms = [[1, 2, 3], [1, 2], [1, 2, 4], [5], [1, 2, 3], [1, 9, 9, 9]]
    const { plan, automaton } = compile(terms)
    // root, 1, 12, 123, 124, 5, 19, 199, 1999
    expect(automaton.size).toBe(9)
    expect(plan.bytes).toBe(automatonBytes(9, terms.length))
    expect(plan.bytes).toBe(4 * (4 * 9 + 1 + 128 + 2 * terms.length))
  })

  it('builds the same bytes in slices as straight through', async () => {
    const terms = Array.from({ length: 3000 }, (_, i) => Array.from(`brand ${i} alias ${i % 7} ${'x'.repeat(i % 40)}`, (c) => c.codePointAt(0) as number))
    const straight = compile(terms)
    const plan = await runInSlices(planAutomaton(flat(terms)), 1)
    const buffer = new SharedArrayBuffer(plan.bytes)
    await runInSlices(buildAutomaton(plan, buffer, 0), 1)
    expect(Buffer.from(buffer).equals(Buffer.from(straight.buffer))).toBe(true)
  })
})
