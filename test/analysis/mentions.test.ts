import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BrandMatcher, compileBrandMatcher, findMentionMatches, findMentions, positionsFromFirstIndexes, type BrandTerms } from '../../src/analysis/mentions.js'

const brand = (id: string, name: string, aliases: string[] = [], domain: string | null = null): BrandTerms => ({
  id,
  name,
  aliases,
  domain,
})

/** [brandId, matched text] pairs, the most readable form for assertions. */
function found(text: string, brands: BrandTerms[]): [string, string][] {
  return findMentionMatches(text, brands).map((m) => [m.brandId, text.slice(m.start, m.end)])
}

describe('findMentionMatches: word boundaries', () => {
  const notion = [brand('notion', 'Notion')]

  it('does not match inside a longer word', () => {
    expect(found('Notional amounts and notions', notion)).toEqual([])
    expect(found('NotionAI and Notion2 and MyNotion', notion)).toEqual([])
  })

  it('matches next to punctuation, possessives and hyphens', () => {
    expect(found("Notion's editor, (Notion), Notion-based, «Notion»", notion).map(([, t]) => t)).toEqual(['Notion', 'Notion', 'Notion', 'Notion'])
  })

  it('matches at the very start and end of the text', () => {
    expect(findMentionMatches('Notion', notion)).toEqual([{ brandId: 'notion', start: 0, end: 6 }])
  })

  it('is case-insensitive', () => {
    expect(found('NOTION, notion and NoTiOn', notion).map(([, t]) => t)).toEqual(['NOTION', 'notion', 'NoTiOn'])
  })

  it('escapes regular-expression characters in terms', () => {
    const brands = [brand('node', 'Node.js'), brand('cpp', 'C++'), brand('q', 'Q&A (beta)')]
    expect(found('Node.js, Nodexjs, C++ and Q&A (beta)', brands)).toEqual([
      ['node', 'Node.js'],
      ['cpp', 'C++'],
      ['q', 'Q&A (beta)'],
    ])
    expect(found('C++x', brands)).toEqual([])
  })
})

describe('findMentionMatches: Unicode', () => {
  it('matches accented multi-word names, case-insensitively, across whitespace runs', () => {
    const brands = [brand('nero', 'Café Nero')]
    expect(found('Café Nero, CAFÉ NERO, Café  Nero and Café\nNero', brands).map(([, t]) => t)).toEqual(['Café Nero', 'CAFÉ NERO', 'Café  Nero', 'Café\nNero'])
  })

  it('does not treat an accented letter as a boundary', () => {
    expect(found('Cafés Nero and Café Neroé', [brand('nero', 'Café Nero')])).toEqual([])
    expect(found('Zürich and Zürichsee', [brand('z', 'Zürich')]).map(([, t]) => t)).toEqual(['Zürich'])
  })

  it('matches decomposed (NFD) text and does not match a base letter before a combining accent', () => {
    const decomposed = 'Cafe\u0301 Nero'
    expect(found(decomposed, [brand('nero', 'Café Nero')])).toEqual([['nero', decomposed]])
    expect(found(decomposed, [brand('cafe', 'Cafe')])).toEqual([])
  })

  it('keeps offsets right after astral characters (emoji)', () => {
    const text = '🚀🚀 Notion 👍'
    const [m] = findMentionMatches(text, [brand('notion', 'Notion')])
    expect(text.slice(m.start, m.end)).toBe('Notion')
  })

  it('finds a CJK name among CJK characters (no spaces between words)', () => {
    const xiaomi = [brand('mi', '小米', ['Xiaomi'])]
    expect(found('我喜欢小米手机。', xiaomi)).toEqual([['mi', '小米']])
    expect(found('小米', xiaomi)).toEqual([['mi', '小米']])
  })

  it('finds a CJK name next to digits or Latin letters (script change is a boundary)', () => {
    const xiaomi = [brand('mi', '小米', ['Xiaomi'])]
    expect(found('小米14 和 小米SU7', xiaomi).map(([, t]) => t)).toEqual(['小米', '小米'])
  })

  it('finds a Latin name written inside CJK text', () => {
    expect(found('我用Notion做笔记', [brand('notion', 'Notion')])).toEqual([['notion', 'Notion']])
    expect(found('XiaomiPhone, Xiaomi手机', [brand('mi', '小米', ['Xiaomi'])])).toEqual([['mi', 'Xiaomi']])
  })

  it('handles Japanese and Korean names followed by particles', () => {
    expect(found('ソニーの製品はソニー。', [brand('sony', 'ソニー')]).map(([, t]) => t)).toEqual(['ソニー', 'ソニー'])
    expect(found('삼성은 좋은 회사입니다', [brand('samsung', '삼성')])).toEqual([['samsung', '삼성']])
  })
})

