// Finding brands in AI answers. One regular expression per brand set does the whole
// scan: JavaScript's leftmost-first alternation, with alternatives ordered longest
// first, is exactly the "earliest start wins, then longest" overlap rule.
import { findUrlSpans, hostToUnicode, toHostname, type UrlSpan } from './urls.js'

export interface BrandTerms {
  id: string
  name: string
  aliases: string[]
  domain: string | null
}

export interface MentionMatch {
  brandId: string
  start: number
  end: number
}

export interface BrandMention {
  brandId: string
  occurrences: number
  firstIndex: number
  position: number
  matches: MentionMatch[]
}

/** A brand set compiled for matching; build once per brand set and reuse across responses. */
export class BrandMatcher {
  /** Capture group i + 1 of `regex` belongs to brand `groupBrand[i]`. */
  private readonly groupBrand: readonly string[]
  private readonly regex: RegExp | null
  /** the brand set it was compiled from (worker threads compile their own copy) */
  readonly brands: readonly BrandTerms[]

  constructor(brands: readonly BrandTerms[]) {
    this.brands = brands
    const terms = collectTerms(brands)
    this.groupBrand = terms.map((t) => t.brandId)
    this.regex = terms.length === 0 ? null : compileTerms(terms)
  }

  /** Non-overlapping matches in `text`, sorted by start; `urlSpans` are skipped over. */
  match(text: string, urlSpans: readonly UrlSpan[] = findUrlSpans(text)): MentionMatch[] {
    const regex = this.regex
    if (regex === null || !text) return []
    const haystack = urlSpans.length === 0 ? text : maskSpans(text, urlSpans)
    const matches: MentionMatch[] = []
    const groups = this.groupBrand.length
    regex.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = regex.exec(haystack)) !== null) {
      let g = 1
      while (g <= groups && m[g] === undefined) g++
      matches.push({ brandId: this.groupBrand[g - 1], start: m.index, end: m.index + m[0].length })
    }
    return matches
  }
}

interface Term {
  brandId: string
  text: string
  length: number
  order: number
}

// A brand's terms: name, aliases and domain. Terms are tried longest first so that a
// longer term of another brand ("Monday.com") beats a shorter one ("Monday") at the same
// start. The same term claimed by two brands goes to the brand listed first: a term
// cannot be attributed to both without double-counting the text.
function collectTerms(brands: readonly BrandTerms[]): Term[] {
  const seen = new Set<string>()
  const terms: Term[] = []
  for (const brand of brands) {
    for (const raw of brandTermTexts(brand)) {
      // Both Unicode normal forms: `Café` typed with a combining accent must still match.
      for (const text of new Set([raw.normalize('NFC'), raw.normalize('NFD')])) {
        const key = text.toLowerCase()
        if (seen.has(key)) continue
        seen.add(key)
        terms.push({ brandId: brand.id, text, length: [...text].length, order: terms.length })
      }
    }
  }
  return terms.sort((a, b) => b.length - a.length || a.order - b.order)
}

function brandTermTexts(brand: BrandTerms): string[] {
  const texts = [brand.name, ...(brand.aliases ?? [])]
  const domainHost = brand.domain ? toHostname(brand.domain) : null
  if (domainHost !== null) {
    const host = domainHost.startsWith('www.') ? domainHost.slice(4) : domainHost
    // Answers write IDN domains in their native script, the config may hold punycode.
    texts.push(host, hostToUnicode(host))
  }
  return texts.map((t) => (typeof t === 'string' ? t.trim() : '')).filter((t) => t !== '')
}

// A brand name is a word: no letter, digit or combining mark may touch it, so `Notion`
// is not found in `Notional` and `Cafe` not in a decomposed `Café`.
//
// Chinese, Japanese and Korean are written without spaces between words (Korean glues
// particles on: 삼성은), so that rule cannot hold there. Two relaxations, both resting on
// "where the script changes, a word ends":
// - a term edge in a CJK script has no boundary requirement: 小米 is found in 小米手机
//   (neighbour CJK), 小米14 and 小米SU7 (neighbour of another script);
// - a CJK character does not block a non-CJK term edge: Notion in 我用Notion做笔记.
// Only a non-CJK letter/digit/mark next to a non-CJK term edge blocks a match. Script
// extensions include shared marks such as the katakana long vowel ー.
const CJK_CHAR = '[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}]'
const NON_CJK_WORD_CHAR = `(?!${CJK_CHAR})[\\p{L}\\p{N}\\p{M}]`
// One pair of assertions serves every term, because the term's own edge character
// tells which rule applies: "the term starts with a CJK character, or no non-CJK word
// character precedes it" (and mirrored at the end). Writing the Unicode classes once
// instead of once per term cuts building (and V8 compiling) a matcher from ~30 ms to a
// few ms.
const BEFORE_TERM = `(?:(?=${CJK_CHAR})|(?<!${NON_CJK_WORD_CHAR}))`
const AFTER_TERM = `(?:(?<=${CJK_CHAR})|(?!${NON_CJK_WORD_CHAR}))`

