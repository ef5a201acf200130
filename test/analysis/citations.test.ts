import { describe, expect, it } from 'vitest'
import { extractCitations } from '../../src/analysis/citations.js'

describe('extractCitations', () => {
  it('normalizes provider URLs and derives the registrable domain', () => {
    expect(extractCitations('', [{ url: 'https://EN.Wikipedia.org/wiki/Notion_(software)#history', title: 'Notion' }])).toEqual([
      { url: 'https://en.wikipedia.org/wiki/Notion_(software)', domain: 'wikipedia.org', title: 'Notion' },
    ])
  })

  it('lists provider citations first, then content URLs, in first-seen order', () => {
    const content = 'See https://c.com/x and [docs](https://b.com/docs) then https://a.com/ again https://c.com/x.'
    const citations = extractCitations(content, [{ url: 'https://a.com', title: 'A' }, { url: 'https://z.com/1' }])
    expect(citations.map((c) => c.url)).toEqual(['https://a.com/', 'https://z.com/1', 'https://c.com/x', 'https://b.com/docs'])
  })

  it('de-duplicates by normalized URL', () => {
    const citations = extractCitations('https://www.example.com/a/?utm_source=chatgpt.com#top', [{ url: 'https://example.com/a' }, { url: 'HTTPS://EXAMPLE.COM:443/a?gclid=123' }])
    expect(citations).toEqual([{ url: 'https://example.com/a', domain: 'example.com', title: '' }])
  })

  it('keeps the last non-empty provider title', () => {
    const citations = extractCitations('', [
      { url: 'https://example.com/a', title: 'First' },
      { url: 'https://example.com/a?utm_medium=x', title: '  Second  ' },
      { url: 'https://example.com/a', title: '' },
      { url: 'https://example.com/a', title: null },
      { url: 'https://example.com/a', title: '   ' },
    ])
    expect(citations).toEqual([{ url: 'https://example.com/a', domain: 'example.com', title: 'Second' }])
  })

  it('never uses markdown link text as a title', () => {
    expect(extractCitations('[Great guide](https://example.com/guide)', [])).toEqual([{ url: 'https://example.com/guide', domain: 'example.com', title: '' }])
  })

  it('gives a content URL the provider title when the provider also cited it', () => {
    expect(extractCitations('[1](https://example.com/guide)', [{ url: 'https://example.com/guide/', title: 'Guide' }])).toEqual([
      { url: 'https://example.com/guide', domain: 'example.com', title: 'Guide' },
    ])
  })

  it('skips invalid URLs from both sources', () => {
    const content = '[local](http://localhost:3000/x) [rel](/docs) [mail](mailto:a@b.com) http://10.0.0.1/x https://ok.com/y'
    const citations = extractCitations(content, [
      { url: 'not a url', title: 'x' },
      { url: 'ftp://files.com/a' },
      { url: '' },
      null as unknown as { url: string },
      { url: 42 as unknown as string },
    ])
    expect(citations).toEqual([{ url: 'https://ok.com/y', domain: 'ok.com', title: '' }])
  })

  it('uses the registrable domain for multi-part suffixes and shared hosting', () => {
    const citations = extractCitations('https://news.bbc.co.uk/a https://acme.github.io/b', [])
    expect(citations.map((c) => c.domain)).toEqual(['bbc.co.uk', 'acme.github.io'])
  })

  it('handles empty input', () => {
    expect(extractCitations('', [])).toEqual([])
  })
})
