// Target-level sentiment on public, labelled text nobody here wrote (bench/eval/README.md:
// which data, its licence, how it was prepared). Used by bench/eval-analysis.ts.
//
//   mams-atsa         MAMS aspect-term set (restaurant reviews; every sentence has ≥ 2
//                     aspects of different polarity): +/-/0 per aspect term
//   tsa-md            TSA-MD (crowd-written reviews of products, restaurants, hotels …):
//                     +/- per sentiment-bearing target (the set has no neutral targets)
//   ai-product-bench  real ChatGPT and Google AI Mode shopping answers: is each brand of the
//                     query set that the answer names among the products the dataset lists
//                     as the answer's recommendations ("recommended") or not ("listed")?
//
// As a customer has it: for the review sets only the target is configured (the other nouns
// and names in the sentence are not), for the answers the query set's brands are.
// Beacon = analyzeResponse's brand sentiment. Baseline = wink-nlp's own sentence sentiment
// (AFINN-style lexicon with negation, like VADER) averaged over the same sentences that
// name the target: the "lexicon at sentence level" rule.
//
// Each item is in the tuning part or the held-out part by a fixed hash of its sentence
// (review sets) or of its query set (answers: the 24 answers to one query stay together):
// FNV-1a 32-bit of the key, held out unless hash % 3 === 0. Only the tuning part was ever
// looked at while writing the rules; the headline figures are the held-out ones.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { WinkMethods } from 'wink-nlp'
import { analyzeResponse } from '../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../src/analysis/mentions.js'
import { scoreSentences } from '../src/analysis/sentiment.js'

export type Label = '+' | '-' | '0'
export const NEUTRAL_BAND = 0.05
export const toLabel = (score: number | null | undefined): Label => (score == null || Math.abs(score) <= NEUTRAL_BAND ? '0' : score > 0 ? '+' : '-')

/** FNV-1a, 32 bit: a fixed, documented split that does not depend on file order. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}
export type Part = 'tune' | 'held-out' | 'check'
export const partOf = (key: string): Part => (fnv1a(key) % 3 === 0 ? 'tune' : 'held-out')

/**
 * Where the prepared files are: BEACON_EVAL_DATA, else bench/eval/external (what
 * prepare-external.ts writes by default), else a `shared/eval-data/sentiment` folder beside
 * the checkout or one level up (where the shared data folder sits for CI and worktrees).
 */
export function findDataDir(): string | null {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const candidates = [
    process.env.BEACON_EVAL_DATA,
    join(repo, 'bench', 'eval', 'external'),
    join(repo, '..', 'shared', 'eval-data', 'sentiment'),
    join(repo, '..', '..', 'shared', 'eval-data', 'sentiment'),
  ]
  for (const dir of candidates) if (dir && existsSync(join(dir, 'mams-atsa.jsonl'))) return dir
  return null
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)

// ---- baseline: wink's sentence sentiment ---------------------------------------------

const require = createRequire(import.meta.url)
let wink: WinkMethods | null = null
function winkSentence(text: string): number {
  if (!wink) {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default
    const model = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default
    wink = winkNLP(model, ['sbd', 'negation', 'sentiment'])
  }
  return wink.readDoc(text).out(wink.its.sentiment) as unknown as number
}

/** Baseline score of the spans [from, to) in `text`: mean wink sentiment of Beacon's sentences overlapping them. */
function baselineScore(text: string, spans: readonly [number, number][]): number | null {
  const sentences = scoreSentences(text).filter((s) => spans.some(([from, to]) => s.start < to && from < s.end))
  if (sentences.length === 0) return null
  let sum = 0
  for (const s of sentences) sum += winkSentence(s.text)
  return sum / sentences.length
}

// ---- metrics -------------------------------------------------------------------------

export interface Scored {
  gold: Label
  beacon: Label
  baseline: Label
}
export interface Figures {
  items: number
  beacon: number
  baseline: number
}
const accuracy = (items: readonly Scored[], system: 'beacon' | 'baseline') => (items.length === 0 ? NaN : items.filter((i) => i[system] === i.gold).length / items.length)
/** Mean recall over the gold classes present: chance is 1 / classes whatever the class balance. */
const balancedAccuracy = (items: readonly Scored[], system: 'beacon' | 'baseline') => {
  const classes = [...new Set(items.map((i) => i.gold))]
  if (classes.length === 0) return NaN
  let sum = 0
  for (const c of classes) {
    const ofClass = items.filter((i) => i.gold === c)
    sum += ofClass.filter((i) => i[system] === c).length / ofClass.length
  }
  return sum / classes.length
}
const round = (x: number) => Number(x.toFixed(3))
function figures(items: readonly Scored[], metric: typeof accuracy): Figures {
  return { items: items.length, beacon: round(metric(items, 'beacon')), baseline: round(metric(items, 'baseline')) }
}

// ---- review sets: one target configured at a time -------------------------------------

interface ReviewRow {
  text: string
  targets: { term: string; from: number; to: number; label: Label }[]
}
interface ReviewItem extends Scored {
  part: Part
  mixed: boolean
  text: string
  term: string
  score: number | null
  baselineScore: number | null
}

function evaluateReviews(file: string, fixedPart?: Part): ReviewItem[] {
  const items: ReviewItem[] = []
  for (const row of readJsonl<ReviewRow>(file)) {
    const labels = new Set(row.targets.map((t) => t.label))
    const mixed = labels.has('+') && labels.has('-')
    const part = fixedPart ?? partOf(row.text)
    for (const target of row.targets) {
      const brand: BrandTerms = { id: 'target', name: target.term, aliases: [], domain: null }
      const analysis = analyzeResponse({ content: row.text }, compileBrandMatcher([brand]))
      const score = analysis.mentions.find((m) => m.brandId === 'target')?.sentiment ?? null
      const base = baselineScore(row.text, [[target.from, target.to]])
      items.push({ part, mixed, text: row.text, term: target.term, gold: target.label, score, beacon: toLabel(score), baselineScore: base, baseline: toLabel(base) })
    }
  }
  return items
}

