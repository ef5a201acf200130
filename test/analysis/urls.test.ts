import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findUrlSpans, normalizeUrl, registrableDomain, toHostname } from '../../src/analysis/urls.js'

describe('normalizeUrl', () => {
  it.each([
    // scheme and host case; path case is significant and kept
    ['HTTPS://Example.COM/Path/To', 'https://example.com/Path/To'],
    // www.
    ['https://www.example.com/a', 'https://example.com/a'],
    ['https://WWW.example.com/a', 'https://example.com/a'],
    ['https://www2.example.com/a', 'https://www2.example.com/a'],
    // fragment
    ['https://example.com/a#section-2', 'https://example.com/a'],
    ['https://example.com/#top', 'https://example.com/'],
    // default ports only
    ['http://example.com:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:443/a', 'http://example.com:443/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    // tracking parameters go, the rest keep their order and encoding
    ['https://example.com/a?utm_source=chatgpt&b=2&utm_medium=ai&gclid=x&a=1&fbclid=y&UTM_Campaign=z', 'https://example.com/a?b=2&a=1'],
    ['https://example.com/a?utm_source=chatgpt.com', 'https://example.com/a'],
    ['https://example.com/search?q=a+b%20c&utm_term=x', 'https://example.com/search?q=a+b%20c'],
    ['https://example.com/a?', 'https://example.com/a'],
    ['https://example.com/a?x=1&&y=2', 'https://example.com/a?x=1&y=2'],
    ['https://example.com/a?utm=1', 'https://example.com/a?utm=1'],
    // trailing slash, except the root path
    ['https://example.com/a/', 'https://example.com/a'],
    ['https://example.com/a//', 'https://example.com/a'],
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/?q=1', 'https://example.com/?q=1'],
    // IDN host to punycode (WHATWG); path percent-encoded
    ['https://münchen.de/straße', 'https://xn--mnchen-3ya.de/stra%C3%9Fe'],
    ['https://www.MÜNCHEN.de/', 'https://xn--mnchen-3ya.de/'],
    // credentials never kept; trailing dot of a fully qualified host dropped
    ['https://user:secret@example.com/a', 'https://example.com/a'],
    ['https://example.com./a', 'https://example.com/a'],
    // surrounding whitespace
    ['  https://example.com/a \n', 'https://example.com/a'],
    // `www.` stays when what is left is a public suffix, not a site
    ['https://www.gov.uk/browse/tax', 'https://www.gov.uk/browse/tax'],
    // balanced parentheses are path characters
    ['https://en.wikipedia.org/wiki/Mercury_(planet)', 'https://en.wikipedia.org/wiki/Mercury_(planet)'],
    // private-suffix hosts are sites of their own
    ['https://acme.github.io/docs/', 'https://acme.github.io/docs'],
  ])('%s -> %s', (raw, expected) => {
    expect(normalizeUrl(raw)).toBe(expected)
  })

  it.each([
    ['ftp://example.com/file'],
    ['mailto:someone@example.com'],
    ['javascript:alert(1)'],
    ['data:text/plain,hi'],
    ['example.com/a'],
    ['//example.com/a'],
    ['https:example.com'],
    ['https://'],
    ['http://'],
    ['not a url'],
    [''],
    ['   '],
    ['https://exa mple.com/'],
    ['http://localhost:3000/x'],
    ['http://127.0.0.1/x'],
    ['http://[::1]/x'],
    ['http://intranet.local/x'],
    ['http://printer.lan/'],
    ['http://xn--a.0.com/'],
    ['https://gov.uk/'],
  ])('rejects %j', (raw) => {
    expect(normalizeUrl(raw)).toBeNull()
  })

  it('rejects non-string input defensively', () => {
    expect(normalizeUrl(undefined as unknown as string)).toBeNull()
  })

  // Labels starting "xn--" are punycode and must decode; the URL parser rightly refuses
  // random ones (e.g. http://xn--a.0.com), so the generator leaves them out.
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--'))
  const anyCase = (s: string, flips: boolean[]) => [...s].map((c, i) => (flips[i % Math.max(flips.length, 1)] ? c.toUpperCase() : c)).join('')
  const url = fc
    .record({
      scheme: fc.constantFrom('http', 'https', 'HTTP', 'Https'),
      www: fc.constantFrom('', 'www.', 'WWW.'),
      sub: fc.array(label, { maxLength: 2 }),
      site: label,
      suffix: fc.constantFrom('com', 'co.uk', 'org', 'io', 'github.io', 'de', 'xn--p1ai'),
      port: fc.constantFrom('', ':80', ':443', ':8080'),
      path: fc.webPath(),
      query: fc.option(fc.webQueryParameters(), { nil: undefined }),
      tracking: fc.array(fc.constantFrom('utm_source=x', 'gclid=1', 'fbclid=2', 'UTM_medium=y'), { maxLength: 2 }),
      fragment: fc.option(fc.webFragments(), { nil: undefined }),
      flips: fc.array(fc.boolean(), { maxLength: 5 }),
    })
    .map((u) => {
      const host = anyCase([...u.sub, u.site, u.suffix].join('.'), u.flips)
      const params = [u.query, ...u.tracking].filter((p) => p !== undefined && p !== '')
      return `${u.scheme}://${u.www}${host}${u.port}${u.path}` + (params.length ? `?${params.join('&')}` : '') + (u.fragment !== undefined ? `#${u.fragment}` : '')
    })

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(url, (raw) => {
        const once = normalizeUrl(raw)
        expect(once).not.toBeNull()
        expect(normalizeUrl(once as string)).toBe(once)
      }),
      { numRuns: 500 },
    )
  })

  it('never keeps fragments, tracking parameters or www. (property)', () => {
    fc.assert(
      fc.property(url, (raw) => {
        const normalized = normalizeUrl(raw) as string
        const parsed = new URL(normalized)
        expect(parsed.hash).toBe('')
        expect(parsed.hostname.startsWith('www.')).toBe(false)
        expect(parsed.hostname).toBe(parsed.hostname.toLowerCase())
        for (const key of parsed.searchParams.keys()) expect(key).not.toMatch(/^(utm_|gclid$|fbclid$)/i)
      }),
      { numRuns: 300 },
    )
  })

  it('never throws on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.string({ unit: 'binary' })), (raw) => {
        const result = normalizeUrl(raw)
        expect(result === null || /^https?:\/\//.test(result)).toBe(true)
      }),
    )
  })
})

