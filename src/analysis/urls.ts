// URL handling shared by citations (what is cited) and mentions (what must not be
// searched for brand names). Everything here is pure and synchronous.
import { domainToUnicode } from 'node:url'
import { getDomain, parse as parseDomain } from 'tldts'

export interface UrlSpan {
  /** The URL text exactly as it appears in the content (markdown `<…>` brackets excluded). */
  url: string
  start: number
  end: number
}

// Query parameters that only identify a campaign or click; two links that differ only in
// these point at the same page, so citations must collapse them.
const TRACKING_PARAM = /^(?:utm_.*|gclid|fbclid)$/i

const HTTP_SCHEME = /^https?:\/\//i
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * Canonical form of an http(s) URL, or null when it is not one we can cite.
 *
 * Rejected: other schemes, unparseable input, and hosts with no registrable domain under
 * the public suffix list (localhost, bare IPs, `*.local`, unknown TLDs) — none of those
 * can be attributed to a site. Credentials are dropped: they are never part of the page's
 * identity and must not be stored.
 */
export function normalizeUrl(raw: string): string | null {
  if (typeof raw !== 'string') return null
  const trimmed = raw.trim()
  // WHATWG would accept `https:example.com`; requiring `//` keeps us to what people
  // (and models) actually write as links.
  if (!HTTP_SCHEME.test(trimmed)) return null
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null

  // WHATWG has already lowercased the host and converted IDN labels to punycode.
  let host = stripTrailingDot(url.hostname)
  if (registrableHost(host) === null) return null
  // `www.gov.uk` must keep its `www.`: `gov.uk` alone is a public suffix, not a site.
  if (host.startsWith('www.') && registrableHost(host.slice(4)) !== null) host = host.slice(4)

  // url.port is already '' for the scheme's default port.
  const port = url.port === '' ? '' : `:${url.port}`
  return `${url.protocol}//${host}${port}${normalizePath(url.pathname)}${stripTrackingParams(url.search)}`
}

function stripTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host
}

function normalizePath(pathname: string): string {
  // All trailing slashes go (not just one) so that normalizing twice changes nothing.
  let end = pathname.length
  while (end > 0 && pathname.charCodeAt(end - 1) === 0x2f) end--
  return end === 0 ? '/' : pathname.slice(0, end)
}

// Works on the serialized query rather than URLSearchParams so the remaining parameters
// keep their exact order and encoding (URLSearchParams would re-encode them).
function stripTrackingParams(search: string): string {
  if (search.length <= 1) return ''
  const kept: string[] = []
  for (const pair of search.slice(1).split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    if (!TRACKING_PARAM.test(decodeParamName(eq === -1 ? pair : pair.slice(0, eq)))) kept.push(pair)
  }
  return kept.length === 0 ? '' : `?${kept.join('&')}`
}

function decodeParamName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

/**
 * Registrable domain ("site") of a hostname or URL by the public suffix list:
 * `en.wikipedia.org` → `wikipedia.org`, `news.bbc.co.uk` → `bbc.co.uk`.
 *
 * The private section of the list is honoured (`acme.github.io` → `acme.github.io`) so
 * that unrelated sites on shared hosting are not merged into one domain — otherwise a
 * brand whose site is `acme.vercel.app` would "own" every vercel.app citation. When the
 * host is itself a private suffix (`github.io`) the ICANN answer is used instead.
 * Returns null for IPs, `localhost` and hosts whose suffix is not on the list.
 */
export function registrableDomain(hostOrUrl: string): string | null {
  const host = toHostname(hostOrUrl)
  return host === null ? null : registrableHost(host)
}

