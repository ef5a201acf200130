// Accuracy of response analysis (bench/eval/README.md):
//  1. cases written here (bench/eval/*.txt, hand-labelled, AI-answer style) — unit-level
//     checks of mentions, positions and the shape of sentiment, per split:
//       mention, position, brand-sentiment (+ mixed), brand-sentiment (held-out), answer-sentiment
//  2. public labelled data (bench/eval-public-data.ts) — the headline: target-level
//     sentiment with only the target configured, on a held-out part never tuned on.
// Baselines: for mentions/positions a `\b`-delimited case-insensitive regex per brand (no
// URL masking, no overlap rule, no typographic folding); for sentiment wink-nlp's own
// sentence sentiment averaged over the sentences naming the brand — the "lexicon at sentence
// level" approach. Scores become labels with a neutral band: > 0.05 positive, < -0.05 negative.
// Run: npm run eval:analysis   → prints tables, writes bench/results/eval-analysis.json
//      (EVAL_LABEL=x → eval-analysis-x.json; EVAL_PARTS=tune prints only the tuning rows,
//      EVAL_PARTS=tune,check the tuning part and the check set, when prepared)
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { WinkMethods } from 'wink-nlp'
import { analyzeResponse } from '../src/analysis/analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from '../src/analysis/mentions.js'
import { evaluatePublicData } from './eval-public-data.js'

const NEUTRAL_BAND = 0.05
type Label = '+' | '-' | '0'
const LABELS: Label[] = ['+', '-', '0']

const dir = new URL('./eval/', import.meta.url)
const brands = JSON.parse(readFileSync(new URL('brands.json', dir), 'utf8')) as BrandTerms[]
const brandIds = new Set(brands.map((b) => b.id))

function lines(file: string): string[] {
  return readFileSync(new URL(file, dir), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
}
const unescape = (text: string) => text.replace(/\\n/g, '\n')

function checkBrand(id: string, line: string): string {
  if (!brandIds.has(id)) throw new Error(`unknown brand id "${id}" in: ${line}`)
  return id
}

interface MentionCase {
  text: string
  expected: { id: string; count: number }[]
}
const mentionCases: MentionCase[] = lines('mentions.txt').map((line) => {
  const [text, labels] = line.split(' ||| ')
  const expected = (labels ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const [id, count] = pair.split('=')
      return { id: checkBrand(id, line), count: Number(count) }
    })
  return { text: unescape(text), expected }
})

interface SentimentCase {
  text: string
  mixed: boolean
  expected: { id: string; label: Label }[]
}
const parseSentimentLine = (line: string): SentimentCase => {
  const [raw, labels] = line.split(' ||| ')
  const mixed = raw.startsWith('[mixed] ')
  const expected = labels
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const [id, label] = pair.split(':')
      if (!LABELS.includes(label as Label)) throw new Error(`bad label in: ${line}`)
      return { id: checkBrand(id, line), label: label as Label }
    })
  return { text: unescape(mixed ? raw.slice(8) : raw), mixed, expected }
}
const sentimentCases = lines('brand-sentiment.txt').map(parseSentimentLine)
// Written after the rules and never used to tune them: the honest estimate.
const holdoutCases = lines('brand-sentiment-holdout.txt').map(parseSentimentLine)

const answerCases = lines('answers.txt').map((line) => {
  const [label, text] = line.split(' ||| ')
  if (!LABELS.includes(label as Label)) throw new Error(`bad label in: ${line}`)
  return { text: unescape(text), label: label as Label }
})

// ---- the two systems --------------------------------------------------------------

interface SystemOutput {
  mentions: Map<string, { count: number; position: number; sentiment: number | null }>
  sentiment: number | null
}
type System = (text: string) => SystemOutput

const matcher = compileBrandMatcher(brands)
const beacon: System = (text) => {
  const analysis = analyzeResponse({ content: text }, matcher)
  return {
    mentions: new Map(analysis.mentions.map((m) => [m.brandId, { count: m.occurrences, position: m.position, sentiment: m.sentiment }])),
    sentiment: analysis.sentiment,
  }
}

