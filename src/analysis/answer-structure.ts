// The layout of a markdown answer, for brand sentiment (docs/analysis.md): AI answers
// put a product in a heading, a numbered item or a bold lead and say what they think of it
// in the lines below ("- Excellent battery life", "Cons: heavy"). A line that leads a
// block owns the lines under it up to the next line at its own level or above; list
// labels ("Pros:", "Cons:") weigh their items; a bare spec listing ("RAM: 16GB") says
// nothing good or bad.
import { meanTokenScore, NAME_WORD, type ScoredSentence } from './sentence-types.js'
import { LEXICON } from './sentiment-lexicon.js'

export type BlockWeight = 'pros' | 'cons' | null

export interface SentenceLayout {
  /** indexes of the sentences that lead the blocks this sentence sits in (innermost last) */
  leads: number[]
  /** inside a "Pros:" or "Cons:" list */
  weight: BlockWeight
  /**
   * neutral whatever its words: a bare spec listing, or a line of an "other options"
   * section (a listing of what the answer does not pick)
   */
  spec: boolean
  /** a "Pros:"/"Cons:" label itself: it names a list, it does not judge */
  label: boolean
  /**
   * parts of the sentence (absolute offsets) inside an "other options" section that opens or
   * closes within it ("…(3k+)Other Solid Options: KitchenAid …"); null when none
   */
  listing: [number, number][] | null
  /**
   * item labels in the sentence and the blurb each heads ("Jabra Elite 7 Active:Known for a
   * secure fit …", "**Notion**: excellent templates"): absolute offsets; null when none
   */
  items: InlineItem[] | null
  /**
   * the sentence whose last item this one continues, in the same line ("…:Known for a secure
   * fit. They offer customizable ANC."), or null
   */
  itemLead: number | null
  /**
   * parts of the sentence (absolute offsets) inside a buying guide's section ("Things to
   * Consider:"), where brands are examples of a criterion; null when none
   */
  guide: [number, number][] | null
  /**
   * parts of the sentence (absolute offsets) where a product named is one of the answer's
   * ranked picks: the labels of items under a rank title ("Top Picks:", "Best for Gaming:"),
   * and the start of the blurb of a rank label ("**Best Overall:** Sony …"); null when none
   */
  picks: [number, number][] | null
  /**
   * where the text after a leading bold field label starts ("**Why It's Great:** The Beats
   * Solo Pro offers …"; absolute offset), or null: wink reads the label's colon and bold
   * marker as one emoticon token (":*"), so the label ran into the first clause of its text
   */
  field: number | null
  /** the sentence is a run-in "Pros:"/"Cons:" list of the item it continues (see itemLead), or null */
  listWeight: BlockWeight
}

/** A label that names an item and the blurb after its colon, up to the next label or the sentence's end (absolute offsets). */
export interface InlineItem {
  label: [number, number]
  blurb: [number, number]
}

interface Line {
  start: number
  end: number
  /** lower is an outer level: headings 1–6, items and bold leads 10+indent, bullets 20+indent, body text 100 */
  rank: number
  /** a heading, a numbered item or a line opening with a bold span: it can own a block */
  lead: boolean
  /** "Pros:"/"Cons:" label line (the items under it are weighted) */
  label: BlockWeight
  /** a label followed by its items on the same line ("**Cons:** heavy, loud") */
  inlineLabel: BlockWeight
  /** "### Other options", "**Also consider:**": the lines under it (deeper than it) are a listing */
  others: boolean
  /**
   * a heading or a bold line that is a rank title and nothing else ("#### Best Overall",
   * "**Top Picks**", "### 🔝 **Top Mesh Routers (2025)**"): under a product's heading it ranks
   * that product, above the items of a section it ranks them
   */
  rankTitle: boolean
  /** a markdown link reference definition ("[3]: https://… \"Page title\""): the cited page's title, not the answer's words */
  reference: boolean
  /** a thematic break ("---", "***"): the answer moves on, no block above it continues */
  rule: boolean
  /** a generic section's title and nothing else ("**Key features:**", "### Pricing"): it names the lines below, it does not judge */
  sectionTitle: boolean
  blank: boolean
}

