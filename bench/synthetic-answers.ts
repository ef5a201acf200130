// Synthetic markdown answers (~1,500 characters, 10 brands of the set named, some by an
// alias, links and citations) for the analysis benchmarks. Deterministic: the same calls
// give the same answers.
import type { BrandTerms } from '../src/analysis/mentions.js'

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

export function plainBrands(count: number): BrandTerms[] {
  const names = new Set<string>()
  while (names.size < count) names.add(`${word(2 + rand(2))}${rand(3) === 0 ? ` ${word(2)}` : ''}`)
  return [...names].map((name, i) => ({ id: `b${i}`, name, aliases: [], domain: `${name.toLowerCase().replace(/\s+/g, '')}.com` }))
}

export function withAliases(brands: BrandTerms[], aliases: number, aliasChars: number | null): BrandTerms[] {
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
export function makeResponse(brands: readonly BrandTerms[]): { content: string; citations: { url: string; title: string }[] } {
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