describe('findMentionMatches: overlaps between brands', () => {
  const mondayA = brand('a', 'Monday')
  const mondayB = brand('b', 'Monday.com')

  it('prefers the longest term at the same start, whatever the brand order', () => {
    const text = 'Monday.com is a tool. I start on Monday. See monday.com'
    const expected = [
      ['b', 'Monday.com'],
      ['a', 'Monday'],
      ['b', 'monday.com'],
    ]
    expect(found(text, [mondayA, mondayB])).toEqual(expected)
    expect(found(text, [mondayB, mondayA])).toEqual(expected)
  })

  it('falls back to the shorter term when the longer one fails its boundary', () => {
    expect(found('monday.community', [mondayA, mondayB])).toEqual([['a', 'monday']])
  })

  it('lets the earliest start win over a longer later overlap', () => {
    const brands = [brand('docs', 'Google Docs'), brand('dh', 'Docs Hub')]
    expect(found('Google Docs Hub', brands)).toEqual([['docs', 'Google Docs']])
  })

  it('gives a term claimed by two brands to the first listed', () => {
    expect(found('Acme rocks', [brand('x', 'Acme'), brand('y', 'Other', ['acme'])])).toEqual([['x', 'Acme']])
  })

  it('never returns overlapping or unsorted matches (property)', () => {
    const names = ['Monday', 'Monday.com', 'Day', 'Mon', 'Café Nero', 'Nero', '小米', '小米手机', 'Notion', 'AI']
    const brandsArb = fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: names.length }).map((ns) => ns.map((n, i) => brand(`b${i}`, n)))
    const piece = fc.constantFrom(...names, ' ', '.', 'com', 'munity', 'x', '小', '手机', '\n', 'https://x.com/', '[t](u)')
    fc.assert(
      fc.property(brandsArb, fc.array(piece, { maxLength: 25 }), (brands, pieces) => {
        const text = pieces.join('')
        const matches = findMentionMatches(text, brands)
        const terms = new Map(brands.map((b) => [b.id, b.name.toLowerCase()]))
        let lastEnd = 0
        for (const m of matches) {
          expect(m.start).toBeGreaterThanOrEqual(lastEnd)
          expect(text.slice(m.start, m.end).toLowerCase().replace(/\s+/g, ' ')).toBe(terms.get(m.brandId))
          lastEnd = m.end
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('findMentionMatches: URLs and domains', () => {
  const notion = brand('notion', 'Notion', [], 'notion.so')

  it('does not match inside bare URLs', () => {
    expect(found('See https://www.notion.so/product and https://example.com/blog/notion-review.', [notion])).toEqual([])
  })

  it('matches markdown link text but not its target', () => {
    const text = 'Try [Notion](https://notion.so/notion) or [the docs](https://example.com/Notion).'
    expect(findMentionMatches(text, [notion])).toEqual([{ brandId: 'notion', start: 5, end: 11 }])
  })

  it('does not match relative or scheme-less markdown targets', () => {
    expect(found('[docs](notion.so/help)', [notion])).toEqual([])
  })

  it('matches the domain written as prose, also under www. or in an email address', () => {
    expect(found('Sign up at notion.so, www.notion.so or help@notion.so', [notion]).map(([, t]) => t)).toEqual(['notion.so', 'notion.so', 'notion.so'])
  })

  it('accepts a domain configured as a URL and a punycode domain written natively', () => {
    const monday = brand('m', 'Mon', [], 'https://www.Monday.com/pricing')
    expect(found('monday.com is fine', [monday])).toEqual([['m', 'monday.com']])
    const munich = brand('mu', 'Munich Co', [], 'xn--mnchen-3ya.de')
    expect(found('see münchen.de', [munich])).toEqual([['mu', 'münchen.de']])
  })

  it('does not let a multi-word term bridge across a URL', () => {
    expect(found('Café https://x.com/ Nero', [brand('nero', 'Café Nero')])).toEqual([])
  })

  it('matches immediately after a link', () => {
    expect(found('[x](https://a.com)Notion', [notion]).map(([, t]) => t)).toEqual(['Notion'])
  })
})

describe('findMentionMatches: degenerate input', () => {
  it('handles empty text, no brands and empty terms', () => {
    expect(findMentionMatches('', [brand('n', 'Notion')])).toEqual([])
    expect(findMentionMatches('Notion', [])).toEqual([])
    expect(findMentionMatches('Notion', [brand('n', '  ', ['', ' '])])).toEqual([])
  })

  it('uses aliases', () => {
    expect(found('Meta, formerly Facebook', [brand('meta', 'Meta', ['Facebook', ''])])).toEqual([
      ['meta', 'Meta'],
      ['meta', 'Facebook'],
    ])
  })
})

describe('findMentions', () => {
  const brands = [brand('notion', 'Notion'), brand('asana', 'Asana'), brand('trello', 'Trello'), brand('jira', 'Jira')]

  it('counts occurrences and ranks by first mention', () => {
    const text = 'Asana leads. Notion is next; Asana again. Then Trello. Asana!'
    const mentions = findMentions(text, brands)
    expect(mentions.map((m) => [m.brandId, m.position, m.occurrences, m.firstIndex])).toEqual([
      ['asana', 1, 3, 0],
      ['notion', 2, 1, 13],
      ['trello', 3, 1, 47],
    ])
    expect(mentions[0].matches.map((m) => text.slice(m.start, m.end))).toEqual(['Asana', 'Asana', 'Asana'])
  })

  it('does not let repeated mentions move other brands', () => {
    const once = findMentions('Notion then Asana.', brands)
    const many = findMentions('Notion Notion Notion then Asana.', brands)
    expect(once.map((m) => [m.brandId, m.position])).toEqual(many.map((m) => [m.brandId, m.position]))
  })

  it('returns nothing when no brand is mentioned', () => {
    expect(findMentions('Nothing relevant here', brands)).toEqual([])
  })

  it('accepts a precompiled matcher', () => {
    const matcher = compileBrandMatcher(brands)
    expect(findMentions('Jira and Notion', matcher)).toEqual(findMentions('Jira and Notion', brands))
  })

  it('keeps position = 1 + brands first mentioned earlier (property)', () => {
    const word = fc.constantFrom('Notion', 'Asana', 'Trello', 'Jira', 'and', 'the', ', ', '. ')
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), (words) => {
        const text = words.join(' ')
        const mentions = findMentions(text, brands)
        for (const m of mentions) {
          const earlier = mentions.filter((o) => o.brandId !== m.brandId && o.firstIndex < m.firstIndex).length
          expect(m.position).toBe(1 + earlier)
          expect(m.occurrences).toBe(m.matches.length)
          expect(m.firstIndex).toBe(m.matches[0].start)
        }
        const total = mentions.reduce((n, m) => n + m.occurrences, 0)
        expect(total).toBe(findMentionMatches(text, brands).length)
      }),
    )
  })
})

describe('positionsFromFirstIndexes', () => {
  it('shares a position between ties and skips after them', () => {
    expect(positionsFromFirstIndexes([10, 5, 10, 20])).toEqual([2, 1, 2, 4])
    expect(positionsFromFirstIndexes([3, 3, 3])).toEqual([1, 1, 1])
    expect(positionsFromFirstIndexes([])).toEqual([])
  })
})

describe('compileBrandMatcher', () => {
  it('caches by identity and by content', () => {
    const a = [brand('n', 'Notion', ['N AI'], 'notion.so')]
    const b = [brand('n', 'Notion', ['N AI'], 'notion.so')]
    const m = compileBrandMatcher(a)
    expect(m).toBeInstanceOf(BrandMatcher)
    expect(compileBrandMatcher(a)).toBe(m)
    expect(compileBrandMatcher(b)).toBe(m)
    expect(compileBrandMatcher([brand('n', 'Notion', ['Other'], 'notion.so')])).not.toBe(m)
  })

  it('is reusable across texts (no regex state leaks between calls)', () => {
    const m = compileBrandMatcher([brand('n', 'Notion')])
    expect(m.match('Notion Notion').length).toBe(2)
    expect(m.match('Notion').length).toBe(1)
  })
})

describe('findMentionMatches: typographic variants and markdown escapes (docs/analysis.md)', () => {
  it('treats curly and straight apostrophes as one character, both ways round', () => {
    const straight = [brand('pc', "Paula's Choice")]
    for (const apostrophe of ['’', '‘', 'ʼ', '′', "'"]) {
      expect(found(`I like Paula${apostrophe}s Choice a lot`, straight)).toEqual([['pc', `Paula${apostrophe}s Choice`]])
    }
    expect(found("Ben & Jerry's and Ben & Jerry’s", [brand('bj', 'Ben & Jerry’s')]).map(([, t]) => t)).toEqual(["Ben & Jerry's", 'Ben & Jerry’s'])
  })

  it('treats curly quotes and dashes as their ASCII forms', () => {
    expect(found('T–Mobile, T—Mobile, T‑Mobile and T-Mobile', [brand('t', 'T-Mobile')]).length).toBe(4)
    expect(found('the “Best” Bakery and the "Best" Bakery', [brand('b', 'the "Best" Bakery')]).length).toBe(2)
  })

  it('reads markdown escapes unescaped, and the match covers the backslash', () => {
    const text = 'Carriers: **AT\\&T** and E\\*TRADE'
    expect(found(text, [brand('att', 'AT&T'), brand('et', 'E*TRADE')])).toEqual([
      ['att', 'AT\\&T'],
      ['et', 'E\\*TRADE'],
    ])
    // A backslash before a letter is not an escape.
    expect(found('AT\\T', [brand('att', 'AT&T')])).toEqual([])
  })

  it('matches a name ending in a full stop when a letter follows the stop', () => {
    const warner = [brand('wb', 'Warner Bros.')]
    expect(found('Warner Bros.Discovery, Warner Bros. Pictures, by Warner Bros.', warner).map(([, t]) => t)).toEqual(['Warner Bros.', 'Warner Bros.', 'Warner Bros.'])
    // the start of the name still needs its boundary
    expect(found('XWarner Bros.', warner)).toEqual([])
  })
})

// The previous implementation (one alternation RegExp, longest first) is the reference for
// the overlap and boundary rules on plain ASCII terms, where no folding applies.
function regexReference(text: string, brands: BrandTerms[]): [string, string][] {
  const seen = new Set<string>()
  const terms: { id: string; text: string }[] = []
  for (const b of brands)
    for (const t of [b.name, ...b.aliases]) {
      if (seen.has(t.toLowerCase())) continue
      seen.add(t.toLowerCase())
      terms.push({ id: b.id, text: t })
    }
  const sorted = terms.map((t, order) => ({ ...t, order })).sort((a, b) => b.text.length - a.text.length || a.order - b.order)
  const alternatives = sorted
    .map(
      (t) =>
        `(${t.text
          .replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
          .split(' ')
          .join('\\s+')})`,
    )
    .join('|')
  const regex = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${alternatives})(?![\\p{L}\\p{N}\\p{M}])`, 'giu')
  return [...text.matchAll(regex)].map((m) => [sorted[m.slice(1).findIndex((g) => g !== undefined)].id, m[0]])
}

describe('BrandMatcher: automaton agrees with the regular-expression rules', () => {
  it('finds what the reference alternation finds on random texts (property)', () => {
    const word = fc.constantFrom('a', 'b', 'ab', 'ba', 'Ab')
    const term = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '))
    const brandsArb = fc
      .array(fc.array(term, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 })
      .map((list) => list.map(([name, ...aliases], i) => brand(`b${i}`, name, aliases)))
    const textArb = fc.array(fc.constantFrom('a', 'b', 'ab', 'A', ' ', ' ', ' ', '  ', '\n', '.', 'x', '1'), { maxLength: 30 }).map((cs) => cs.join(''))
    fc.assert(
      fc.property(brandsArb, textArb, (brands, text) => {
        expect(new BrandMatcher(brands).match(text).map((m) => [m.brandId, text.slice(m.start, m.end)])).toEqual(regexReference(text, brands))
      }),
      { numRuns: 500 },
    )
  })

  it('handles 300 brands × 10 aliases and 100 brands × 50 aliases of 190 characters', () => {
    const many = Array.from({ length: 300 }, (_, b) =>
      brand(
        `b${b}`,
        `Brand${b}`,
        Array.from({ length: 10 }, (_, a) => `Brand${b} Alias ${a}`),
      ),
    )
    expect(found('Brand7 Alias 3 beats Brand299, not Brand3000.', many)).toEqual([
      ['b7', 'Brand7 Alias 3'],
      ['b299', 'Brand299'],
    ])
    const long = Array.from({ length: 100 }, (_, b) =>
      brand(
        `l${b}`,
        `Long${b}`,
        Array.from({ length: 50 }, (_, a) => `Long${b} ${a} ${'word '.repeat(40)}`.slice(0, 190).trim()),
      ),
    )
    const alias = long[42].aliases[17]
    expect(found(`Intro. ${alias}! Then Long1 and ${alias.slice(0, 100)}`, long)).toEqual([
      ['l42', alias],
      ['l1', 'Long1'],
      ['l42', 'Long42'],
    ])
  })
})