const require = createRequire(import.meta.url)
const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default
const winkModel = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default
const nlp: WinkMethods = winkNLP(winkModel, ['sbd', 'negation', 'sentiment'])

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
const baselineRegexes = brands.map((b) => {
  const terms = [b.name, ...b.aliases, ...(b.domain ? [b.domain.replace(/^www\./, '')] : [])]
  return { id: b.id, regex: new RegExp(`\\b(?:${terms.map(escapeRegex).join('|')})\\b`, 'gi') }
})
const baseline: System = (text) => {
  const doc = nlp.readDoc(text)
  const sentences = doc.sentences().out() as string[]
  const scores = doc.sentences().out(nlp.its.sentiment) as unknown as number[]
  const found: { id: string; first: number; count: number; sentiment: number | null }[] = []
  for (const { id, regex } of baselineRegexes) {
    const hits = [...text.matchAll(regex)]
    if (hits.length === 0) continue
    let sum = 0
    let n = 0
    sentences.forEach((sentence, i) => {
      if (sentence.match(regex)) {
        sum += scores[i]
        n++
      }
    })
    found.push({ id, first: hits[0].index, count: hits.length, sentiment: n ? sum / n : 0 })
  }
  const mentions = new Map<string, { count: number; position: number; sentiment: number | null }>()
  for (const f of found) {
    const position = 1 + found.filter((o) => o.id !== f.id && o.first < f.first).length
    mentions.set(f.id, { count: f.count, position, sentiment: f.sentiment })
  }
  return { mentions, sentiment: /\S/.test(text) ? (doc.out(nlp.its.sentiment) as unknown as number) : null }
}

// ---- metrics ----------------------------------------------------------------------

const toLabel = (score: number | null | undefined): Label => (score == null || Math.abs(score) <= NEUTRAL_BAND ? '0' : score > 0 ? '+' : '-')

function macroF1(pairs: readonly [Label, Label][]): number {
  let sum = 0
  for (const label of LABELS) {
    const tp = pairs.filter(([g, p]) => g === label && p === label).length
    const fp = pairs.filter(([g, p]) => g !== label && p === label).length
    const fn = pairs.filter(([g, p]) => g === label && p !== label).length
    sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn)
  }
  return sum / LABELS.length
}
const accuracy = (pairs: readonly [unknown, unknown][]) => (pairs.length ? pairs.filter(([g, p]) => g === p).length / pairs.length : 0)
const round = (x: number) => Number(x.toFixed(3))

interface SplitResult {
  items: number
  accuracy: number
  f1: number
  note: string
}

function evaluate(system: System) {
  const details: Record<string, unknown>[] = []

  // mention: each (case, brand of the set) is one binary item; accuracy = cases exactly right
  let tp = 0
  let fp = 0
  let fn = 0
  let exact = 0
  const positionPairs: [number, number | null][] = []
  for (const c of mentionCases) {
    const out = system(c.text)
    const gold = new Map(c.expected.map((e, i) => [e.id, { count: e.count, position: i + 1 }]))
    for (const id of brandIds) {
      const g = gold.has(id)
      const p = out.mentions.has(id)
      if (g && p) tp++
      else if (p) fp++
      else if (g) fn++
    }
    const right = gold.size === out.mentions.size && [...gold].every(([id, g]) => out.mentions.get(id)?.count === g.count)
    if (right) exact++
    if (gold.size >= 2) for (const [id, g] of gold) positionPairs.push([g.position, out.mentions.get(id)?.position ?? null])
    details.push({ split: 'mention', text: c.text, expected: c.expected, got: [...out.mentions].map(([id, m]) => ({ id, count: m.count, position: m.position })), right })
  }
  const mention: SplitResult = {
    items: mentionCases.length,
    accuracy: round(exact / mentionCases.length),
    f1: round((2 * tp) / (2 * tp + fp + fn)),
    note: `accuracy = cases with every brand and count right; F1 of brand presence (P ${round(tp / (tp + fp))}, R ${round(tp / (tp + fn))})`,
  }
  const position: SplitResult = {
    items: positionPairs.length,
    accuracy: round(accuracy(positionPairs)),
    f1: NaN,
    note: 'accuracy = brands (in cases naming ≥ 2) whose position is right',
  }

  const all: [Label, Label][] = []
  const mixed: [Label, Label][] = []
  for (const c of sentimentCases) {
    const out = system(c.text)
    for (const e of c.expected) {
      const score = out.mentions.get(e.id)?.sentiment ?? null
      const pair: [Label, Label] = [e.label, toLabel(score)]
      all.push(pair)
      if (c.mixed) mixed.push(pair)
      details.push({ split: 'brand-sentiment', mixed: c.mixed, text: c.text, brand: e.id, expected: e.label, score, got: pair[1] })
    }
  }
  const holdout: [Label, Label][] = []
  for (const c of holdoutCases) {
    const out = system(c.text)
    for (const e of c.expected) {
      const score = out.mentions.get(e.id)?.sentiment ?? null
      holdout.push([e.label, toLabel(score)])
      details.push({ split: 'brand-sentiment (held-out)', mixed: c.mixed, text: c.text, brand: e.id, expected: e.label, score, got: toLabel(score) })
    }
  }
  const answers: [Label, Label][] = answerCases.map((c) => {
    const score = system(c.text).sentiment
    details.push({ split: 'answer-sentiment', text: c.text, expected: c.label, score, got: toLabel(score) })
    return [c.label, toLabel(score)]
  })

  const splits: Record<string, SplitResult> = {
    mention,
    position,
    'brand-sentiment': { items: all.length, accuracy: round(accuracy(all)), f1: round(macroF1(all)), note: 'macro-F1 over +/-/0' },
    'brand-sentiment (mixed)': { items: mixed.length, accuracy: round(accuracy(mixed)), f1: round(macroF1(mixed)), note: 'sentences praising one brand and criticising another' },
    'brand-sentiment (held-out)': {
      items: holdout.length,
      accuracy: round(accuracy(holdout)),
      f1: round(macroF1(holdout)),
      note: 'brand-sentiment-holdout.txt, not used for tuning',
    },
    'answer-sentiment': { items: answers.length, accuracy: round(accuracy(answers)), f1: round(macroF1(answers)), note: 'macro-F1 over +/-/0' },
  }
  return { splits, details }
}