/** Lowercased, punycoded hostname of a hostname or URL (scheme optional), or null. */
export function toHostname(hostOrUrl: string): string | null {
  if (typeof hostOrUrl !== 'string') return null
  const trimmed = hostOrUrl.trim()
  if (trimmed === '') return null
  try {
    const host = new URL(ANY_SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`).hostname
    return host === '' ? null : stripTrailingDot(host.toLowerCase())
  } catch {
    return null
  }
}

// Hosts repeat heavily across responses (the same few dozen sites get cited), and the
// public-suffix lookup is the costly part of normalization, so answers are memoized.
const registrableCache = new Map<string, string | null>()
const REGISTRABLE_CACHE_LIMIT = 10_000

function registrableHost(host: string): string | null {
  const cached = registrableCache.get(host)
  if (cached !== undefined) return cached
  const result = lookupRegistrable(host)
  if (registrableCache.size >= REGISTRABLE_CACHE_LIMIT) registrableCache.clear()
  registrableCache.set(host, result)
  return result
}

function lookupRegistrable(host: string): string | null {
  const parsed = parseDomain(host, { allowPrivateDomains: true })
  if (parsed.isIp) return null
  // tldts answers for any last label via the implicit `*` rule; a suffix that is on
  // neither section of the list (`local`, `lan`, `internal`, typos) is not a real site.
  if (!parsed.isIcann && !parsed.isPrivate) return null
  return parsed.domain ?? getDomain(host)
}

/** Unicode form of a punycoded host, for matching domains written in their native script. */
export function hostToUnicode(host: string): string {
  const unicode = domainToUnicode(host)
  return unicode === '' ? host : unicode
}

// A markdown inline link or image target: `](url)`, `](<url>)`, optionally with a title.
// One level of balanced parentheses is allowed inside the URL (Wikipedia links need it).
const MARKDOWN_TARGET = /\]\(\s*(?:<([^<>\n]*)>|((?:[^\s()<>]|\([^\s()<>]*\))+))(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/dg

// A bare URL runs to whitespace or to characters that cannot appear unescaped in a URL
// and usually delimit one in prose/markdown: <>"` [] | \ and CJK/fullwidth punctuation.
const BARE_URL = /https?:\/\/[^\s<>"`[\]|\\\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/giu

// Characters that end a sentence or markup around a URL rather than the URL itself.
const TRAILING_PUNCTUATION = new Set(['.', ',', ':', ';', '!', '?', "'", '"', '*', '_', '~'])

/**
 * URLs in free text: markdown link targets (any scheme, since link targets are never
 * prose) and bare http(s) URLs. Sorted by start, non-overlapping.
 */
export function findUrlSpans(text: string): UrlSpan[] {
  if (!text || (text.indexOf('://') === -1 && text.indexOf('](') === -1)) return []

  const targets: UrlSpan[] = []
  for (const m of text.matchAll(MARKDOWN_TARGET)) {
    const group = m[1] !== undefined ? 1 : 2
    const url = m[group]
    const range = m.indices?.[group]
    if (!url || !range) continue
    targets.push({ url, start: range[0], end: range[1] })
  }

  const spans: UrlSpan[] = []
  let t = 0
  for (const m of text.matchAll(BARE_URL)) {
    const start = m.index
    const end = start + trimTrailing(m[0]).length
    // Nothing left after `scheme://` once punctuation is trimmed: not a URL.
    if (text.indexOf('//', start) + 2 >= end) continue
    while (t < targets.length && targets[t].end <= start) spans.push(targets[t++])
    // The target of `[text](https://…)` is already recorded.
    if (t < targets.length && targets[t].start < end) continue
    spans.push({ url: text.slice(start, end), start, end })
  }
  while (t < targets.length) spans.push(targets[t++])
  return spans
}

// GFM-style autolink trimming: sentence punctuation after a URL is not part of it, and
// a closing parenthesis belongs to the URL only if it balances one inside it.
function trimTrailing(url: string): string {
  let end = url.length
  let open = 0
  let close = 0
  for (let i = 0; i < end; i++) {
    const c = url.charCodeAt(i)
    if (c === 0x28) open++
    else if (c === 0x29) close++
  }
  while (end > 0) {
    const c = url[end - 1]
    if (TRAILING_PUNCTUATION.has(c)) {
      end--
    } else if (c === ')' && close > open) {
      end--
      close--
    } else {
      break
    }
  }
  return url.slice(0, end)
}
