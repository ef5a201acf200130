// wink-nlp's `readDoc` for the one pipe analysis uses (sbd, negation, sentiment, pos), put
// together from wink's own modules so that it costs less and computes the same thing (issue
// 30 point 4: the parse was most of each answer's time):
//
// - no document object: wink builds an API object of ~60 closures per `readDoc` and its
//   `out()` maps every token through a generic reader; analysis reads the token arrays
//   directly (value, negation flag, POS tag, sentence spans, the sentiment setter's hits);
// - the tokenizer's work on a whitespace-delimited chunk is remembered. wink tokenizes each
//   chunk on its own (regular expressions, recursive splitting of `**Name**`, `(source:`,
//   URLs), and the only thing besides the chunk's text that decides its tokens is which
//   strings its lexicon lookups find. The lexicon only grows (unknown words are added as
//   they are seen), so a remembered tokenization is still wink's answer as long as every
//   string it looked up and did not find is still absent; otherwise the chunk is tokenized
//   again and remembered afresh. Token ids are stable once assigned, so replaying the
//   remembered tokens is exactly what wink's tokenizer would push;
// - the machines (sentences, negation, sentiment, POS) run through FastAutomaton below:
//   wink's recognize() step for step on the same tables, held in Maps and arrays.
//
// Everything else is wink's code, called in readDoc's order with the model's machines,
// transformers and setters. `test/analysis/wink-parse.test.ts` compares it with wink's own
// `readDoc` on the evaluation's sentences and answers; it depends on wink-nlp's source layout
// (`wink-nlp/src/*.js`, 2.x), which that test would catch changing.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** One line as wink reads it: its tokens, their negation flags and POS tags, sentences, sentiment hits. */
export interface WinkParse {
  /** token texts, verbatim slices of the input */
  values: string[]
  /** wink's negation flag per token */
  negated: boolean[]
  /** universal POS tag per token */
  pos: string[]
  /** sentences as [first token, last token] */
  spans: [number, number][]
  /** the sentiment setter's lexicon hits: [first token, last token, score in [-1, 1]] */
  hits: number[][]
  /** wink's document sentiment (mean of its sentence scores) */
  sentiment: number
}

// The parts of wink's internals used here, typed as far as this file needs them.
type Tokens = number[]
interface Cache {
  value(index: number): string
  valueOf(feature: string, index: number): string
  lookup(text: string): number[] | null
}
interface Rdd {
  cache: Cache
  wordVectors: null
  tokens: Tokens
  sentences: number[][]
  markings: unknown[]
  currPipe: Record<string, boolean>
  nonBreakingSpaces: Record<number, string>
  numOfTokens: number
  numOfSentences: number
  document: number[]
  entities: unknown[]
  customEntities: unknown[]
}
interface DocData {
  _addToken(text: string, category: number, precedingSpaces: number, nbsp: string | null): boolean
  _addTokenIfInCache(text: string, precedingSpaces: number, nbsp: string | null): number
  isLexeme(text: string): number[] | null
  clean(): void
}
interface Automaton {
  importJSON(json: unknown): void
  setPatternSwap(px: unknown): void
  recognize(tokens: unknown, transformer?: unknown, param?: unknown): number[][]
}
type Fn = (...args: never[]) => unknown
interface ModelPart {
  machines: unknown[]
  transformers: Fn[]
  setter: Fn
  updater: Fn
}
interface CoreModel {
  trex: unknown
  tcat: { hash: Record<string, number> }
  preserve: unknown
  features: { lexeme: { hash: Record<string, number> } }
}

interface Parser {
  cache: Cache
  lexemes: Record<string, number>
  tokenize(doc: DocData, text: string): void
  wrap(rdd: { cache: Cache; tokens: Tokens; nonBreakingSpaces: Record<number, string> }): DocData
  read(text: string): { rdd: Rdd; hits: number[][] }
}

let parser: Parser | null = null