// ---- AI shopping answers: the query set's brands configured ----------------------------

interface AnswerRow {
  set: string
  model: string
  run: number
  queryId: string
  text: string
  recommended: string[]
}
interface AnswerItem extends Scored {
  part: Part
  set: string
  queryId: string
  model: string
  /** which of the query's runs (with set, queryId and model: the answer, for bench/eval-changes.ts) */
  run: number
  brand: string
  score: number | null
  baselineScore: number | null
}

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

function evaluateAnswers(file: string): AnswerItem[] {
  const rows = readJsonl<AnswerRow>(file)
  // The dataset spells some brands two ways across answers ("ASUS"/"Asus",
  // "NETGEAR"/"Netgear"); a brand is its name case-folded, configured once under its
  // first spelling, and recommended if any spelling is.
  const fold = (name: string) => name.toLowerCase()
  const brandsOfSet = new Map<string, Map<string, string>>()
  for (const r of rows) {
    const set = brandsOfSet.get(r.set) ?? new Map<string, string>()
    for (const b of r.recommended) if (!set.has(fold(b))) set.set(fold(b), b)
    brandsOfSet.set(r.set, set)
  }
  const items: AnswerItem[] = []
  for (const [set, spellings] of brandsOfSet) {
    const names = [...spellings.values()]
    const brands: BrandTerms[] = names.map((name) => ({ id: name, name, aliases: [], domain: null }))
    const matcher = compileBrandMatcher(brands)
    for (const row of rows.filter((r) => r.set === set)) {
      const analysis = analyzeResponse({ content: row.text }, matcher)
      const recommended = new Set(row.recommended.map(fold))
      for (const name of names) {
        // A pair exists when the answer names the brand (plain case-insensitive word match,
        // the same for both systems); gold: among the dataset's recommendations or not.
        const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(name)}(?![\\p{L}\\p{N}])`, 'giu')
        const spans = [...row.text.matchAll(re)].map((m): [number, number] => [m.index, m.index + m[0].length])
        if (spans.length === 0) continue
        const score = analysis.mentions.find((m) => m.brandId === name)?.sentiment ?? null
        const base = baselineScore(row.text, spans)
        items.push({
          part: partOf(set),
          set,
          queryId: row.queryId,
          model: row.model,
          run: row.run,
          brand: name,
          gold: recommended.has(fold(name)) ? '+' : '0',
          score,
          beacon: toLabel(score) === '+' ? '+' : '0',
          baselineScore: base,
          baseline: toLabel(base) === '+' ? '+' : '0',
        })
      }
    }
  }
  return items
}

// ---- the table --------------------------------------------------------------------------

export interface PublicResults {
  dataDir: string
  rows: { set: string; part: Part; metric: string; figures: Figures }[]
  details: Record<string, unknown>[]
}

export function evaluatePublicData(): PublicResults | null {
  const dataDir = findDataDir()
  if (!dataDir) return null
  const rows: PublicResults['rows'] = []
  const details: Record<string, unknown>[] = []
  const reviewSets: { name: string; items: ReviewItem[] }[] = []
  for (const name of ['mams-atsa', 'tsa-md']) {
    const file = join(dataDir, `${name}.jsonl`)
    if (!existsSync(file)) continue
    const items = evaluateReviews(file)
    reviewSets.push({ name, items })
    details.push(...items.map((i) => ({ dataset: name, ...i })))
  }
  for (const part of ['held-out', 'tune'] as const) {
    for (const { name, items } of reviewSets)
      rows.push({
        set: name,
        part,
        metric: 'accuracy (3-class)',
        figures: figures(
          items.filter((i) => i.part === part),
          accuracy,
        ),
      })
    const mixed = reviewSets.flatMap((s) => s.items.filter((i) => i.part === part && i.mixed))
    rows.push({ set: 'mixed-polarity sentences', part, metric: 'accuracy (3-class)', figures: figures(mixed, accuracy) })
  }
  // The check set (prepare-external.ts --mams-check): all of it is one part, "check".
  const checkFile = join(dataDir, 'mams-check.jsonl')
  if (existsSync(checkFile)) {
    const items = evaluateReviews(checkFile, 'check')
    details.push(...items.map((i) => ({ dataset: 'mams-check', ...i })))
    rows.push({ set: 'mams-check', part: 'check', metric: 'accuracy (3-class)', figures: figures(items, accuracy) })
    rows.push({
      set: 'mixed-polarity sentences',
      part: 'check',
      metric: 'accuracy (3-class)',
      figures: figures(
        items.filter((i) => i.mixed),
        accuracy,
      ),
    })
  }
  const answersFile = join(dataDir, 'ai-product-bench.jsonl')
  if (existsSync(answersFile)) {
    const items = evaluateAnswers(answersFile)
    details.push(...items.map((i) => ({ dataset: 'ai-product-bench', ...i })))
    for (const part of ['held-out', 'tune'] as const) {
      rows.push({
        set: 'ai-product-bench',
        part,
        metric: 'balanced accuracy',
        figures: figures(
          items.filter((i) => i.part === part),
          balancedAccuracy,
        ),
      })
    }
  }
  const order: Record<Part, number> = { 'held-out': 0, tune: 1, check: 2 }
  rows.sort((a, b) => order[a.part] - order[b.part])
  return { dataDir, rows, details }
}
