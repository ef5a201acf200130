// Finding brands in AI answers. The text is folded once (case, typographic variants,
// markdown escapes, whitespace runs, URLs masked) into code points that remember where
// they came from; an Aho–Corasick automaton over the folded brand terms then finds every
// candidate in one pass whose cost does not depend on the number of terms; boundary
// rules and "earliest start wins, then longest" pick the matches.
import { createHash } from 'node:crypto'
import { MatcherCache } from './matcher-cache.js'
import { defaultMatcherCacheMb } from './memory-limits.js'
import { automatonBytes, buildAutomaton, planAutomaton, runInSlices, runToEnd, TermAutomaton, type FlatTerms, type HitBuffer } from './term-automaton.js'
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

/**
 * What another thread needs to use a compiled matcher: the buffer is shared, not copied,
 * so each worker thread reads the same automaton the main thread built.
 */
export interface SharedBrandMatcher {
  buffer: SharedArrayBuffer
  /** trie nodes (0: no terms) */
  nodes: number
  terms: number
  brandIds: string[]
}

let nextMatcherId = 1

/**
 * A brand set compiled for matching; build once per brand set and reuse across responses.
 * Its automaton and term table live in one SharedArrayBuffer (`shared`), which is what
 * worker threads are sent (`new BrandMatcher(shared)` there).
 */
export class BrandMatcher {
  /** unique in this thread: the analysis threads know a matcher by it */
  readonly id = nextMatcherId++
  readonly brandIds: readonly string[]
  readonly shared: SharedBrandMatcher
  /** bytes of its buffer */
  readonly bytes: number
  private readonly automaton: TermAutomaton | null
  /** per term: index of its brand in brandIds */
  private readonly termBrand: Int32Array
  /** per term: FREE_START | FREE_END */
  private readonly termFlags: Int32Array

  /** Compiles `brands` on this thread, or wraps a matcher compiled elsewhere. */
  constructor(source: readonly BrandTerms[] | SharedBrandMatcher) {
    const shared = 'buffer' in source ? source : runToEnd(compileSteps(source))
    this.shared = shared
    this.brandIds = shared.brandIds
    this.bytes = shared.buffer.byteLength
    const { buffer, nodes, terms } = shared
    const automatonSize = nodes === 0 ? 0 : automatonBytes(nodes, terms)
    this.automaton = nodes === 0 ? null : new TermAutomaton(buffer, 0, nodes, terms)
    this.termBrand = new Int32Array(buffer, automatonSize, terms)
    this.termFlags = new Int32Array(buffer, automatonSize + 4 * terms, terms)
  }

  /** Non-overlapping matches in `text`, sorted by start; `urlSpans` are skipped over. */
  match(text: string, urlSpans: readonly UrlSpan[] = findUrlSpans(text)): MentionMatch[] {
    const automaton = this.automaton
    if (automaton === null || !text) return []
    const folded = foldText(text, urlSpans)
    const { codePoints, length } = folded
    const { termFlags } = this
    // For each folded start, the best candidate passing its boundaries: the longest, then
    // the brand listed first (lowest term index). Scanning starts in order then gives
    // "earliest start wins, then longest".
    const { bestEnd, bestTerm } = folded
    bestEnd.fill(0, 0, length)
    let found = false
    const count = automaton.search(codePoints, length, hitBuffer)
    const hits = hitBuffer.data
    for (let h = 0; h < count * 3; h += 3) {
      const index = hits[h]
      const start = hits[h + 1]
      const end = hits[h + 2]
      const flags = termFlags[index]
      if ((flags & FREE_START) === 0 && start > 0 && blocksEdge(codePoints[start - 1])) continue
      if ((flags & FREE_END) === 0 && end < length && blocksEdge(codePoints[end])) continue
      if (end > bestEnd[start] || (end === bestEnd[start] && index < bestTerm[start])) {
        bestEnd[start] = end
        bestTerm[start] = index
        found = true
      }
    }
    if (!found) return []
    const matches: MentionMatch[] = []
    for (let start = 0; start < length; start++) {
      const end = bestEnd[start]
      if (end === 0) continue
      matches.push({ brandId: this.brandIds[this.termBrand[bestTerm[start]]], start: folded.from[start], end: folded.to[end - 1] })
      start = end - 1
    }
    return matches
  }
}