function getParser(): Parser {
  if (parser !== null) return parser
  const wink = (name: string) => require(`wink-nlp/src/${name}`) as unknown
  const Cache = wink('cache.js') as (model: CoreModel, featureFn: unknown) => Cache
  const compileTRex = wink('compile-trex.js') as (trex: unknown) => unknown
  const tokenizer = wink('tokenizer.js') as (trex: unknown, categories: unknown, preserve: unknown) => (doc: DocData, text: string) => void
  const DocDataWrapper = wink('dd-wrapper.js') as Parser['wrap']
  const mappers = wink('tokens-mappers.js') as { mapRawTokens2UIdOfNormal(rdd: Rdd): number[]; mapRawTokens2UIdOfDefaultPOS(rdd: Rdd): number[] }
  const constants = wink('constants.js') as { tkSize: number; bits4lemma: number }
  const fsm = wink('automaton.js') as (cache: Cache, token2Ignore?: string) => Automaton
  const search = wink('search.js')
  const locate = wink('locate.js')
  const theModel = require('wink-eng-lite-web-model') as {
    core(): CoreModel
    featureFn: unknown
    sbd(): ModelPart
    negation(): ModelPart
    sa(): ModelPart
    pos(): ModelPart
  }

  // wink-nlp.js load(), for this pipe (NER and custom entities are not run; loading their
  // automata only looks the line feed up, it adds nothing to the lexicon).
  const model = theModel.core()
  const cache = Cache(model, theModel.featureFn)
  const trex = compileTRex(model.trex)
  const tokenize = tokenizer(trex, model.tcat.hash, model.preserve)
  // wink's automaton (automaton.js) runs these machines with no pattern swap (one sentence
  // machine, started with none) and no detection callback; FastAutomaton is its recognize()
  // for that case on the same tables, read into Maps and arrays.
  const load = (part: ModelPart, i: number, ignore?: string): Automaton => {
    const automaton = ignore === undefined ? fsm(cache) : fsm(cache, ignore)
    automaton.importJSON(part.machines[i])
    return automaton
  }
  const loadFast = (part: ModelPart, i: number, ignore?: string): Automaton => new FastAutomaton(part.machines[i] as string, cache.lookup(ignore ?? '\n')![0], cache)
  const sbdModel = theModel.sbd()
  // More than one sentence machine would pass each the previous one's patterns (a swap).
  const sbdAutomata = sbdModel.machines.map((_, i) => (sbdModel.machines.length === 1 ? loadFast(sbdModel, i) : load(sbdModel, i)))
  const negModel = theModel.negation()
  const negAutomaton = loadFast(negModel, 0)
  const saModel = theModel.sa()
  const saAutomaton = loadFast(saModel, 0)
  const posModel = theModel.pos()
  // "Ignore only OOV literal and not new line character in the case of POS Tagging."
  const posAutomata = posModel.machines.map((_, i) => loadFast(posModel, i, cache.value(0)))
  const call = (fn: Fn, ...args: unknown[]) => (fn as (...a: unknown[]) => unknown)(...args)
  const currPipe: Record<string, boolean> = Object.create(null)
  for (const at of ['sbd', 'negation', 'sentiment', 'pos']) currPipe[at] = true

  const self: Parser = {
    cache,
    lexemes: model.features.lexeme.hash,
    tokenize,
    wrap: DocDataWrapper,
    // wink-nlp.js readDoc(), the same steps in the same order, minus the document object.
    read(text) {
      const rdd = Object.create(null) as Rdd
      rdd.cache = cache
      rdd.wordVectors = null
      rdd.tokens = []
      rdd.sentences = []
      rdd.markings = []
      rdd.currPipe = currPipe
      rdd.nonBreakingSpaces = Object.create(null)
      tokenizeLine(self, rdd, text)
      rdd.numOfTokens = rdd.tokens.length / constants.tkSize
      rdd.document = [0, rdd.numOfTokens - 1, 0, 0]
      const tokens4Automata = mappers.mapRawTokens2UIdOfNormal(rdd)

      let px: unknown = null
      for (let i = 0; i < sbdAutomata.length; i++) {
        sbdAutomata[i].setPatternSwap(px)
        px = sbdAutomata[i].recognize(tokens4Automata, sbdModel.transformers[i], rdd.tokens)
      }
      call(sbdModel.setter, px, rdd)
      rdd.numOfSentences = rdd.sentences.length
      rdd.entities = []

      px = negAutomaton.recognize(tokens4Automata)
      call(negModel.setter, px, rdd, constants, search)

      const hits = saAutomaton.recognize(tokens4Automata)
      call(saModel.setter, hits, rdd, constants, locate)

      const posTags = mappers.mapRawTokens2UIdOfDefaultPOS(rdd)
      for (let i = 0; i < posAutomata.length; i++) {
        // wink passes the first transformer to every POS machine.
        px = posAutomata[i].recognize(posTags, posModel.transformers[0], rdd.tokens)
        call(posModel.updater, px, cache, posTags, tokens4Automata)
      }
      call(posModel.setter, rdd, posTags, constants.tkSize, constants.bits4lemma)
      rdd.customEntities = []
      return { rdd, hits }
    },
  }
  parser = self
  return self
}

// automaton.js's end-of-sequence token and the key of a state's fallback transition (with a cache).
const EOS_TOKEN = 2070000
const OTHERWISE = 2070003

