import { describe, expect, it } from 'vitest'
import { findAioAppearances } from '../../src/analysis/aio.js'
import type { BrandTerms } from '../../src/analysis/mentions.js'

const brands: BrandTerms[] = [
  { id: 'notion', name: 'Notion', aliases: [], domain: 'notion.so' },
  { id: 'asana', name: 'Asana', aliases: [], domain: null },
  { id: 'trello', name: 'Trello', aliases: [], domain: null },
]

describe('findAioAppearances', () => {
  it('lists appearing brands by position', () => {
    expect(findAioAppearances('Popular tools include Asana, Trello and Asana-like Notion.', brands)).toEqual([
      { brandId: 'asana', position: 1 },
      { brandId: 'trello', position: 2 },
      { brandId: 'notion', position: 3 },
    ])
  })

  it('returns nothing without an overview', () => {
    expect(findAioAppearances(null, brands)).toEqual([])
    expect(findAioAppearances(undefined, brands)).toEqual([])
    expect(findAioAppearances('', brands)).toEqual([])
  })

  it('ignores brand names inside the overview links', () => {
    expect(findAioAppearances('Source: https://example.com/notion-vs-asana', brands)).toEqual([])
  })
})