/** the term's first code point needs no boundary before it (CJK) */
const FREE_START = 1
/** the term's last code point needs no boundary after it (CJK, or a final full stop) */
const FREE_END = 2

/** Grows by doubling; the folded terms of a brand set, written in place. */
class CodePoints {
  data = new Int32Array(1024)
  length = 0
  push(cp: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    this.data[this.length++] = cp
  }
}

interface CollectedTerms {
  flat: FlatTerms
  brand: number[]
  flags: number[]
}

// A brand's terms: name, aliases and domain, folded, one after another in one array. The
// same (folded) term claimed by two brands goes to the brand listed first: a term cannot be
// attributed to both without double-counting the text; the automaton keeps the first of
// equal terms.
function* collectTerms(brands: readonly BrandTerms[]): Generator<void, CollectedTerms> {
  const codePoints = new CodePoints()
  const offsets: number[] = [0]
  const brand: number[] = []
  const flags: number[] = []
  let folded = 0
  for (const [b, source] of brands.entries()) {
    for (const raw of brandTermTexts(source)) {
      // Both Unicode normal forms: `Café` typed with a combining accent must still match.
      for (const text of new Set([raw.normalize('NFC'), raw.normalize('NFD')])) {
        const start = codePoints.length
        foldTermInto(text, codePoints)
        if (codePoints.length === start) continue
        const first = codePoints.data[start]
        const last = codePoints.data[codePoints.length - 1]
        offsets.push(codePoints.length)
        brand.push(b)
        // "Warner Bros." has already ended its word at the stop: "Warner Bros.Discovery"
        // and "Warner Bros.'" are mentions.
        flags.push((isCjk(first) ? FREE_START : 0) | (isCjk(last) || last === FULL_STOP ? FREE_END : 0))
      }
    }
    // About a millisecond of folding per step.
    if (codePoints.length - folded >= 16_384) {
      folded = codePoints.length
      yield
    }
  }
  return { flat: { codePoints: codePoints.data, offsets: Int32Array.from(offsets), count: brand.length }, brand, flags }
}

/**
 * Compiles a brand set into one SharedArrayBuffer: the automaton, then each term's brand
 * and flags. `reserve` is told the buffer's size before it is allocated (and may refuse).
 */
export function* compileSteps(brands: readonly BrandTerms[], reserve: (bytes: number) => void = () => {}): Generator<void, SharedBrandMatcher> {
  const brandIds = brands.map((b) => b.id)
  const terms = yield* collectTerms(brands)
  const count = terms.flat.count
  if (count === 0) return { buffer: new SharedArrayBuffer(0), nodes: 0, terms: 0, brandIds }
  const plan = yield* planAutomaton(terms.flat)
  const bytes = plan.bytes + 8 * count
  reserve(bytes)
  const buffer = new SharedArrayBuffer(bytes)
  yield* buildAutomaton(plan, buffer, 0)
  new Int32Array(buffer, plan.bytes, count).set(terms.brand)
  new Int32Array(buffer, plan.bytes + 4 * count, count).set(terms.flags)
  return { buffer, nodes: plan.nodes, terms: count, brandIds }
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

// ---- folding -------------------------------------------------------------------------
// Text and terms are compared after the same per-character folding), (to[n++] = so "Paula’s Choice",
// "PAULA'S CHOICE" and "Paula's  Choice" are one term:
// - case: lower case per code point (final sigma as sigma, as case-insensitive RegExp did));
// - typographic variants: ’ ‘ ʼ ′ → ' ; “ ” → " ; ‐ ‑ ‒ – — → - ;
// - a markdown escape (backslash before ASCII punctuation, `AT\&T`) reads as the character;
// - a whitespace run is one space;
// - URL text (bare URLs, markdown link targets) becomes one separator that no term
//   contains and that is not a word character, so nothing matches inside or across it.
// Each folded code point remembers the UTF-16 range it came from, so matches are reported
// in offsets of the original text.

const FULL_STOP = 0x2e
const SPACE = 0x20
const URL_MASK = 0
const BACKSLASH = 0x5c

const TYPOGRAPHIC: ReadonlyMap<number, number> = new Map([
  [0x2019, 0x27], // ’
  [0x2018, 0x27], // ‘
  [0x02bc, 0x27], // ʼ
  [0x2032, 0x27], // ′
  [0x201c, 0x22], // “
  [0x201d, 0x22], // ”
  [0x2010, 0x2d], // ‐ hyphen
  [0x2011, 0x2d], // ‑ non-breaking hyphen
  [0x2012, 0x2d], // ‒ figure dash
  [0x2013, 0x2d], // –
  [0x2014, 0x2d], // —
])

const WHITESPACE = /^\s$/u
const lowerCache = new Map<number, number | number[]>()

/** Folded code point(s) of one code point (not whitespace). */
function foldCodePoint(cp: number): number | number[] {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp
  const typographic = TYPOGRAPHIC.get(cp)
  if (typographic !== undefined) return typographic
  let folded = lowerCache.get(cp)
  if (folded === undefined) {
    const lower = [...String.fromCodePoint(cp).toLowerCase()].map((ch) => ch.codePointAt(0) as number)
    folded = lower.length === 1 ? (lower[0] === 0x3c2 ? 0x3c3 : lower[0]) : lower
    lowerCache.set(cp, folded)
  }
  return folded
}

const spaceCache = new Map<number, boolean>()
function isSpace(cp: number): boolean {
  if (cp < 0x80) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d)
  let known = spaceCache.get(cp)
  if (known === undefined) {
    known = WHITESPACE.test(String.fromCodePoint(cp))
    spaceCache.set(cp, known)
  }
  return known
}

