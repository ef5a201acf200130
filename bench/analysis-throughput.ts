// Analysis throughput: full analyzeResponse (mentions, sentiment, citations) over
// synthetic markdown answers of ~1,500 characters naming 10 brands.
// Run: npx tsx bench/analysis-throughput.ts [responses]
import { analyzeResponse } from '../src/analysis/analyze-response.js'
import type { BrandTerms } from '../src/analysis/mentions.js'

const RESPONSES = Number(process.argv[2] ?? 2000)
const TARGET_CHARS = 1500

const brands: BrandTerms[] = [
  ['Notion', ['Notion AI'], 'notion.so'],
  ['Asana', [], 'asana.com'],
  ['Monday', ['monday'], 'monday.com'],
  ['Trello', [], 'trello.com'],
  ['ClickUp', ['Click Up'], 'clickup.com'],
  ['Jira', ['Jira Software'], 'atlassian.com'],
  ['Basecamp', [], 'basecamp.com'],
  ['Airtable', [], 'airtable.com'],
  ['Wrike', [], 'wrike.com'],
  ['Smartsheet', [], 'smartsheet.com'],
].map(([name, aliases, domain], i) => ({ id: `b${i}`, name: name as string, aliases: aliases as string[], domain: domain as string }))

// Deterministic PRNG so runs are comparable.
let seed = 42
function rand(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed % n
}
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]

const opinions = [
  'is excellent for teams that love flexible docs',
  'can feel slow and frustrating on large boards',
  'offers a reliable timeline view and good integrations',
  'has a confusing pricing model that many users dislike',
  'is a solid choice for small businesses',
  'works well, although the mobile app is buggy',
  'provides great automation and a clean interface',
]
const sources = ['https://www.g2.com/products/x/reviews?utm_source=chatgpt', 'https://en.wikipedia.org/wiki/Project_management', 'https://www.reddit.com/r/projectmanagement/comments/abc/', 'https://techcrunch.com/2024/05/01/tools/#comments']

function makeResponse(): { content: string; citations: { url: string; title: string }[] } {
  const lines = ['## Best project management tools', '']
  while (lines.join('\n').length < TARGET_CHARS) {
    const brand = pick(brands)
    switch (rand(4)) {
      case 0:
        lines.push(`- **${brand.name}** ${pick(opinions)}. It also ${pick(opinions)}`)
        break
      case 1:
        lines.push(`Compared with ${pick(brands).name}, ${brand.name} ${pick(opinions)}. See [${brand.domain}](https://www.${brand.domain}/pricing?utm_medium=ai).`)
        break
      case 2:
        lines.push(`${rand(9) + 1}. ${brand.name} ${pick(opinions)} (source: ${pick(sources)}).`)
        break
      default:
        lines.push(`Many reviewers say ${brand.name.toLowerCase()} ${pick(opinions)}, while others prefer ${pick(brands).name}.`)
    }
  }
  return { content: lines.join('\n'), citations: [{ url: pick(sources), title: 'A source' }, { url: pick(sources), title: '' }] }
}

const responses = Array.from({ length: RESPONSES }, makeResponse)
const avgChars = responses.reduce((n, r) => n + r.content.length, 0) / responses.length

// Warm-up: model load and JIT are one-off costs, not throughput.
for (const r of responses.slice(0, 500)) analyzeResponse(r, brands)

const started = performance.now()
let mentions = 0
for (const r of responses) mentions += analyzeResponse(r, brands).mentions.length
const seconds = (performance.now() - started) / 1000

console.log(
  JSON.stringify({
    responses: RESPONSES,
    avgChars: Math.round(avgChars),
    brands: brands.length,
    mentions,
    seconds: Number(seconds.toFixed(3)),
    responsesPerSecond: Math.round(RESPONSES / seconds),
    note: 'single thread; ingest workers scale per core',
  }),
)