/** The longest line that can be a section's title alone ("**Key considerations when choosing:**"). */
const SECTION_TITLE_CHARS = 80
/** rank of a bullet at the margin (see Line.rank) */
const BULLET_RANK = 20
const LINE = /[^\n\r\u2028\u2029]*(?:\r\n|[\n\r\u2028\u2029]|$)/g
const HEADING = /^ {0,3}(#{1,6})[ \t]+/
const NUMBERED = /^([ \t]*)(?:\*\*|__)?\d{1,3}[.)](?:\*\*|__)?[ \t]+/
const BULLET = /^([ \t]*)[-*+•][ \t]+/
const BOLD_LEAD = /^(?:\*\*|__)[^*_\n]+?(?:\*\*|__)/
const QUOTE = /^[ \t]*(?:>[ \t]*)+/
// CommonMark's thematic break: three or more of one of - * _, spaces allowed between.
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
// CommonMark's link reference definition: up to three spaces, a label, a colon, a
// destination and an optional quoted title, nothing else ("[Pick]: Philips is excellent." is text).
const REFERENCE = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*$/
// Label text: markup, emoji and a trailing colon stripped ("✅ **Pros:**" → "pros").
const LABEL_NOISE = /[*_#>`~[\]()]|\p{Extended_Pictographic}|\uFE0F/gu

function labelOf(text: string): BlockWeight {
  const label = titleOf(text)
  if (LEXICON.blocks.pros.has(label)) return 'pros'
  if (LEXICON.blocks.cons.has(label)) return 'cons'
  return null
}

function readLines(content: string): Line[] {
  const lines: Line[] = []
  let previousBlank = true
  for (const m of content.matchAll(LINE)) {
    if (m[0] === '' && m.index >= content.length) break
    const raw = m[0].replace(/[\n\r\u2028\u2029]+$/, '')
    const start = m.index
    const end = start + raw.length
    const text = raw.replace(QUOTE, '')
    const line: Line = {
      start,
      end,
      rank: 100,
      lead: false,
      label: null,
      inlineLabel: null,
      others: false,
      rankTitle: false,
      reference: text.includes(']:') && REFERENCE.test(text),
      rule: THEMATIC_BREAK.test(text),
      sectionTitle: false,
      blank: !/\S/.test(text),
    }
    let body = text
    const heading = HEADING.exec(text)
    const numbered = NUMBERED.exec(text)
    const bullet = BULLET.exec(text)
    if (heading) {
      line.rank = heading[1].length
      line.lead = true
      body = text.slice(heading[0].length)
    } else if (numbered) {
      line.rank = 10 + indent(numbered[1])
      line.lead = true
      body = text.slice(numbered[0].length)
    } else if (bullet) {
      line.rank = 20 + indent(bullet[1])
      body = text.slice(bullet[0].length)
      line.lead = BOLD_LEAD.test(body)
    } else if (BOLD_LEAD.test(text)) {
      line.rank = 10
      line.lead = true
    } else if (!line.blank && !/^[ \t]/.test(text)) {
      // A paragraph at the margin ends the list above it, unless it follows a line
      // directly (markdown's lazy continuation: it belongs to the block it continues).
      line.rank = previousBlank ? 10 : 11
    }
    previousBlank = line.blank
    // "Pros:" alone, or "**Pros:** light, fast" with its items on the line.
    const whole = labelOf(body)
    if (whole) line.label = whole
    else {
      const colon = /^([^:：]{1,40})[:：]/.exec(body)
      if (colon) line.inlineLabel = labelOf(colon[1])
    }
    line.others = isOthersTitle(body) || isOthersTitle(BOLD_LEAD.exec(body)?.[0] ?? '')
    // (Only a lead or a line ending in a colon can be a title: most lines are neither.)
    line.sectionTitle = !line.label && body.length <= SECTION_TITLE_CHARS && (line.lead || /[:：][*_\s]*$/.test(body)) && isSectionTitle(body)
    if ((heading || (line.lead && BOLD_LEAD.exec(body)?.[0].length === body.trimEnd().length)) && !line.label)
      line.rankTitle = isRankTitle(body) && titleOf(body).split(/\s+/).length <= RANK_TITLE_WORDS
    lines.push(line)
  }
  return lines
}

/** Title text of a label or heading: markup, emoji and a trailing colon stripped, lower-cased. */
function titleOf(text: string): string {
  return text
    .replace(LABEL_NOISE, '')
    .trim()
    .replace(/[:：]$/, '')
    .trim()
    .toLowerCase()
}

/**
 * "Other options", "Also consider", "Honorable Mentions", "Other Highly-Rated Options",
 * "Alternatives": the title of a section listing what the answer does not pick (first and
 * last words from the lexicon's `others`).
 */
export function isOthersTitle(text: string): boolean {
  // Most lines are not titles: look at the first word before cleaning the whole text.
  const first = FIRST_WORD.exec(text)?.[0].toLowerCase()
  if (first === undefined || !LEXICON.others.first.has(first)) return false
  const words = titleOf(text).split(/\s+/)
  if (words.length > 6 || words[0] === '') return false
  if (!LEXICON.others.first.has(words[0])) return false
  const last = words[words.length - 1]
  if (LEXICON.others.last.has(last)) return true
  // "Other Notable Luxury EVs:", "### Other Highly-Rated Sets": whatever the product's kind,
  // when it is written as a title and its last word is not an attribute ("Other Perks:").
  return words.length > 1 && LEXICON.others.anyLast.has(words[0]) && !LEXICON.others.notLast.has(last) && !GUIDE_TITLE.test(text) && isWrittenAsTitle(text)
}

/** A colon ends it, or every word of it is capitalised: a title, not a sentence ("Other features include Wi-Fi"). */
function isWrittenAsTitle(text: string): boolean {
  const bare = text.replace(LABEL_NOISE, '').trim()
  if (/[:：]$/.test(bare)) return true
  return bare.split(/\s+/).every((w) => /^[\p{Lu}\p{N}(&]/u.test(w))
}

const FIRST_WORD = /[\p{L}][\p{L}-]*/u

/**
 * A title ending in a colon, at the start of the text or right after a non-letter or a
 * sentence's end ("(3k+)Other Great Options:", "hours). Factors to Consider:"): up to seven
 * words, the first capitalised, and an optional parenthesis ("Other Great Choices (often
 * under $100):").
 */
const INNER_TITLE = /(?<=^|[^\p{L}\s]|[.!?]\s+)\p{Lu}[\p{L}'’-]*(?:[ \t]+[\p{L}'’&/-]+){0,6}(?:[ \t]*\([^()]{0,60}\))?(?:[ \t]*[:：]|\u00a0(?=\p{Lu}))/gu

/**
 * The "other options" titles (others: true) and generic section titles (others: false) in a
 * sentence, by offset in it; null when it has neither (most sentences: checked on the colon first).
 */
function innerTitles(text: string, open: boolean): { at: number; others: boolean }[] | null {
  // (Google AI Mode also ends a title with a no-break space: "Other High-Performance Blenders\u00a0Breville …".)
  if (!text.includes(':') && !text.includes('：') && !text.includes('\u00a0')) return null
  // Only a section that is open can close here; otherwise the sentence needs an "other
  // options" title's first word, capitalised (most sentences have none: skip the scan).
  if (!open && !OTHERS_FIRST.test(text)) return null
  let found: { at: number; others: boolean }[] | null = null
  for (const m of text.matchAll(INNER_TITLE)) {
    const title = m[0].replace(/\([^()]*\)[ \t]*[:：]$/, '').replace(/\u00a0$/, ':')
    const others = isOthersTitle(title)
    if (!others && !isSectionTitle(title)) continue
    ;(found ??= []).push({ at: m.index, others })
  }
  return found
}

/** A capitalised first word of an "other options" title (lexicon `others.first`) at a word's start. */
const OTHERS_FIRST = new RegExp(
  `(?<![\\p{L}])(?:${[...LEXICON.others.first].map((w) => w[0].toUpperCase() + w.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}])`,
  'u',
)

/** "Factors to Consider When Choosing:", "Things to consider:": a generic section's title (lexicon `sections`), possibly qualified after it. */
function isSectionTitle(text: string): boolean {
  const title = titleOf(text)
  if (LEXICON.sections.has(title)) return true
  for (const section of LEXICON.sections) if (section.includes(' ') && title.startsWith(section + ' ')) return true
  return false
}

function indent(spaces: string): number {
  let n = 0
  for (const ch of spaces) n += ch === '\t' ? 4 : 1
  return Math.min(n, 9)
}

/**
 * For each sentence, the leads of the blocks around it, the Pros/Cons weight and whether
 * it is a spec listing. `sentences` are scoreSentences(content).
 */
export function layoutOf(content: string, sentences: readonly ScoredSentence[]): SentenceLayout[] {
  const lines = readLines(content)
  const out: SentenceLayout[] = sentences.map(() => ({
    leads: [],
    weight: null,
    spec: false,
    label: false,
    listing: null,
    items: null,
    itemLead: null,
    guide: null,
    picks: null,
    field: null,
    listWeight: null,
  }))
  // The first sentence of each lead line; blocks open at a lead line and close at the next
  // non-blank line of the same rank or an outer one.
  const stack: { rank: number; sentence: number; label: BlockWeight }[] = []
  /** rank of the "other options" title whose section is open (lines deeper than it are in it) */
  let othersRank: number | null = null
  /** whether the last title read inside the lines was a rank title ("Top Picks:"): its items are picks */
  let ranked = false
  /** rank of the line that opened a buying guide section that is still open */
  let guide: number | null = null
  /** rank of the rank title ("### Top Picks") whose section is open: the leads under it are picks */
  let rankedRank: number | null = null
  /** the lead line just before this one (the last line that was not blank), when it named something: its rank and first sentence */
  let previousLead: { rank: number; sentence: number } | null = null
  let s = 0
  for (const line of lines) {
    if (line.blank) continue
    // A thematic break ends every block above it: answers put one between a product's
    // section and the next or the closing remarks ("### 5. Samsung Galaxy Buds Pro" … "---"
    // / "What features matter most to you?"), which are not the last product's lines.
    if (line.rule) {
      stack.length = 0
      previousLead = null
      continue
    }
    if (rankedRank !== null && line.rank <= rankedRank) rankedRank = null
    if (othersRank !== null && line.rank <= othersRank) othersRank = null
    if (guide !== null && line.rank <= guide) guide = null
    const inOthers = othersRank !== null || line.others
    if (!(line.label && line.rank > 6)) while (stack.length > 0 && stack[stack.length - 1].rank >= line.rank) stack.pop()
    // A bulleted label ("* **Pros**:") still ends the bullets before it at its level: under
    // "### 3. **Anker Soundcore Space NC**", "* **Price**: ~$100" was left open and, naming
    // "Price", owned the Pros items instead of the heading's product.
    else while (stack.length > 0 && stack[stack.length - 1].rank >= Math.max(line.rank, BULLET_RANK)) stack.pop()
    while (s < sentences.length && sentences[s].end <= line.start) s++
    const first = s
    const enclosing = stack.map((b) => b.sentence).filter((i) => i >= 0)
    const weight = [...stack].reverse().find((b) => b.label !== null)?.label ?? null
    // Answers whose line breaks were lost (Google AI Mode: "… Other Options: Molten BG4500:
    // FIBA approved …") open the section inside the line; it runs to the line's end or to a
    // generic section title ("Factors to Consider:").
    let inlineOthers = false
    // The sentence whose last item the next sentences of this line continue (answers whose
    // line breaks were lost: "…:Known for a secure fit. They offer customizable ANC.").
    let openItem: number | null = null
    for (let k = first; k < sentences.length && sentences[k].start < line.end; k++) {
      const sentence = sentences[k]
      const labels = readLabels(sentence)
      const items = labels?.items ?? null
      // "…portafilter.Pros:Durable, good value.Cons:Needs a grinder." (Google AI Mode, line
      // breaks lost): a Pros/Cons label after an item is that item's list, not an item of its own.
      const listWeight = openItem !== null && items !== null && items.length > 0 ? weightOfLabels(content, items) : null
      if (listWeight !== null) {
        out[k].itemLead = openItem
        out[k].listWeight = listWeight
      } else if (items !== null && items.length > 0) {
        out[k].items = items
        openItem = items[items.length - 1].blurb[1] >= sentence.end ? k : null
      } else if (items !== null || isChrome(sentence.text) || RUN_IN_PRICE.test(sentence.text)) openItem = null
      else if (openItem !== null) out[k].itemLead = openItem
      // A title may also sit inside the sentence, after text run on from a lost line break
      // or a shopping card ("…4.6(3k+)Other Solid Options: KitchenAid …"): the part after it
      // is in the section, up to a generic title.
      const titles = inOthers ? null : innerTitles(sentence.text, inlineOthers)
      const openAtStart = inlineOthers
      if (titles !== null) {
        let open: boolean = inlineOthers
        let from = open ? sentence.start : -1
        const spans: [number, number][] = []
        for (const { at, others } of titles) {
          if (others && !open) {
            open = true
            from = sentence.start + at
          } else if (!others && open) {
            open = false
            spans.push([from, sentence.start + at])
          }
        }
        if (open) spans.push([from, sentence.end])
        inlineOthers = open
        // A section from the sentence's first word on holds all of it.
        if (spans.length === 1 && spans[0][0] <= sentence.start && spans[0][1] >= sentence.end) out[k].spec = true
        else if (spans.length > 0) out[k].listing = spans
      }
      out[k].leads = enclosing
      out[k].field = fieldEnd(sentence)
      out[k].weight = out[k].listWeight ?? line.inlineLabel ?? weight
      out[k].spec ||= inOthers || (openAtStart && titles === null) || isSpecListing(sentence) || isChrome(sentence.text) || line.reference || line.sectionTitle
      out[k].label = line.label !== null
      // A buying guide ("Things to Consider When Choosing:", "Factors to consider:") runs
      // from its title to the next title that is not one: the brands it names are examples
      // of a criterion ("Battery Life: the OnePlus 13R and some Motorola phones …"), not picks.
      let guideAt = guide !== null ? sentence.start : -1
      let guideSpans: [number, number][] | null = null
      for (const title of labels?.titles ?? []) {
        const isGuide = isGuideTitle(content.slice(title.from, title.to))
        if (isGuide && guideAt < 0) guideAt = title.from
        else if (!isGuide && guideAt >= 0) {
          ;(guideSpans ??= []).push([guideAt, title.from])
          guideAt = -1
        }
      }
      if (guideAt >= 0) {
        ;(guideSpans ??= []).push([guideAt, sentence.end])
        guide ??= line.rank
      } else guide = null
      out[k].guide = guideSpans
      // Ranked picks: items under a rank title, and the product a rank label names.
      if (labels !== null) {
        let picks: [number, number][] | null = null
        const marks = [...labels.titles.map((t) => ({ at: t.from, title: t })), ...labels.items.map((i) => ({ at: i.label[0], item: i }))].sort((a, b) => a.at - b.at)
        for (const mark of marks) {
          if ('title' in mark && mark.title) ranked = isRankTitle(content.slice(mark.title.from, mark.title.to))
          else if ('item' in mark && mark.item) {
            const item = mark.item
            if (isRankTitle(content.slice(item.label[0], item.label[1]))) (picks ??= []).push([item.blurb[0], Math.min(item.blurb[1], item.blurb[0] + RANKED_NAME_CHARS)])
            else if (ranked) (picks ??= []).push(item.label)
          }
        }
        out[k].picks = picks
      } else if (RUN_IN_PRICE.test(sentence.text) || isChrome(sentence.text)) ranked = false
    }
    if (line.others) othersRank = line.rank
    const leadSentence = first < sentences.length && sentences[first].start < line.end ? first : -1
    // A rank title right under a product's heading ("### [Jabra Elite 45h]()" / "#### Best
    // Battery Life") ranks that product; elsewhere it opens a section whose leads it ranks
    // ("### 🔝 **Top Mesh Routers**" / "#### 1. **Netgear Orbi 970**").
    if (line.rankTitle) {
      if (previousLead !== null && previousLead.rank < line.rank) addPick(out, sentences, previousLead.sentence)
      else rankedRank = line.rank
    } else if (line.lead && leadSentence >= 0 && rankedRank !== null && line.rank > rankedRank && !inOthers) addPick(out, sentences, leadSentence)
    previousLead = line.lead && !line.rankTitle && leadSentence >= 0 ? { rank: line.rank, sentence: leadSentence } : null
    if (line.label && line.rank > 6) {
      // A label sits inside the block it is in (its items belong to that block's owner)
      // and ends the label before it: "1. Notion" / "**Pros:**" / "- fast" / "**Cons:**".
      while (stack.length > 0 && stack[stack.length - 1].label !== null) stack.pop()
      stack.push({ rank: (stack[stack.length - 1]?.rank ?? 0) + 1, sentence: -1, label: line.label })
    } else if (line.lead || line.label) stack.push({ rank: line.rank, sentence: line.label ? -1 : leadSentence, label: line.label })
  }
  // A product's name as a bare link ("[Soundcore Sport X10 True Wireless Earbuds](https://…)"):
  // a name, whose words ("True", "High Performance") judge nothing; a ranked pick keeps its rank.
  for (let k = 0; k < sentences.length; k++) if (out[k].picks === null && LINK_ONLY.test(sentences[k].text)) out[k].spec = true
  return out
}

/** A markdown link and nothing else but bold markers and a closing colon. */
const LINK_ONLY = /^[\s*_]*\[[^\]]+\]\((?:[^()\s]|\([^()\s]*\))*\)[\s*_:：]*$/

