// Competitor discovery, step one (docs/uncertainty-and-discovery.md): the names one answer puts forward, each with
// the structural cue it was found by. Pure and deterministic; no model, no network.
//
// A name is a run of 1–4 capitalised tokens ("Cadencia", "Trackory Cloud", "Monday.com",
// "AT&T", "nTask"). What makes it a likely brand is where it stands:
//   heading  `### 2. Cadencia`               list   `- **Cadencia** – …`, `1. Cadencia: …`
//   table    first cell of a table row        bold   `**Cadencia**` anywhere
//   link     `[Cadencia](https://…)`          prose  a capitalised run inside a sentence
//   start    a capitalised run that opens a sentence (every sentence's first word is capitalised, so it counts least)
// URLs and bare domains are masked first: text inside them is never a name (as in mention matching).
import { foldName } from './name-key.js'
import { STOP_LIST } from './stop-list.js'

export type Cue = 'heading' | 'list' | 'table' | 'bold' | 'link' | 'prose' | 'start'

/** Weight of an answer's strongest cue for a name; an answer adds this to the name's score. */
export const CUE_WEIGHT: Record<Cue, number> = { heading: 3, list: 3, table: 2.5, bold: 2.5, link: 2, prose: 1, start: 0.5 }

export interface CandidateHit {
  /** the name as written (possessive and edge punctuation removed) */
  name: string
  /** folded name: case and diacritics ignored (see name-key.ts) */
  key: string
  cue: Cue
  /** offsets in the answer (UTF-16 code units) */
  start: number
  end: number
}

export interface AnswerScan {
  hits: CandidateHit[]
  /** words the answer writes in lower case (outside URLs), as written: evidence that a word is a common word (folded when ranked) */
  lowerWords: Set<string>
}

// Plural acronyms ("PMOs", "APIs", "KPIs") are category words, never brand names.
const PLURAL_ACRONYM_RE = /^\p{Lu}{2,5}s$/u
export const isStopWord = (token: string) => PLURAL_ACRONYM_RE.test(token) || STOP_LIST.commonWords.has(foldName(token))

const MAX_TOKENS = 4
const MAX_NAME_LENGTH = 60

