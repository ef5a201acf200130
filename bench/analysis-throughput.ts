// Analysis throughput on one core: full analyzeResponse (mentions, sentiment, citations)
// over synthetic markdown answers of ~1,500 characters, for brand sets of growing size:
// 12 plain brands, 300 plain brands, 300 brands × 10 aliases and 100 brands × 50 aliases
// of 190 characters (issue 17: matcher cost must not grow with the number of terms).
// Also times building the matcher once per set. Writes bench/results/analysis-throughput.json.
// Run: npm run bench:analysis [-- responses]   (BENCH_ONLY=<name prefix> for one scenario,
// BENCH_LABEL=x writes analysis-throughput-x.json)
import { mkdirSync, writeFileSync } from 'node:fs'
import { analyzeResponse } from '../src/analysis/analyze-response.js'
import { BrandMatcher, type BrandTerms } from '../src/analysis/mentions.js'

const RESPONSES = Number(process.argv[2] ?? 1500)
const TARGET_CHARS = 1500

// Deterministic PRNG so runs are comparable.
// (mulberry32: an LCG in doubles loses precision and cycles too soon to name 300 brands)
let seed = 42
function rand(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) % n
}
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]

const syllables = ['ka', 'lo', 'mi', 'tor', 'vex', 'an', 'stra', 'qui', 'del', 'pho', 'ni', 'rum', 'zen', 'bo', 'ly', 'cor']
function word(parts: number): string {
  let w = ''
  for (let i = 0; i < parts; i++) w += pick(syllables)
  return w[0].toUpperCase() + w.slice(1)
}

function plainBrands(count: number): BrandTerms[] {
  const names = new Set<string>()
  while (names.size < count) names.add(`${word(2 + rand(2))}${rand(3) === 0 ? ` ${word(2)}` : ''}`)
  return [...names].map((name, i) => ({ id: `b${i}`, name, aliases: [], domain: `${name.toLowerCase().replace(/\s+/g, '')}.com` }))
}

function withAliases(brands: BrandTerms[], aliases: number, aliasChars: number | null): BrandTerms[] {
  return brands.map((b) => {
    const list: string[] = []
    for (let a = 0; a < aliases; a++) {
      if (aliasChars === null) list.push(`${b.name} ${word(2)}${a}`)
      else {
        let alias = `${b.name} ${a}`
        while (alias.length < aliasChars) alias += ` ${word(2).toLowerCase()}`
        list.push(alias.slice(0, aliasChars).trim())
      }
    }
    return { ...b, aliases: list }
  })
}

const opinions = [
  'is excellent for teams that love flexible docs',
  'can feel slow and frustrating on large boards',
  'offers a reliable timeline view and good integrations',
  'has a confusing pricing model that many users dislike',
  'is a solid choice for small businesses',
  'works well, although the mobile app is buggy',
  'provides great automation and a clean interface',
]
const sources = [
  'https://www.g2.com/products/x/reviews?utm_source=chatgpt',
  'https://en.wikipedia.org/wiki/Project_management',
  'https://www.reddit.com/r/projectmanagement/comments/abc/',
  'https://techcrunch.com/2024/05/01/tools/#comments',
]

// Answers name 10 brands of the set (sometimes by an alias), as real answers do.
function makeResponse(brands: readonly BrandTerms[]): { content: string; citations: { url: string; title: string }[] } {
  const named = Array.from({ length: 10 }, () => pick(brands))
  const say = (b: BrandTerms) => (b.aliases.length && rand(3) === 0 ? pick(b.aliases) : b.name)
  const lines = ['## Best project management tools', '']
  while (lines.join('\n').length < TARGET_CHARS) {
    const brand = pick(named)
    switch (rand(4)) {
      case 0:
        lines.push(`- **${say(brand)}** ${pick(opinions)}. It also ${pick(opinions)}`)
        break
      case 1:
        lines.push(`Compared with ${say(pick(named))}, ${brand.name} ${pick(opinions)}. See [${brand.domain}](https://www.${brand.domain}/pricing?utm_medium=ai).`)
        break
      case 2:
        lines.push(`${rand(9) + 1}. ${brand.name} ${pick(opinions)} (source: ${pick(sources)}).`)
        break
      default:
        lines.push(`Many reviewers say ${brand.name.toLowerCase()} ${pick(opinions)}, while others prefer ${pick(named).name}.`)
    }
  }
  return {
    content: lines.join('\n'),
    citations: [
      { url: pick(sources), title: 'A source' },
      { url: pick(sources), title: '' },
    ],
  }
}

interface Scenario {
  name: string
  brands: BrandTerms[]
}

const scenarios: Scenario[] = [
  { name: '12 plain brands', brands: plainBrands(12) },
  { name: '300 plain brands', brands: plainBrands(300) },
  { name: '300 brands x 10 aliases', brands: withAliases(plainBrands(300), 10, null) },
  { name: '100 brands x 50 aliases of 190 chars', brands: withAliases(plainBrands(100), 50, 190) },
]

// BENCH_ONLY=12 runs only the scenarios whose name starts with "12" (quick A/B runs).
const only = process.env.BENCH_ONLY
const results: Record<string, unknown>[] = []
for (const scenario of scenarios.filter((s) => !only || s.name.startsWith(only))) {
  const responses = Array.from({ length: RESPONSES }, () => makeResponse(scenario.brands))
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
  // Warm-up: model load and JIT are one-off costs, not throughput. Capped in time so a
  // pathological matcher does not take minutes before measuring.
  const warmStarted = performance.now()
  for (const r of responses.slice(0, 200)) {
    analyzeResponse(r, matcher)
    if (performance.now() - warmStarted > 5000) break
  }
  // Measure for at most ~20 s: a slow matcher is reported on the responses it got through.
  // CPU time as well as wall time: on a shared machine the process waits for a core, and
  // CPU seconds are the closer measure of "answers per second on one core".
  const cpuStarted = process.cpuUsage()
  const started = performance.now()
  let done = 0
  let mentions = 0
  for (const r of responses) {
    mentions += analyzeResponse(r, matcher).mentions.length
    done++
    if (performance.now() - started > 20_000) break
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuStarted)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
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
    responsesPerCpuSecond: Math.round(done / cpuSeconds),
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