const systems = { beacon: evaluate(beacon), baseline: evaluate(baseline) }

const pad = (s: string, n: number) => s.padEnd(n)
const fmt = (x: number) => (Number.isNaN(x) ? '   – ' : x.toFixed(3))
console.log(`${pad('split', 30)}${pad('items', 7)}${pad('beacon acc', 12)}${pad('beacon F1', 11)}${pad('baseline acc', 14)}baseline F1`)
for (const split of Object.keys(systems.beacon.splits)) {
  const b = systems.beacon.splits[split]
  const l = systems.baseline.splits[split]
  console.log(`${pad(split, 30)}${pad(String(b.items), 7)}${pad(fmt(b.accuracy), 12)}${pad(fmt(b.f1), 11)}${pad(fmt(l.accuracy), 14)}${fmt(l.f1)}`)
}

// Public labelled data (bench/eval/README.md): the headline figures.
const publicResults = evaluatePublicData()
console.log('')
if (publicResults === null) {
  console.log('public data sets: not found (see bench/eval/README.md: set BEACON_EVAL_DATA or run bench/eval/prepare-external.ts)')
} else {
  console.log(`public data (${publicResults.dataDir}); target-level, only the target configured`)
  console.log(`${pad('set', 28)}${pad('part', 10)}${pad('metric', 20)}${pad('items', 7)}${pad('beacon', 9)}baseline`)
  // EVAL_PARTS=tune while working on the rules: the held-out rows stay unseen.
  // EVAL_PARTS=tune,check: several parts, comma-separated.
  const parts = process.env.EVAL_PARTS?.split(',')
  for (const r of publicResults.rows.filter((row) => !parts || parts.includes(row.part))) {
    console.log(`${pad(r.set, 28)}${pad(r.part, 10)}${pad(r.metric, 20)}${pad(String(r.figures.items), 7)}${pad(fmt(r.figures.beacon), 9)}${fmt(r.figures.baseline)}`)
  }
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
const out = new URL(`./results/eval-analysis${process.env.EVAL_LABEL ? `-${process.env.EVAL_LABEL}` : ''}.json`, import.meta.url)
writeFileSync(
  out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      neutralBand: NEUTRAL_BAND,
      splits: Object.fromEntries(Object.keys(systems.beacon.splits).map((s) => [s, { beacon: systems.beacon.splits[s], baseline: systems.baseline.splits[s] }])),
      publicData: publicResults === null ? null : { rows: publicResults.rows },
      beaconItems: systems.beacon.details,
      publicItems: publicResults?.details ?? [],
    },
    null,
    2,
  )}\n`,
)
console.log(`written ${out.pathname}`)
