// Items whose label changed between two runs of `npm run eval:analysis` (EVAL_LABEL=before /
// EVAL_LABEL=after, each written to bench/results/eval-analysis-<label>.json): for each
// changed item the brand or target, the sentence that names it, the score before -> after
// and whether it moved to the gold label or away from it. Public sets and the written cases.
//
//   npx tsx bench/eval-changes.ts before after [--part tune|held-out|all] [--limit 10]
//
// Answers are long, so for AI Product Bench items the sentence shown is the first one
// naming the brand (the answer is found again in $BEACON_EVAL_DATA by set, query, model, run).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { scoreSentences } from '../src/analysis/sentiment.js'
import { findDataDir } from './eval-public-data.js'

interface Item {
  dataset?: string
  split?: string
  part?: string
  text?: string
  term?: string
  brand?: string
  gold?: string
  expected?: string
  beacon?: string
  got?: string
  score: number | null
  set?: string
  queryId?: string
  model?: string
  run?: number
}
interface Results {
  beaconItems: Item[]
  publicItems: Item[]
}

const args = process.argv.slice(2)
const flag = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? args[at + 1] : fallback
}
const [before, after] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
if (!before || !after) {
  console.error('usage: npx tsx bench/eval-changes.ts <before label> <after label> [--part tune|held-out|all] [--limit n]')
  process.exit(1)
}
const part = flag('part', 'tune')
const limit = Number(flag('limit', '10'))
const load = (label: string): Results => {
  const file = new URL(`./results/eval-analysis-${label}.json`, import.meta.url)
  if (!existsSync(file)) throw new Error(`${file.pathname} is missing: run EVAL_LABEL=${label} npm run eval:analysis first`)
  return JSON.parse(readFileSync(file, 'utf8')) as Results
}
const a = load(before)
const b = load(after)

// The answers of AI Product Bench, to show the sentence naming the brand.
const answers = new Map<string, string>()
const dataDir = findDataDir()
if (dataDir && existsSync(join(dataDir, 'ai-product-bench.jsonl'))) {
  for (const line of readFileSync(join(dataDir, 'ai-product-bench.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue
    const r = JSON.parse(line) as { set: string; queryId: string; model: string; run: number; text: string }
    answers.set(`${r.set}|${r.queryId}|${r.model}|${r.run}`, r.text)
  }
}
function sentenceNaming(item: Item): string {
  const name = (item.term ?? item.brand ?? '').toLowerCase()
  const text = item.text ?? answers.get(`${item.set}|${item.queryId}|${item.model}|${item.run}`) ?? ''
  const sentence = scoreSentences(text).find((s) => s.text.toLowerCase().includes(name))?.text ?? text
  if (!text) return '(answer not found: set BEACON_EVAL_DATA to the prepared data)'
  return sentence.replace(/\s+/g, ' ').slice(0, 220)
}

interface Change {
  set: string
  name: string
  sentence: string
  gold: string
  before: number | null
  after: number | null
  verdict: 'right now' | 'wrong now' | 'still wrong'
}
const changes: Change[] = []
const compare = (xs: Item[], ys: Item[], set: (i: Item) => string, include: (i: Item) => boolean) => {
  if (xs.length !== ys.length) throw new Error('the two runs scored different items: compare runs on the same data')
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k]
    const y = { ...x, ...ys[k], run: ys[k].run ?? x.run }
    const labelX = x.beacon ?? x.got
    const labelY = y.beacon ?? y.got
    if (labelX === labelY || !include(x)) continue
    const gold = x.gold ?? x.expected ?? '?'
    changes.push({
      set: set(x),
      name: y.term ?? y.brand ?? '',
      sentence: sentenceNaming(y),
      gold,
      before: x.score,
      after: y.score,
      verdict: labelY === gold ? 'right now' : labelX === gold ? 'wrong now' : 'still wrong',
    })
  }
}
compare(
  a.publicItems,
  b.publicItems,
  (i) => `${i.dataset} (${i.part})`,
  (i) => part === 'all' || i.part === part,
)
const written = (xs: Item[]) => xs.filter((i) => i.split?.startsWith('brand-sentiment'))
compare(
  written(a.beaconItems),
  written(b.beaconItems),
  (i) => i.split ?? '',
  () => true,
)

const tally = new Map<string, Record<Change['verdict'], number>>()
for (const c of changes) {
  const t = tally.get(c.set) ?? { 'right now': 0, 'wrong now': 0, 'still wrong': 0 }
  t[c.verdict]++
  tally.set(c.set, t)
}
console.log(`label changes ${before} -> ${after} (part: ${part})`)
for (const [set, t] of tally) console.log(`  ${set}: ${t['right now']} right now, ${t['wrong now']} wrong now, ${t['still wrong']} wrong before and after`)

// A spread of examples: right and wrong ones interleaved, from every set, in a fixed order.
const bySet = new Map<string, Change[]>()
for (const c of changes) bySet.set(`${c.set}|${c.verdict}`, [...(bySet.get(`${c.set}|${c.verdict}`) ?? []), c])
const queues = [...bySet.values()]
const picked: Change[] = []
for (let round = 0; picked.length < limit && queues.some((q) => q.length > round); round++) for (const q of queues) if (q[round] && picked.length < limit) picked.push(q[round])
const fmt = (x: number | null) => (x === null ? 'none' : x.toFixed(2))
console.log('')
for (const c of picked) console.log(`${c.verdict.padEnd(11)} ${c.set} | ${c.name} | gold ${c.gold} | ${fmt(c.before)} -> ${fmt(c.after)} | ${c.sentence}`)