/** A leading bold field label and the space after it: "**Why It's Great:** ", "**Best for**: ". */
const FIELD_LABEL = /^(?:\*\*|__)[^*_\n:：]{1,60}(?:[:：](?:\*\*|__)|(?:\*\*|__)[:：])[ \t\u00a0]*/

/** The absolute offset where the text after a sentence's leading bold field label starts (a label of at most six words, text after it), or null. */
function fieldEnd(sentence: ScoredSentence): number | null {
  if (sentence.text.charCodeAt(0) !== 42 && sentence.text.charCodeAt(0) !== 95) return null
  const m = FIELD_LABEL.exec(sentence.text)
  if (!m || m[0].length >= sentence.text.length || m[0].trim().split(/\s+/).length > FIELD_WORDS) return null
  return sentence.start + m[0].length
}

/** The most words a leading field label has ("Why It's a Great Pick"). */
const FIELD_WORDS = 6

/** The part of a sentence from absolute offset `at` on, as a sentence of its own (its tokens from the first one starting there), or null when no token does. */
export function sentenceFrom(sentence: ScoredSentence, at: number): ScoredSentence | null {
  const tokens = sentence.tokens
  if (!tokens) return null
  let from = tokens.from
  while (from <= tokens.to && tokens.offset + tokens.start[from] < at) from++
  if (from > tokens.to) return null
  return { start: at, end: sentence.end, text: sentence.text.slice(at - sentence.start), sentiment: meanTokenScore(tokens.score, from, tokens.to), tokens: { ...tokens, from } }
}