/**
 * wink's automaton.js recognize(), step for step, without a pattern swap or a detection
 * callback, on the machine's tables read into a Map of transitions per state and arrays of
 * fallbacks, terminal and marked states (wink looks each step up in plain objects parsed
 * from JSON). Tokens are numbers, or strings where the POS updater has put a pattern's value
 * (`"12"`) between the two POS machines: a plain object finds key "12" for either, so keys and
 * tokens that are numbers as text are looked up as numbers (asKey).
 */
class FastAutomaton implements Automaton {
  private readonly next: (Map<number | string, number> | undefined)[] = []
  private readonly otherwise: number[] = []
  private readonly terminal: (string | undefined)[] = []
  private readonly marked: ([number, number] | undefined)[] = []

  constructor(
    json: string,
    private readonly keyLF: number,
    private readonly cache: Cache,
  ) {
    const [, , fsm, terminalStates, markedStates, custom] = JSON.parse(json) as [
      number,
      number,
      Record<string, Record<string, number>>,
      Record<string, string>,
      Record<string, [number, number]>,
      Record<string, unknown>,
    ]
    if (Object.keys(custom).length > 0) throw new Error("wink-parse: a machine with custom properties needs wink-nlp's own automaton")
    for (const state in fsm) {
      const transitions = new Map<number | string, number>()
      for (const key in fsm[state]) transitions.set(asKey(key), fsm[state][key])
      this.next[Number(state)] = transitions
      this.otherwise[Number(state)] = fsm[state][OTHERWISE] ?? 0
    }
    for (const state in terminalStates) this.terminal[Number(state)] = terminalStates[state]
    for (const state in markedStates) this.marked[Number(state)] = markedStates[state]
  }

  importJSON(): void {
    throw new Error('wink-parse: FastAutomaton is built from its JSON')
  }

  setPatternSwap(px: unknown): void {
    if (px) throw new Error('wink-parse: FastAutomaton has no pattern swap')
  }

  recognize(tokens: (number | string)[], transformToken?: Fn, param?: unknown): number[][] {
    const length = tokens.length
    const transform = typeof transformToken === 'function' ? (transformToken as (t: number | string, cache: Cache, param: unknown, j: number) => number | string) : null
    const patterns: number[][] = []
    let first = 0
    let state = 0
    let lastOtherwiseIndex = 0
    let lastOtherwiseState = 0
    for (let i = 0; i <= length; i++) {
      for (let j = i; j <= length; j++) {
        let t = j === length ? EOS_TOKEN : tokens[j]
        if (t === this.keyLF) continue
        if (transform !== null && j < length) t = transform(t, this.cache, param, j)
        let ns = this.next[state]!.get(typeof t === 'number' ? t : asKey(t)) || 0
        if (!state && ns) first = j
        if (this.terminal[ns]) {
          this.push(patterns, [first, j, ns])
          i = j
          j = length + 100
          ns = 0
          lastOtherwiseState = 0
        } else if (ns === 0) {
          if (lastOtherwiseState) {
            this.push(patterns, [first, lastOtherwiseIndex, lastOtherwiseState])
            i = lastOtherwiseIndex
            j = length + 100
            ns = 0
            lastOtherwiseState = 0
          } else {
            j = length + 100
          }
        }
        state = ns
        const otherwise = this.otherwise[state]
        if (otherwise) {
          lastOtherwiseIndex = j
          lastOtherwiseState = otherwise
        }
      }
    }
    return patterns
  }

  // automaton.js pushMatch2Patterns(): a terminal of '0' is no pattern; a marked state trims
  // the match; the match's third element becomes the terminal's value.
  private push(patterns: number[][], match: number[]): void {
    const m0 = match[2]
    const terminal = this.terminal[m0]
    if (terminal === '0') return
    const mark = this.marked[m0]
    if (mark) {
      match[0] += mark[0]
      match[1] -= mark[1]
    }
    ;(match as unknown[])[2] = terminal
    patterns.push(match)
  }
}

/** An object key as a Map key: a number if it is one written canonically (as JavaScript would name it), else the text. */
function asKey(key: string): number | string {
  const n = Number(key)
  return String(n) === key ? n : key
}

// The characters wink's tokenizer treats as non-breaking spaces (tokenizer.js): a line
// with any of them is tokenized by wink as a whole, with nothing remembered (their
// bookkeeping is per token of the line).
const NBSP = /[\u00a0\u2002-\u2005\u2009\u200a\u202f\u205f]/
const MAX_PRECEDING_SPACES = 65535
const UNKNOWN = 0