// One name token: capitalised ("Cadencia", "Monday.com", "T-Mobile", "AT&T", "Notion+"), or lower
// case with an inner capital ("nTask", "eBay"). Apostrophes inside stay ("Paula's"); a trailing
// possessive is removed later.
// A hyphen joins name parts only before a capital or digit ("T-Mobile", "Coca-Cola"): "AI-assisted"
// and "Best-in-class" are compound adjectives, not names.
const TOKEN = String.raw`(?:[\p{Lu}\p{Lt}][\p{L}\p{M}\p{N}]*|\p{Ll}+\p{Lu}[\p{L}\p{M}\p{N}]*)(?:[.'’&+][\p{L}\p{M}\p{N}]+|-[\p{Lu}\p{Lt}\p{N}][\p{L}\p{M}\p{N}]*)*\+*`
const TOKEN_RE = new RegExp(`^${TOKEN}$`, 'u')
const NUMBER_RE = /^\d+(?:\.\d+)?$/
// A run: tokens separated by one space (or " & "); numbers may continue a run ("Cadencia 2").
const RUN_RE = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${TOKEN}(?:(?: | & )(?:${TOKEN}|\\d+(?:\\.\\d+)?(?![\\p{L}\\p{N}])))*`, 'gu')
const LOWER_WORD_RE = /(?<![\p{L}\p{M}\p{N}.'’-])\p{Ll}[\p{Ll}\p{M}]*(?:['’-]\p{Ll}+)*(?![\p{L}\p{M}\p{N}])/gu

// Masked (replaced by spaces, offsets kept): URLs, markdown link targets, bare lower-case
// domains. Found by their anchors ("http", "www.", "](", ".com") and extended from there: one
// regex tried at every word would be the slowest part of the scan.
const URL_START_RE = /\bhttps?:\/\/|\bwww\.|\]\(/gi
const TLD_RE = /\.(?:com|io|app|co|net|org|ai|dev|so|us|uk|de|fr|tech|software|tools)(?![a-z0-9-])/gi
const URL_STOP = new Set([...' \t\n\r<>()[]'].map((c) => c.charCodeAt(0)))
const isDomainChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 46

function maskUrls(text: string): string {
  const spans: [number, number][] = []
  for (const m of text.matchAll(URL_START_RE)) {
    let end = m.index + m[0].length
    while (end < text.length && !URL_STOP.has(text.charCodeAt(end))) end++
    // A markdown link target: only what is inside the parentheses.
    spans.push([m[0] === '](' ? m.index + 2 : m.index, end])
  }
  for (const m of text.matchAll(TLD_RE)) {
    let start = m.index
    while (start > 0 && isDomainChar(text.charCodeAt(start - 1))) start--
    // "Monday.com" is a name as written; lower-case "tasklane.io" is a domain.
    const first = text.charCodeAt(start)
    if (start < m.index && first >= 97 && first <= 122) spans.push([start, m.index + m[0].length])
  }
  if (spans.length === 0) return text
  const chars = text.split('')
  for (const [from, to] of spans) for (let i = from; i < to; i++) chars[i] = ' '
  return chars.join('')
}

const HEADING_RE = /^\s{0,3}#{1,6}\s+/
const LIST_RE = /^\s*(?:[-*+•‣◦]|\d{1,3}[.)])\s+/
const TABLE_RE = /^\s*\|/
const TABLE_SEPARATOR_RE = /^\s*\|?\s*:?-{2,}/
const NUMBERING_RE = /^\d{1,3}[.)]\s+/
const BOLD_RE = /\*\*([^*\n]{1,80})\*\*|__([^_\n]{1,80})__/g
const LINK_TEXT_RE = /\[([^\]\n]{1,80})\]\(/g
// Where a list item's or heading's lead name ends.
const LEAD_END_RE = /\s[–—-]\s|:|\(|\.\s|\.$|!|\?|;/
// Several names in one lead: "Cadencia, Trackory and Plotwise", "Cadencia vs Trackory".
const LEAD_SPLIT_RE = /,\s*|\s+(?:and|or|vs\.?|versus)\s+|\s*\/\s*/

/**
 * Checks a phrase that a structure put forward as a whole and returns the name in it:
 * every token a name token (or "&", or a number after the first), stop words trimmed at
 * the edges, at most four tokens, not only stop words. Otherwise null.
 */
export function asName(phrase: string): { name: string; offset: number } | null {
  const leading = phrase.length - phrase.trimStart().length
  let text = phrase.trim().replace(/[\s:.,;!?"“”)]+$/u, '')
  text = stripPossessive(text)
  if (!text || text.length > MAX_NAME_LENGTH * 2) return null
  const tokens = text.split(/\s+/)
  for (const [i, token] of tokens.entries()) {
    if (TOKEN_RE.test(token) || (token === '&' && i > 0)) continue
    if (NUMBER_RE.test(token) && i > 0) continue
    return null
  }
  return trimRun(tokens, leading, text)
}

function stripPossessive(text: string): string {
  return text.replace(/['’]s$/u, '').replace(/(?<=s)['’]$/u, '')
}

/** Drops stop words, "&" and numbers from both ends; the rest is a name if short enough and not all stop words. */
function trimRun(tokens: string[], baseOffset: number, text: string): { name: string; offset: number } | null {
  let first = 0
  let last = tokens.length - 1
  const edge = (t: string) => isStopWord(t) || t === '&' || NUMBER_RE.test(t)
  while (first <= last && edge(tokens[first])) first++
  while (last >= first && edge(tokens[last])) last--
  if (first > last) return null
  const kept = tokens.slice(first, last + 1)
  if (kept.length > MAX_TOKENS) return null
  const name = kept.join(' ')
  if (name.length < 2 || name.length > MAX_NAME_LENGTH) return null
  // Offset of the first kept token inside the phrase (tokens were split on single spaces or runs of them).
  let offset = 0
  for (let i = 0; i < first; i++) offset = text.indexOf(tokens[i], offset) + tokens[i].length
  offset = text.indexOf(kept[0], offset)
  return { name, offset: baseOffset + offset }
}

/** The lead phrase of a list item or heading (after the marker and numbering), split into names. */
function leadNames(body: string, bodyStart: number): { name: string; start: number }[] {
  let text = body
  let start = bodyStart
  const numbering = NUMBERING_RE.exec(text)
  if (numbering) {
    start += numbering[0].length
    text = text.slice(numbering[0].length)
  }
  // "**Cadencia** – …" and "[Cadencia](…) – …": the emphasised or linked lead is the name.
  const emphasised = /^(?:\*\*|__)([^*_\n]{1,80})(?:\*\*|__)|^\[([^\]\n]{1,80})\]/.exec(text)
  let lead: string
  let leadStart: number
  if (emphasised) {
    lead = emphasised[1] ?? emphasised[2]
    leadStart = start + 2 - (emphasised[2] !== undefined ? 1 : 0)
  } else {
    const end = LEAD_END_RE.exec(text)
    lead = end ? text.slice(0, end.index) : text
    leadStart = start
  }
  if (lead.length > 120) return []
  const out: { name: string; start: number }[] = []
  let cursor = 0
  for (const part of lead.split(LEAD_SPLIT_RE)) {
    const at = lead.indexOf(part, cursor)
    cursor = at + part.length
    const found = asName(part.replace(/[*_`]/g, ' '))
    if (found) out.push({ name: found.name, start: leadStart + at + found.offset })
  }
  return out
}

