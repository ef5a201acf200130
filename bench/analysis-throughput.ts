// Analysis throughput on one core: full analyzeResponse (mentions, sentiment, citations)
// over synthetic markdown answers of ~1,500 characters, for brand sets of growing size:
// 12 plain brands, 300 plain brands, 300 brands × 10 aliases and 100 brands × 50 aliases
// of 190 characters (issue 17: matcher cost must not grow with the number of terms).
// Also times building the matcher once per set. Writes bench/results/analysis-throughput.json.
// Run: npm run bench:analysis [-- responses]   (BENCH_ONLY=<name prefix> for one scenario,
// BENCH_LABEL=x writes analysis-throughput-x.json; with BEACON_EVAL_DATA set, also real AI answers:
// BENCH_ONLY=real)
// The previous version as a second yardstick: BENCH_PREVIOUS=<a checkout of it, e.g. `git
// worktree add /tmp/prev main`> analyses the same answers in the same rounds, alternating
// with this version, and its results must be identical (the run fails otherwise).
import { isDeepStrictEqual } from 'node:util'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { WinkMethods } from 'wink-nlp'
import { analyzeResponse } from '../src/analysis/analyze-response.js'
import { BrandMatcher, type BrandTerms } from '../src/analysis/mentions.js'
import { makeResponse, plainBrands, withAliases } from './synthetic-answers.js'

const RESPONSES = Number(process.argv[2] ?? 1500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const spread = (xs: readonly number[]) => ({ min: Math.round(Math.min(...xs)), median: Math.round(median(xs)), max: Math.round(Math.max(...xs)) })

type Answer = { content: string; citations?: { url: string; title: string }[] }
type Analyze = (response: Answer) => ReturnType<typeof analyzeResponse>
// The previous version's own modules (its matcher is a class of its own).
const previousDir = process.env.BENCH_PREVIOUS?.replace(/\/$/, '')
const previousModules = previousDir
  ? {
      analyze: (await import(pathToFileURL(`${previousDir}/src/analysis/analyze-response.ts`).href)) as typeof import('../src/analysis/analyze-response.js'),
      mentions: (await import(pathToFileURL(`${previousDir}/src/analysis/mentions.ts`).href)) as typeof import('../src/analysis/mentions.js'),
    }
  : null

/** Answers per CPU-second of `analyze` over `responses` (at most ~6 s). */
function rate(analyze: Analyze, responses: readonly Answer[]): { done: number; mentions: number; seconds: number; cpuSeconds: number } {
  const cpuStarted = process.cpuUsage()
  const started = performance.now()
  let done = 0
  let mentions = 0
  for (const r of responses) {
    mentions += analyze(r).mentions.length
    done++
    if (performance.now() - started > 6_000) break
  }
  const cpu = process.cpuUsage(cpuStarted)
  return { done, mentions, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 }
}

// The yardstick: wink-nlp with the pipe analysis used before POS tagging, one document per
// line as analysis parses them.
const require = createRequire(import.meta.url)
let parseOnly: WinkMethods | null = null
function yardstick(responses: readonly { content: string }[]): number {
  if (!parseOnly) {
    const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default
    const model = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default
    parseOnly = winkNLP(model, ['sbd', 'negation', 'sentiment'])
  }
  const nlp = parseOnly
  const cpuStarted = process.cpuUsage()
  const started = performance.now()
  let done = 0
  for (const r of responses) {
    for (const line of r.content.split('\n')) if (line.trim()) nlp.readDoc(line).out(nlp.its.sentiment)
    done++
    if (performance.now() - started > 6_000) break
  }
  const cpu = process.cpuUsage(cpuStarted)
  return done / ((cpu.user + cpu.system) / 1e6)
}

interface Scenario {
  name: string
  brands: BrandTerms[]
  /** real answers (else synthetic ones naming the scenario's brands) */
  answers?: Answer[]
}

// Real answers, when the evaluation data is prepared (bench/eval/README.md): the AI Product
// Bench's ChatGPT / Google AI Mode shopping answers (3,200 characters on average, markdown
// with headings, lists, tables and links), every query set's brands configured, as
// `npm run eval:analysis` does. Synthetic answers name a brand on every line; these do not,
// so the two can rank changes differently.
function realAnswers(): Scenario | null {
  const dir = process.env.BEACON_EVAL_DATA
  if (!dir) return null
  const file = `${dir.replace(/\/$/, '')}/ai-product-bench.jsonl`
  if (!existsSync(file)) return null
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { text: string; recommended: string[] })
  const names = new Map<string, string>()
  for (const row of rows) for (const name of row.recommended) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
  const brands = [...names.values()].map((name, i) => ({ id: `r${i}`, name, aliases: [], domain: null }))
  return { name: `real AI answers (${brands.length} brands)`, brands, answers: rows.map((row) => ({ content: row.text })) }
}

const scenarios: Scenario[] = [
  { name: '12 plain brands', brands: plainBrands(12) },
  { name: '300 plain brands', brands: plainBrands(300) },
  { name: '300 brands x 10 aliases', brands: withAliases(plainBrands(300), 10, null) },
  { name: '100 brands x 50 aliases of 190 chars', brands: withAliases(plainBrands(100), 50, 190) },
]
const real = realAnswers()
if (real) scenarios.push(real)