/** Marks a lead line's first sentence as naming a ranked pick (see SentenceLayout.picks). */
function addPick(out: SentenceLayout[], sentences: readonly ScoredSentence[], k: number): void {
  ;(out[k].picks ??= []).push([sentences[k].start, sentences[k].end])
}

/** The most words a rank title standing alone has ("Best for High-Resolution Video", "Top Mesh Network Routers 2025"). */
const RANK_TITLE_WORDS = 6

/** A price run into the word before it ("…Earbuds$99.99"): a shopping card, which ends the item before it. */
const RUN_IN_PRICE = /[^\s\\]\$\d/

/** The longest item label: "Motorola Moto G Stylus 5G (2024)", "**Soundcore by Anker Space Q45**". */
const LABEL_CHARS = 80
const LABEL_WORDS = 10

/**
 * The item labels of a sentence and their blurbs: "Name: blurb" runs, where the name is a
 * short run of words with no sentence end and no price in it, after the sentence's start or
 * after another label's colon ("Top Picks:\u00a0JBL Reflect Aero: These are waterproof").
 * A label followed at once by another label is a title ("Top Picks:"), not an item. Null when
 * the sentence has no colon; an empty list when it has labels but no item (titles only).
 */
export function inlineItems(sentence: ScoredSentence): InlineItem[] | null {
  return readLabels(sentence)?.items ?? null
}