function compileTerms(terms: readonly Term[]): RegExp {
  // Alternation order is the overlap rule; when the end assertion fails for a longer
  // term the engine backtracks into the alternation and tries the shorter ones.
  const alternatives = terms.map((t) => `(${escapeTerm(t.text)})`).join('|')
  return new RegExp(`${BEFORE_TERM}(?:${alternatives})${AFTER_TERM}`, 'giu')
}

// Whitespace inside a term matches any run of whitespace, so a line break or double
// space in the answer does not hide "Café Nero".
function escapeTerm(text: string): string {
  return text
    .split(/\s+/u)
    .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))
    .join('\\s+')
}

// URL text is replaced, code unit for code unit, by a character that is neither a word
// character nor whitespace: offsets stay aligned, nothing inside a URL can match, and a
// term cannot bridge across a URL.
const MASK_CHAR = '\u0000'

function maskSpans(text: string, spans: readonly UrlSpan[]): string {
  let out = ''
  let last = 0
  for (const span of spans) {
    out += text.slice(last, span.start) + MASK_CHAR.repeat(span.end - span.start)
    last = span.end
  }
  return out + text.slice(last)
}

// Brand sets are usually rebuilt per request from the database, so identity caching alone
// would miss; a content key catches equal sets, the WeakMap skips building that key.
const byIdentity = new WeakMap<readonly BrandTerms[], BrandMatcher>()
const byContent = new Map<string, BrandMatcher>()
const CONTENT_CACHE_LIMIT = 256

/** The compiled matcher for a brand set (cached; equal brand sets share one). */
export function compileBrandMatcher(brands: readonly BrandTerms[]): BrandMatcher {
  const known = byIdentity.get(brands)
  if (known) return known
  const key = JSON.stringify(brands.map((b) => [b.id, b.name, b.aliases, b.domain]))
  let matcher = byContent.get(key)
  if (!matcher) {
    matcher = new BrandMatcher(brands)
    if (byContent.size >= CONTENT_CACHE_LIMIT) byContent.delete(byContent.keys().next().value as string)
    byContent.set(key, matcher)
  }
  byIdentity.set(brands, matcher)
  return matcher
}

function toMatcher(brands: readonly BrandTerms[] | BrandMatcher): BrandMatcher {
  return brands instanceof BrandMatcher ? brands : compileBrandMatcher(brands)
}

/**
 * Every brand-term occurrence outside URLs: non-overlapping, sorted by start. Where terms
 * overlap (across all brands) the earliest start wins, then the longest term.
 */
export function findMentionMatches(text: string, brands: readonly BrandTerms[] | BrandMatcher): MentionMatch[] {
  return toMatcher(brands).match(text)
}

/** One entry per mentioned brand, sorted by position then first occurrence. */
export function findMentions(text: string, brands: readonly BrandTerms[] | BrandMatcher): BrandMention[] {
  return mentionsFromMatches(findMentionMatches(text, brands))
}

/** Groups matches (sorted by start) into per-brand mentions with positions. */
export function mentionsFromMatches(matches: readonly MentionMatch[]): BrandMention[] {
  const byBrand = new Map<string, BrandMention>()
  for (const match of matches) {
    const mention = byBrand.get(match.brandId)
    if (mention) {
      mention.occurrences++
      mention.matches.push(match)
    } else {
      byBrand.set(match.brandId, {
        brandId: match.brandId,
        occurrences: 1,
        firstIndex: match.start,
        position: 0,
        matches: [match],
      })
    }
  }
  const mentions = [...byBrand.values()]
  const positions = positionsFromFirstIndexes(mentions.map((m) => m.firstIndex))
  mentions.forEach((m, i) => (m.position = positions[i]))
  return mentions.sort((a, b) => a.position - b.position || a.firstIndex - b.firstIndex)
}

/**
 * position = 1 + the number of other entries whose first index is smaller, so equal
 * first indexes share a position and the next one skips (1, 1, 3) — competition ranking.
 */
export function positionsFromFirstIndexes(firstIndexes: readonly number[]): number[] {
  const sorted = [...firstIndexes].sort((a, b) => a - b)
  return firstIndexes.map((index) => 1 + lowerBound(sorted, index))
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