/** A chunk's tokens as wink's tokenizer pushed them (4 numbers a token), and what its lookups did not find. */
interface ChunkTokens {
  tokens: Tokens
  missed: string[]
}
const chunks = new Map<string, ChunkTokens>()
// Bounded: cleared when full (answers reuse a small vocabulary of chunks).
const CHUNK_LIMIT = 50_000

// wink's tokenize() loop (tokenizer.js), with each chunk's tokens remembered.
function tokenizeLine(p: Parser, rdd: Rdd, text: string): void {
  if (NBSP.test(text)) {
    p.tokenize(p.wrap(rdd), text)
    return
  }
  const out = rdd.tokens
  // text.split(splitter) by hand: runs of spaces set the next chunk's preceding spaces, runs
  // of tabs and line breaks are chunks of their own, anything else up to one of those is a chunk.
  const length = text.length
  let precedingSpaces = 0
  let at = 0
  while (at < length) {
    const code = text.charCodeAt(at)
    let end = at + 1
    if (code === SPACE) {
      while (end < length && text.charCodeAt(end) === SPACE) end++
      const spaces = end - at
      precedingSpaces = spaces > MAX_PRECEDING_SPACES - 1 ? MAX_PRECEDING_SPACES - 1 : spaces
      at = end
      continue
    }
    if (isBreak(code)) while (end < length && isBreak(text.charCodeAt(end))) end++
    else while (end < length && !isSeparator(text.charCodeAt(end))) end++
    const t = text.slice(at, end)
    at = end
    let chunk = chunks.get(t)
    if (chunk === undefined || (chunk.missed.length > 0 && !stillMissing(p, chunk.missed))) {
      chunk = tokenizeChunk(p, t)
      if (chunks.size >= CHUNK_LIMIT) chunks.clear()
      chunks.set(t, chunk)
    }
    const tokens = chunk.tokens
    // The chunk was tokenized with no preceding spaces; wink gives them to its first token
    // (below the expansion bits, which start at bit 16).
    if (tokens.length > 0) out.push(tokens[0], tokens[1] | precedingSpaces, tokens[2], tokens[3])
    for (let k = 4; k < tokens.length; k += 4) out.push(tokens[k], tokens[k + 1], tokens[k + 2], tokens[k + 3])
    precedingSpaces = 0
  }
}

const SPACE = 0x20
/** tab, line feed, carriage return: wink's splitter makes runs of them chunks of their own */
const isBreak = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d
const isSeparator = (code: number) => code === SPACE || isBreak(code)

function stillMissing(p: Parser, missed: readonly string[]): boolean {
  for (const text of missed) if (p.lexemes[text] !== undefined) return false
  return true
}

/** wink's tokenizer on one chunk (no spaces, so one unit with no preceding spaces), its lookups recorded. */
function tokenizeChunk(p: Parser, text: string): ChunkTokens {
  const tokens: Tokens = []
  const missed: string[] = []
  const inner = p.wrap({ cache: p.cache, tokens, nonBreakingSpaces: Object.create(null) as Record<number, string> })
  const recording: DocData = {
    _addToken: inner._addToken,
    _addTokenIfInCache(word, precedingSpaces, nbsp) {
      const found = inner._addTokenIfInCache(word, precedingSpaces, nbsp)
      if (found === UNKNOWN) missed.push(word)
      return found
    },
    isLexeme(word) {
      const found = inner.isLexeme(word)
      if (found === null) missed.push(word)
      return found
    },
    clean: inner.clean,
  }
  p.tokenize(recording, text)
  return { tokens, missed }
}

/** One line through wink's pipe (sbd, negation, sentiment, pos), as `readDoc` would read it. */
export function winkParse(text: string): WinkParse {
  const p = getParser()
  const { rdd, hits } = p.read(text)
  const n = rdd.numOfTokens
  const tokens = rdd.tokens
  const cache = p.cache
  const values = new Array<string>(n)
  const negated = new Array<boolean>(n)
  const pos = new Array<string>(n)
  for (let i = 0; i < n; i++) {
    const at = i * 4
    values[i] = cache.value(tokens[at])
    negated[i] = tokens[at + 3] >= NEGATION_FLAG
    pos[i] = cache.valueOf('pos', (tokens[at + 2] & POS_MASK) >>> BITS_FOR_LEMMA)
  }
  const spans = rdd.sentences.map((s): [number, number] => [s[0], s[1]])
  return { values, negated, pos, spans, hits, sentiment: rdd.document[3] }
}

// constants.js of wink-nlp: the negation flag is the top bit of a token's fourth number,
// the POS tag bits 20-25 of its third.
const NEGATION_FLAG = 2 ** 31
const POS_MASK = 0x3f00000
const BITS_FOR_LEMMA = 20