/** A sentence's item labels with their blurbs, and its titles (labels followed at once by another label or the end): absolute offsets. */
interface Labels {
  items: InlineItem[]
  titles: { from: number; to: number }[]
}

function readLabels(sentence: ScoredSentence): Labels | null {
  const text = sentence.text
  if (!text.includes(':') && !text.includes('：')) return null
  const labels: { from: number; colon: number }[] = []
  let from = 0
  let found = false
  for (let at = 0; at < text.length; at++) {
    const ch = text[at]
    if (ch !== ':' && ch !== '：') continue
    // "https://…", "10:30": not a label's colon.
    if (text.startsWith('//', at + 1) || (/\d/.test(text[at - 1] ?? '') && /\d/.test(text[at + 1] ?? ''))) continue
    // A title run on after a shopping card ("…$94.67(€83.27)4.8(299)Things to Consider:") starts after it.
    const price = text.lastIndexOf('$', at)
    if (price >= from) {
      const end = CARD_END.exec(text.slice(price, at))
      if (end) from = price + end.index + 1
    }
    if (isItemLabel(text, from, at)) labels.push({ from, colon: at })
    found = true
    from = at + 1
  }
  if (!found) return null
  const out: Labels = { items: [], titles: [] }
  for (let i = 0; i < labels.length; i++) {
    const blurbFrom = labels[i].colon + 1
    const blurbTo = i + 1 < labels.length ? labels[i + 1].from : text.length
    const labelFrom = labels[i].from + (/^[\s*_\u00a0]*/.exec(text.slice(labels[i].from, labels[i].colon))?.[0].length ?? 0)
    // A title: the next label (or the sentence's end) follows at once.
    if (!/[\p{L}\p{N}]/u.test(text.slice(blurbFrom, blurbTo))) out.titles.push({ from: sentence.start + labelFrom, to: sentence.start + labels[i].colon })
    // A label with a verb opens the sentence's own list ("So are cooked plates: …"); it names no item.
    else if (!hasVerb(sentence, sentence.start + labelFrom, sentence.start + labels[i].colon))
      out.items.push({ label: [sentence.start + labelFrom, sentence.start + labels[i].colon], blurb: [sentence.start + blurbFrom, sentence.start + blurbTo] })
  }
  return out
}