const isAsciiPunctuation = (cp: number) => (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e)

/** Appends the folded code points of a term to `out` (nothing for a blank term). */
function foldTermInto(text: string, out: CodePoints): void {
  const start = out.length
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number
    if (isSpace(cp)) {
      if (out.length > start && out.data[out.length - 1] !== SPACE) out.push(SPACE)
      continue
    }
    const folded = foldCodePoint(cp)
    if (typeof folded === 'number') out.push(folded)
    else for (const f of folded) out.push(f)
  }
  while (out.length > start && out.data[out.length - 1] === SPACE) out.length--
}

interface FoldedText {
  codePoints: Int32Array
  /** UTF-16 offset in the original text where folded code point i starts */
  from: Int32Array
  /** UTF-16 offset in the original text where folded code point i ends */
  to: Int32Array
  /** per folded start: end of the best match starting there (0: none), and its term */
  bestEnd: Int32Array
  bestTerm: Int32Array
  length: number
}

function foldedBuffers(size: number): FoldedText {
  const make = () => new Int32Array(size)
  return { codePoints: make(), from: make(), to: make(), bestEnd: make(), bestTerm: make(), length: 0 }
}

// Reused between calls (analysis is synchronous and single-threaded per worker), grown
// as needed: allocating three arrays per answer would dominate short texts.
let scratch: FoldedText = foldedBuffers(4096)
const hitBuffer: HitBuffer = { data: new Int32Array(3 * 256) }

function put(buffers: FoldedText, n: number, cp: number, start: number, end: number): number {
  buffers.codePoints[n] = cp
  buffers.from[n] = start
  buffers.to[n] = end
  return n + 1
}

function foldText(text: string, urlSpans: readonly UrlSpan[]): FoldedText {
  // Folding never yields more than 3 code points per UTF-16 unit (toLowerCase expansions).
  if (scratch.codePoints.length < text.length * 3 + 1) {
    scratch = foldedBuffers(text.length * 3 + 1)
  }
  const buffers = scratch
  const { codePoints, to } = buffers
  let n = 0
  let span = 0
  let i = 0
  while (i < text.length) {
    if (span < urlSpans.length && urlSpans[span].start <= i) {
      const { end } = urlSpans[span++]
      if (end > i) {
        n = put(buffers, n, URL_MASK, i, end)
        i = end
      }
      continue
    }
    const cp = text.codePointAt(i) as number
    const width = cp > 0xffff ? 2 : 1
    if (isSpace(cp)) {
      if (n > 0 && codePoints[n - 1] === SPACE && to[n - 1] === i) to[n - 1] = i + width
      else n = put(buffers, n, SPACE, i, i + width)
    } else if (cp === BACKSLASH && i + 1 < text.length && isAsciiPunctuation(text.charCodeAt(i + 1))) {
      // The escaped character stands for itself; the match still covers the backslash.
      const escaped = foldCodePoint(text.charCodeAt(i + 1)) as number
      n = put(buffers, n, escaped, i, i + 2)
      i += 2
      continue
    } else {
      const folded = foldCodePoint(cp)
      if (typeof folded === 'number') n = put(buffers, n, folded, i, i + width)
      else for (const f of folded) n = put(buffers, n, f, i, i + width)
    }
    i += width
  }
  scratch.length = n
  return scratch
}