// BENCH_ONLY=12 runs only the scenarios whose name starts with "12" (quick A/B runs).
const only = process.env.BENCH_ONLY
const results: Record<string, unknown>[] = []
for (const scenario of scenarios.filter((s) => !only || s.name.startsWith(only))) {
  const responses: Answer[] = scenario.answers?.slice(0, RESPONSES) ?? Array.from({ length: RESPONSES }, () => makeResponse(scenario.brands))
  const terms = scenario.brands.reduce((n, b) => n + 2 + b.aliases.length, 0)
  let matcher: BrandMatcher
  const buildStarted = performance.now()
  try {
    matcher = new BrandMatcher(scenario.brands)
    // The old regex matcher compiles lazily on first exec; include that in build time.
    matcher.match('warm-up text')
  } catch (error) {
    const row = { scenario: scenario.name, terms, error: (error instanceof Error ? error.message : String(error)).slice(0, 120) }
    results.push(row)
    console.log(JSON.stringify(row))
    continue
  }
  const buildMs = performance.now() - buildStarted
  const current: Analyze = (r) => analyzeResponse(r, matcher)
  let previous: Analyze | null = null
  if (previousModules) {
    const previousMatcher = new previousModules.mentions.BrandMatcher(scenario.brands)
    previous = (r) => previousModules.analyze.analyzeResponse(r, previousMatcher)
  }
  // Warm-up: model load and JIT are one-off costs, not throughput. Capped in time so a
  // pathological matcher does not take minutes before measuring.
  const warmStarted = performance.now()
  for (const r of responses.slice(0, 200)) {
    current(r)
    previous?.(r)
    if (performance.now() - warmStarted > 5000) break
  }
  if (previous) {
    // The yardstick must compute the same thing: every answer's analysis is compared.
    for (const r of responses) {
      if (!isDeepStrictEqual(current(r), previous(r))) {
        throw new Error(`results differ from BENCH_PREVIOUS on this answer:\n${r.content}`)
      }
    }
  }
  // Measured in rounds, each analysing the responses and then parsing them with wink-nlp
  // alone (the yardstick: sentence splitting, negation and lexicon sentiment, no POS, no
  // matching — what the NLP part of analysis cost before brand-scoped sentiment), at most
  // ~6 s each; with BENCH_PREVIOUS, the previous version too, the order alternating by
  // round. CPU time, not wall time: on a shared machine the process waits for a core,
  // and CPU seconds are the closer measure of "answers per second on one core"; the
  // yardsticks move with the machine's load as analysis does, so the ratios are steadier
  // than either figure.
  const rounds: { done: number; mentions: number; seconds: number; cpuSeconds: number; yardstickPerCpuSecond: number; previousPerCpuSecond: number | null }[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let previousPerCpuSecond: number | null = null
    const measurePrevious = () => {
      if (!previous) return
      const p = rate(previous, responses)
      previousPerCpuSecond = p.done / p.cpuSeconds
    }
    if (round % 2 === 1) measurePrevious()
    const measured = rate(current, responses)
    if (round % 2 === 0) measurePrevious()
    rounds.push({ ...measured, yardstickPerCpuSecond: yardstick(responses), previousPerCpuSecond })
  }
  const rates = rounds.map((r) => r.done / r.cpuSeconds)
  const { done, mentions, seconds, cpuSeconds } = rounds[rounds.length - 1]
  const yardsticks = rounds.map((r) => r.yardstickPerCpuSecond)
  const previousRates = rounds.map((r) => r.previousPerCpuSecond).filter((r): r is number => r !== null)
  // Mention matching alone (URL scan + matcher), the part issue 17 is about; the rest of
  // analysis (mostly the NLP parse) does not depend on the brand set.
  const matchStarted = performance.now()
  const matchCpuStarted = process.cpuUsage()
  let matched = 0
  for (const r of responses) {
    matcher.match(r.content)
    matched++
    if (performance.now() - matchStarted > 10_000) break
  }
  const matchSeconds = (performance.now() - matchStarted) / 1000
  const matchCpu = process.cpuUsage(matchCpuStarted)
  const row = {
    scenario: scenario.name,
    brands: scenario.brands.length,
    terms,
    buildMs: Number(buildMs.toFixed(1)),
    responses: done,
    avgChars: Math.round(responses.reduce((n, r) => n + r.content.length, 0) / responses.length),
    mentions,
    seconds: Number(seconds.toFixed(3)),
    responsesPerSecond: Math.round(done / seconds),
    cpuSeconds: Number(cpuSeconds.toFixed(3)),
    responsesPerCpuSecond: Math.round(median(rates)),
    responsesPerCpuSecondRounds: rates.map(Math.round),
    responsesPerCpuSecondSpread: spread(rates),
    ...(previous
      ? {
          previousPerCpuSecondSpread: spread(previousRates),
          ratioToPrevious: Number(median(rates.map((r, i) => r / previousRates[i])).toFixed(3)),
        }
      : {}),
    yardstickParseOnlyPerCpuSecond: Math.round(median(yardsticks)),
    ratioToYardstick: Number(median(rates.map((r, i) => r / yardsticks[i])).toFixed(3)),
    matchOnlyResponsesPerSecond: Math.round(matched / matchSeconds),
    // Wall time moves with the machine's load; CPU time much less.
    matchOnlyResponsesPerCpuSecond: Math.round(matched / ((matchCpu.user + matchCpu.system) / 1e6)),
  }
  results.push(row)
  console.log(JSON.stringify(row))
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
const out = new URL(`./results/analysis-throughput${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`, import.meta.url)
const label = process.env.BENCH_LABEL ?? 'current'
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, label, note: 'single thread; responsesPerSecond = full analyzeResponse, matchOnly = URL scan + brand matching', results }, null, 2)}\n`,
)
console.log(`written ${out.pathname}`)