/** The one weight of a sentence's item labels when every one of them is a Pros (or every one a Cons) label ("Pros:Durable, light"), else null. */
function weightOfLabels(content: string, items: readonly InlineItem[]): BlockWeight {
  let weight: BlockWeight = null
  for (const item of items) {
    const label = labelOf(content.slice(item.label[0], item.label[1]))
    if (label === null || (weight !== null && label !== weight)) return null
    weight = label
  }
  return weight
}

/** The end of a shopping card's price and rating: the last character before the next name ("…4.8(299)Things"). */
const CARD_END = /[)\d](?=\p{Lu})/u

/** Whether a verb stands in [from, to) (absolute offsets): "So are cooked plates:" opens a sentence's own list, it does not name an item. */
function hasVerb(sentence: ScoredSentence, from: number, to: number): boolean {
  const tokens = sentence.tokens
  if (!tokens) return false
  for (let t = tokens.from; t <= tokens.to; t++) {
    const at = tokens.offset + tokens.start[t]
    if (at >= to) break
    if (at < from || (tokens.pos[t] !== 'VERB' && tokens.pos[t] !== 'AUX')) continue
    // A capitalised word followed by another is a word of a name, whatever wink tags it:
    // "Beats Fit Pro", "JLab Go Air Sport" (wink: "Beats", "Fit", "Go" verbs); "Consider these:" has a verb.
    const next = t < tokens.to && tokens.offset + tokens.start[t + 1] < to ? tokens.value[t + 1] : ''
    if (!CAPITALISED.test(tokens.value[t]) || !NAME_WORD.test(next)) return true
  }
  return false
}
const CAPITALISED = /^\p{Lu}/u