// ---- boundaries ----------------------------------------------------------------------
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
const CJK_CHAR = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u

const CJK = 1
const BLOCKS = 2
const classCache = new Map<number, number>()

function classify(cp: number): number {
  let known = classCache.get(cp)
  if (known === undefined) {
    const ch = String.fromCodePoint(cp)
    known = CJK_CHAR.test(ch) ? CJK : WORD_CHAR.test(ch) ? BLOCKS : 0
    classCache.set(cp, known)
  }
  return known
}

function isCjk(cp: number): boolean {
  return classify(cp) === CJK
}

/** Whether this neighbour of a (non-CJK) term edge makes the match part of a longer word. */
function blocksEdge(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a)
  return classify(cp) === BLOCKS
}

// ---- compiled matchers, cached ----------------------------------------------------------
// One cache per process, bounded in bytes (MATCHER_CACHE_MB): see matcher-cache.ts.
export const matcherCache = new MatcherCache<BrandMatcher>(defaultMatcherCacheMb() * 1024 * 1024)

/** Sets the cache's bound (MATCHER_CACHE_MB); idle matchers over it are evicted now. */
export function configureMatcherCache(limitMb: number): void {
  matcherCache.setLimit(limitMb * 1024 * 1024)
}

export const matcherCacheStats = () => matcherCache.stats()

/** Below this many term characters a brand set compiles in a few milliseconds: no slicing. */
const SMALL_BRAND_SET_CHARS = 20_000

// Brand sets are usually rebuilt per request from the database, so identity caching alone
// would miss; a content key catches equal sets, the WeakMap skips building that key.
const keyByIdentity = new WeakMap<readonly BrandTerms[], string>()

function contentKey(brands: readonly BrandTerms[]): string {
  let key = keyByIdentity.get(brands)
  if (key === undefined) {
    key = `content:${createHash('sha1')
      .update(JSON.stringify(brands.map((b) => [b.id, b.name, b.aliases, b.domain])))
      .digest('base64')}`
    keyByIdentity.set(brands, key)
  }
  return key
}

/** The compiled matcher for a brand set (cached; equal brand sets share one), compiled on this thread now. */
export function compileBrandMatcher(brands: readonly BrandTerms[]): BrandMatcher {
  return matcherCache.buildNow(contentKey(brands), (reserve) => new BrandMatcher(runToEnd(compileSteps(brands, reserve))))
}

/**
 * The compiled matcher cached under `key` (a fingerprint of the brand set), else compiled
 * from `brands`: a large set in slices of a few milliseconds, so the event loop keeps
 * answering other requests while it compiles, one large compilation at a time.
 */
export function compileBrandMatcherAsync(key: string, brands: readonly BrandTerms[]): Promise<BrandMatcher> {
  let chars = 0
  for (const brand of brands) chars += brand.name.length + (brand.domain?.length ?? 0) + (brand.aliases ?? []).reduce((n, alias) => n + alias.length, 0)
  if (chars < SMALL_BRAND_SET_CHARS) {
    try {
      return Promise.resolve(matcherCache.buildNow(key, (reserve) => new BrandMatcher(runToEnd(compileSteps(brands, reserve)))))
    } catch (error) {
      return Promise.reject(error)
    }
  }
  return matcherCache.build(key, async (reserve) => new BrandMatcher(await runInSlices(compileSteps(brands, reserve))))
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