describe('registrableDomain', () => {
  it.each([
    ['en.wikipedia.org', 'wikipedia.org'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['bbc.co.uk', 'bbc.co.uk'],
    ['https://www.example.co.uk/path?x=1', 'example.co.uk'],
    ['http://shop.example.com:8080/', 'example.com'],
    ['EXAMPLE.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['www.example.com/some/path', 'example.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    // private suffix section: separate sites on shared hosting stay separate
    ['acme.github.io', 'acme.github.io'],
    ['blog.acme.vercel.app', 'acme.vercel.app'],
    // …but a private suffix itself still resolves
    ['github.io', 'github.io'],
    ['www.gov.uk', 'www.gov.uk'],
  ])('%s -> %s', (input, expected) => {
    expect(registrableDomain(input)).toBe(expected)
  })

  it.each([['localhost'], ['127.0.0.1'], ['http://[::1]/'], ['gov.uk'], ['co.uk'], ['printer.local'], [''], ['  ']])('%j has none', (input) => {
    expect(registrableDomain(input)).toBeNull()
  })
})

describe('toHostname', () => {
  it('accepts hosts, URLs of any scheme and junk', () => {
    expect(toHostname('Example.com')).toBe('example.com')
    expect(toHostname('https://www.Example.com/x')).toBe('www.example.com')
    expect(toHostname('ftp://files.example.com/x')).toBe('files.example.com')
    expect(toHostname('')).toBeNull()
    expect(toHostname('http://')).toBeNull()
  })
})

describe('findUrlSpans', () => {
  const urls = (text: string) => findUrlSpans(text).map((s) => s.url)

  it('finds bare URLs with offsets into the text', () => {
    const text = 'See https://example.com/a?b=1 for details'
    expect(findUrlSpans(text)).toEqual([{ url: 'https://example.com/a?b=1', start: 4, end: 29 }])
  })

  it('leaves trailing sentence punctuation out of bare URLs', () => {
    expect(urls('Go to https://example.com/a. Then https://b.com/x, and https://c.com/y; or https://d.com!')).toEqual([
      'https://example.com/a',
      'https://b.com/x',
      'https://c.com/y',
      'https://d.com',
    ])
    expect(urls('"https://quoted.com/a" and **https://bold.com/b** and _https://em.com/c_')).toEqual(['https://quoted.com/a', 'https://bold.com/b', 'https://em.com/c'])
  })

  it('keeps balanced parentheses but not an unbalanced closing one', () => {
    expect(urls('(see https://en.wikipedia.org/wiki/Mercury_(planet)).')).toEqual(['https://en.wikipedia.org/wiki/Mercury_(planet)'])
    expect(urls('(source: https://example.com/a)')).toEqual(['https://example.com/a'])
  })

  it('stops at markdown, HTML and CJK delimiters', () => {
    expect(urls('<https://a.com/x> | https://b.com/y|next')).toEqual(['https://a.com/x', 'https://b.com/y'])
    expect(urls('请访问https://mi.com/phone。谢谢')).toEqual(['https://mi.com/phone'])
    expect(urls('`https://code.com/x`')).toEqual(['https://code.com/x'])
  })

  it('finds markdown link targets of any scheme, but not the link text', () => {
    const text = 'Read [the guide](https://example.com/guide "Guide") and [docs](/docs/start) or ![img](<https://cdn.com/a b.png>).'
    const spans = findUrlSpans(text)
    expect(spans.map((s) => s.url)).toEqual(['https://example.com/guide', '/docs/start', 'https://cdn.com/a b.png'])
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.url)
  })

  it('handles citation-style link text and link text that is itself a URL', () => {
    expect(urls('Fast [[1]](https://a.com/x) and [https://b.com/y](https://b.com/y)')).toEqual(['https://a.com/x', 'https://b.com/y', 'https://b.com/y'])
  })

  it('ignores a scheme with nothing after it and text without URLs', () => {
    expect(findUrlSpans('http:// and https://.')).toEqual([])
    expect(findUrlSpans('no links here')).toEqual([])
    expect(findUrlSpans('')).toEqual([])
  })

  it('returns sorted, non-overlapping spans that slice back to their URL (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '. ', '(', ')', '[x]', '](', '\n', '**', '"', 'text', '小米', '|'),
      fc.webUrl(),
      fc.webUrl().map((u) => `[link](${u})`),
      fc.webUrl().map((u) => `(${u})`),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('')
        const spans = findUrlSpans(text)
        let last = 0
        for (const s of spans) {
          expect(s.start).toBeGreaterThanOrEqual(last)
          expect(s.end).toBeGreaterThan(s.start)
          expect(text.slice(s.start, s.end)).toBe(s.url)
          last = s.end
        }
      }),
    )
  })
})