/** Whether text[from, colon) is an item's label: short, no sentence end, no price, starting like a name. */
function isItemLabel(text: string, from: number, colon: number): boolean {
  // A markdown link's target is not part of the name the reader sees: "**[Apple iPhone SE
  // (3rd Generation)](https://www.rexiresale.com/products/…)**" is a short label.
  const label = text.slice(from, colon).replace(LINK_TARGET, ']').trim()
  if (label.length === 0 || label.length > LABEL_CHARS || label.includes('$')) return false
  if (/[.!?]\s/.test(label) || !/^[\p{Lu}\p{N}[*_]/u.test(label)) return false
  return label.split(/\s+/).length <= LABEL_WORDS
}

/** A markdown link's target after its text ("[Name](https://…)"): no spaces, no nested parentheses beyond one level. */
const LINK_TARGET = /\]\((?:[^()\s]|\([^()\s]*\))*\)/g

/**
 * "Things to Consider When Choosing", "Factors to consider", "Key features to look for",
 * "Tips": the title of a buying guide's section, which names brands as examples of a
 * criterion. (An "other options to consider" title is a listing of products instead.)
 */
export function isGuideTitle(text: string): boolean {
  return GUIDE_TITLE.test(text) && !isOthersTitle(text)
}
/** Any of the lexicon's `guides` words, as a whole word anywhere in the title. */
const GUIDE_TITLE = new RegExp(`(?<![\\p{L}])(?:${alternatives(LEXICON.guides)})(?![\\p{L}])`, 'iu')

/**
 * "Top Picks", "Best Overall", "Best for Gaming", "Budget Pick", "Our Recommendations": a
 * rank label, which makes the products under it (or named right after it) the answer's picks.
 */
export function isRankTitle(text: string): boolean {
  return RANK_TITLE.test(text.replace(LABEL_NOISE, '').trim()) && !isOthersTitle(text) && !isGuideTitle(text)
}
/** The lexicon's `ranks`: a title opening with one of its first words, or holding one of its words as a whole word. */
const RANK_TITLE = new RegExp(`^(?:${alternatives(LEXICON.ranks.first)})(?![\\p{L}])|(?<![\\p{L}])(?:${alternatives(LEXICON.ranks.words)})(?![\\p{L}])`, 'iu')

/** Lexicon words as a RegExp alternation, each matched literally (an empty list matches nothing). */
function alternatives(words: readonly string[]): string {
  return words.length === 0 ? '(?!)' : words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
}

/** How far into a rank label's blurb its product's name may start ("**Best Overall:** [HP 15.6\" Touchscreen Laptop]() – …"). */
const RANKED_NAME_CHARS = 40

/** The answer engine's interface text captured with the answer (lexicon `chrome`): not the answer's words. */
export function isChrome(text: string): boolean {
  return LEXICON.chrome !== null && LEXICON.chrome.test(text)
}

/**
 * "RAM: 16GB", "Screen: 14-inch Full HD", "Price: $579": a label, a colon and a value
 * with a number, and no verb. Such lines describe, they do not judge.
 */