const SKIPPED_BEFORE = new Set([...' \t\r*_#>|[]`"“('].map((c) => c.charCodeAt(0)))
const SENTENCE_END = new Set([...'.!?:'].map((c) => c.charCodeAt(0)))
const MARKER_END = new Set([...'-+•)0123456789'].map((c) => c.charCodeAt(0)))

function isSentenceStart(masked: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = masked.charCodeAt(i)
    if (c === 10) return true
    if (SKIPPED_BEFORE.has(c)) continue
    if (SENTENCE_END.has(c)) return true
    // A list marker or numbering just before: the run opens the item.
    if (MARKER_END.has(c)) {
      const lineStart = masked.lastIndexOf('\n', i) + 1
      const before = masked.slice(lineStart, index)
      return LIST_RE.test(before) || HEADING_RE.test(before)
    }
    return false
  }
  return true
}

/** Every candidate name in one answer with its cue, and the answer's lower-case words. */
export function scanAnswer(content: string): AnswerScan {
  const hits: CandidateHit[] = []
  const masked = maskUrls(content)
  const push = (name: string, cue: Cue, start: number) => {
    const clean = stripPossessive(name)
    const key = foldName(clean)
    if (key.length >= 2) hits.push({ name: clean, key, cue, start, end: start + clean.length })
  }

  // Structure, line by line.
  let lineStart = 0
  let tableRow = 0
  for (const line of masked.split('\n')) {
    if (TABLE_RE.test(line)) {
      if (!TABLE_SEPARATOR_RE.test(line)) {
        tableRow++
        // Row 1 is the header ("| Tool | Best for | …"): its cells are column names.
        if (tableRow > 1) {
          const open = line.indexOf('|')
          const close = line.indexOf('|', open + 1)
          const cell = line.slice(open + 1, close === -1 ? undefined : close)
          for (const lead of leadNames(cell.replace(/^\s+/, ''), lineStart + open + 1 + (cell.length - cell.trimStart().length))) push(lead.name, 'table', lead.start)
        }
      }
    } else {
      tableRow = 0
      const heading = HEADING_RE.exec(line)
      const list = heading ? null : LIST_RE.exec(line)
      const marker = heading ?? list
      if (marker) {
        for (const lead of leadNames(line.slice(marker[0].length), lineStart + marker[0].length)) push(lead.name, heading ? 'heading' : 'list', lead.start)
      }
    }
    lineStart += line.length + 1
  }

  for (const m of masked.matchAll(BOLD_RE)) {
    const inner = m[1] ?? m[2]
    const found = asName(inner)
    if (found) push(found.name, 'bold', m.index + 2 + found.offset)
  }
  for (const m of masked.matchAll(LINK_TEXT_RE)) {
    const found = asName(m[1])
    if (found) push(found.name, 'link', m.index + 1 + found.offset)
  }

  // Prose: every capitalised run, markdown punctuation blanked so "**Cadencia**" reads as a word.
  const plain = masked.replace(/[*_`#|[\]>]/g, ' ')
  for (const m of plain.matchAll(RUN_RE)) {
    const found = trimRun(m[0].split(/ +/), 0, m[0])
    if (!found) continue
    const start = m.index + found.offset
    // Only a run whose kept first token opens the sentence is ambiguous.
    push(found.name, isSentenceStart(plain, start) ? 'start' : 'prose', start)
  }

  const lowerWords = new Set<string>()
  for (const m of plain.matchAll(LOWER_WORD_RE)) lowerWords.add(m[0])
  return { hits, lowerWords }
}
