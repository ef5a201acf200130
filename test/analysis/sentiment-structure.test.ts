import { describe, expect, it } from 'vitest'
import { sign } from '../helpers/target-sentiment.js'
import { describeStructure } from '../../src/analysis/clauses.js'
import { scoreSentences } from '../../src/analysis/sentiment.js'

const structure = (text: string) => describeStructure(scoreSentences(text)[0])

describe('time phrases say when, not what a clause is about (sixth round)', () => {
  it('lets the writer be the subject after "a few weeks ago" and "this morning"', () => {
    expect(structure('A few weeks ago I bought a blender.')).toContain('(a few weeks):b')
    expect(sign('A few weeks ago I bought a blender and it would not work.', 'blender')).toBe(-1)
    expect(sign('This morning I visited the bakery, and it was wonderful.', 'bakery')).toBe(1)
  })

  it('keeps a time phrase that is the subject of its verb, and a thing the tagger ran into one', () => {
    expect(structure('Last night was fun.')).toContain('(last night):s')
    expect(sign('I went to this hotel 3 months ago and I highly recommend it.', 'hotel')).toBe(1)
  })
})

describe("a target that is an action is its own verb's verdict (sixth round)", () => {
  it('scores a verb configured as the target by its own word', () => {
    expect(sign('Then we waited a long time.', 'waited')).toBe(-1)
    expect(sign('The app crashed twice.', 'crashed')).toBe(-1)
  })

  it('still ignores the words of a name', () => {
    expect(sign('We flew with Spirit to Denver.', 'Spirit')).toBe(0)
  })
})

describe('a verdict noun and what it is about (sixth round)', () => {
  it('gives the clause after "the only bad thing (is) that" the verdict', () => {
    expect(sign('The only bad thing is that the remote needs batteries.', 'remote')).toBe(-1)
    expect(sign('The only bad thing is that the remote needs batteries.', 'batteries')).toBe(-1)
    expect(sign('The best part that the staff remembered our names.', 'staff')).toBe(1)
  })

  it('leaves a "that" clause alone when its noun says nothing or is no verdict noun', () => {
    expect(sign('The thing that the waiter brought was a salad.', 'waiter')).toBe(0)
    expect(sign('The lovely cafe that the waiter mentioned was closed.', 'waiter')).toBe(0)
  })
})