export function isSpecListing(sentence: ScoredSentence): boolean {
  const m = /^[^:：]{1,30}[:：]\s*(.+)$/su.exec(sentence.text)
  if (!m || !/\d/.test(m[1])) return false
  // A label that is itself a verdict ("Pros: 20-hour battery", "Highlights: …", "Worst part:
  // $12 appetizers") heads a judgement, not a spec.
  if (labelOf(sentence.text.slice(0, sentence.text.length - m[1].length)) !== null) return false
  const tokens = sentence.tokens
  if (!tokens) return true
  const labelEnd = sentence.start + sentence.text.length - m[1].length
  // A listing is a run of noun fragments: no verb, no article ("ASUS ProArt PA278CGV: A great
  // all-around option with 90W USB-C" is a product's blurb, not a spec), and short.
  let words = 0
  for (let t = tokens.from; t <= tokens.to; t++) {
    if (tokens.score[t] !== 0 && tokens.offset + tokens.start[t] < labelEnd) return false
    if (tokens.pos[t] === 'VERB' || tokens.pos[t] === 'DET') return false
    if (tokens.pos[t] !== 'PUNCT' && ++words > SPEC_WORDS) return false
  }
  return true
}

/** The most words (label and value) a spec listing has: "Specs: Intel Core i7, 16GB RAM, 512GB SSD" has 8. */
const SPEC_WORDS = 14

/**
 * Whether the brand named at [start, end) (offsets in the answer) of `sentence`, laid out as
 * `place`, is only listed there: inside an "other options" section that opens within the
 * sentence, or in a shopping card the answer engine shows among the text ("Sony
 * WH-CH720N$99.99$149.994.6(9k+)": a product name run into its price, which prose never
 * writes). Either way the words around it are not the answer's judgement of it.
 */
export function isListedAt(sentence: ScoredSentence, place: SentenceLayout, start: number, end: number): boolean {
  if (place.listing !== null) for (const [from, to] of place.listing) if (start >= from && start < to) return true
  return isShoppingCard(sentence.text, end - sentence.start)
}

/** The name ending at `end` runs into a price with no space ("…Earbuds$99.99"), within a card's length and with no sentence or label punctuation between. */
export function isShoppingCard(text: string, end: number): boolean {
  const dollar = text.indexOf('$', end)
  if (dollar < end || dollar - end > CARD_NAME_CHARS || !/[^\s\\]/.test(text[dollar - 1]) || !/\d/.test(text[dollar + 1] ?? '')) return false
  return !/[.!?]\s|[:：\n]/.test(text.slice(end, dollar))
}

/** The longest rest of a product name in a shopping card, after the brand. */
const CARD_NAME_CHARS = 120

/**
 * Words before a name that make it a complement of what the line is about, not its subject:
 * "works with Google Assistant", "great for Apple users", "EQ via the Soundcore app".
 */
const PASSING = new Set(['with', 'for', 'via', 'from', 'to', 'on', 'like', 'including', 'into'])
/** Tags a name's own phrase or a list of names may hold between such a word and the name ("with Alexa, Google Assistant"). */
const PHRASE_TAGS = new Set(['PROPN', 'NOUN', 'DET', 'ADJ', 'NUM', 'CCONJ', 'PUNCT', 'PART'])

/**
 * Whether the name at `start` (offset in the answer) is named in passing: after "with",
 * "for", "via" …, with only its own phrase or a list of names
 * between. In a line under another product's item ("### Wyze Cam v4" / "**Integration**:
 * works with Alexa and Google Assistant"), such a name is not what the line judges.
 */
export function isNamedInPassing(sentence: ScoredSentence, start: number): boolean {
  const tokens = sentence.tokens
  if (!tokens) return false
  let t = tokens.to
  while (t > tokens.from && tokens.offset + tokens.start[t] > start) t--
  // An aside in parentheses ("Spatial audio (Apple ecosystem bonus)"): a parenthesis opened
  // before the name and not closed before it, unless it holds only names, a product's maker
  // ("Eero Pro 6E (Amazon)", "(by Amazon)").
  for (let k = t - 1, depth = 0; k >= tokens.from; k--) {
    if (tokens.word[k] === ')') depth++
    else if (tokens.word[k] === '(' && depth-- === 0) {
      for (let j = k + 1; j <= tokens.to && tokens.word[j] !== ')'; j++) if (!MAKER_WORD.test(tokens.value[j])) return true
      return false
    }
  }
  for (let k = t - 1, seen = 0; k >= tokens.from && seen < PASSING_REACH; k--, seen++) {
    const word = tokens.word[k]
    if (PASSING.has(word)) return true
    if (word === ')' || word === ':' || !PHRASE_TAGS.has(tokens.pos[k])) return false
  }
  return false
}

/** A word of a maker's name in parentheses: capitalised, a number, "&", "by". */
const MAKER_WORD = /^(?:[\p{Lu}\p{N}]|&$|by$)/u

/** How many tokens back a "with"/"for" may stand from the name ("with Alexa, Google Assistant and Apple HomeKit"). */
const PASSING_REACH = 6
