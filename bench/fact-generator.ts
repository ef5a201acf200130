// The benchmark dataset's facts (bench/generate-data.ts), generated a chunk of responses at
// a time from the chunk's own random streams, so chunks can be built on several threads
// (bench/fact-generator-worker.ts) and still give the same rows for a seed. Values go to a
// sink as positional arguments, never as row objects: the COPY path appends them to text.
import { v5 as uuidv5 } from 'uuid'
import { Rng } from '../src/demo/random.js'
import { addDays } from '../src/core/date-range.js'

export const NS = '8d4f0a4e-3c55-4a1e-9d7e-6a0b2f1c9e11'
export const id = (...parts: (string | number)[]) => uuidv5(parts.join(':'), NS)
export const PROVIDER_MODELS: [string, string, string][] = [
  ['openai', 'gpt-4o', 'GPT-4o'],
  ['openai', 'gpt-4o-mini', 'GPT-4o mini'],
  ['anthropic', 'claude-sonnet-4', 'Claude Sonnet 4'],
  ['anthropic', 'claude-haiku-4', 'Claude Haiku 4'],
  ['google', 'gemini-2.5-pro', 'Gemini 2.5 Pro'],
  ['google', 'gemini-2.5-flash', 'Gemini 2.5 Flash'],
  ['perplexity', 'sonar', 'Sonar'],
  ['perplexity', 'sonar-pro', 'Sonar Pro'],
]
export const TAGS = ['comparison', 'pricing', 'enterprise', 'smb', 'integrations', 'alternatives', 'reviews', 'how-to', 'security', 'mobile']
const BRAND_NAMES = ['Tasklane', 'Kanbrio', 'Sprintwell', 'Vantro', 'Vantrova', 'Hivepath', 'Boardnook', 'Flowmint', 'Planwright', 'Trackory', 'Cardella', 'Roadlyn']
const DOMAIN_KINDS = [
  ['wikipedia.org', 'en.wikipedia.org/wiki/'],
  ['reddit.com', 'www.reddit.com/r/projectmanagement/comments/'],
  ['g2.com', 'www.g2.com/products/'],
  ['capterra.com', 'www.capterra.com/p/'],
  ['techcrunch.com', 'techcrunch.com/2026/'],
  ['theverge.com', 'www.theverge.com/'],
  ['ycombinator.com', 'news.ycombinator.com/item?id='],
  ['stackoverflow.com', 'stackoverflow.com/questions/'],
  ['nist.gov', 'www.nist.gov/'],
  ['forbes.com', 'www.forbes.com/advisor/'],
]

export interface Workspace {
  id: string
  name: string
  responses: number
  prompts: { id: string; text: string; tags: string[] }[]
  brands: { id: string; name: string; domain: string; weight: number; tone: number }[]
  domains: { domain: string; base: string; weight: number }[]
}

export function buildWorkspace(seed: number, index: number, responses: number, promptCount: number): Workspace {
  const rng = Rng.for(seed, `workspace-${index}`)
  const wsId = id('workspace', seed, index)
  const prompts = Array.from({ length: promptCount }, (_, p) => ({
    id: id(wsId, 'prompt', p),
    text: `Prompt ${p + 1}: which project management tool is best for ${rng.pick(['startups', 'agencies', 'engineering teams', 'remote teams', 'enterprises', 'nonprofits'])} (${rng.pick(TAGS)})?`,
    tags: rng.sample(TAGS, rng.int(1, 3)).sort(),
  }))
  const brands = BRAND_NAMES.map((name, b) => ({
    id: id(wsId, 'brand', b),
    name: index === 0 ? name : `${name} ${index}`,
    domain: `${name.toLowerCase()}${index === 0 ? '' : index}.com`,
    weight: 1 / (b + 1.5),
    tone: rng.float(-0.3, 0.6),
  }))
  const domains: Workspace['domains'] = []
  for (const [domain, base] of DOMAIN_KINDS) domains.push({ domain, base: `https://${base}`, weight: 3 })
  for (let d = 0; d < 300; d++) domains.push({ domain: `site${d}.example.com`, base: `https://blog.site${d}.example.com/posts/`, weight: 1 / (d + 2) })
  for (const brand of brands) domains.push({ domain: brand.domain, base: `https://www.${brand.domain}/`, weight: 1 })
  return { id: wsId, name: index === 0 ? 'bench-main' : `bench-noise-${index}`, responses, prompts, brands, domains }
}

/** A deterministic time-ordered UUID (version 7 layout: 48-bit ms time, then random bits). */
function timeOrderedId(ms: number, rng: Rng): string {
  const time = ms.toString(16).padStart(12, '0')
  const bits = (n: number) =>
    Math.floor(rng.next() * 16 ** n)
      .toString(16)
      .padStart(n, '0')
  const variant = (8 + Math.floor(rng.next() * 4)).toString(16)
  return `${time.slice(0, 8)}-${time.slice(8)}-7${bits(3)}-${variant}${bits(3)}-${bits(6)}${bits(6)}`
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000

/** Responses per chunk: the unit of generation, of a worker's job and of a COPY write. */
export const CHUNK_SIZE = 2_000

export interface FactSink {
  response(ws: string, id: string, promptId: string, provider: string, model: string, content: string, createdAt: string, externalId: string, sentiment: number | null): void
  mention(
    ws: string,
    responseId: string,
    brandId: string,
    promptId: string,
    provider: string,
    model: string,
    createdAt: string,
    occurrences: number,
    position: number,
    sentiment: number,
  ): void
  citation(ws: string, responseId: string, url: string, domain: string, title: string, promptId: string, provider: string, model: string, createdAt: string): void
}

/** A COPY text field that may hold tabs, newlines or backslashes (free text). */
function copyEscape(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : text
}

/**
 * COPY text for the three fact tables, column order as bench/generate-data.ts declares them.
 * Only `content` is free text; every other value is an id, a number, an ISO time or a URL
 * made here, none with a tab, newline or backslash.
 */
export class CopyTextSink implements FactSink {
  responses = ''
  mentions = ''
  citations = ''
  response(ws: string, id: string, promptId: string, provider: string, model: string, content: string, createdAt: string, externalId: string, sentiment: number | null) {
    this.responses += `${ws}\t${id}\t${promptId}\t${provider}\t${model}\t${copyEscape(content)}\t${createdAt}\t${externalId}\t${sentiment === null ? '\\N' : sentiment}\n`
  }
  mention(
    ws: string,
    responseId: string,
    brandId: string,
    promptId: string,
    provider: string,
    model: string,
    createdAt: string,
    occurrences: number,
    position: number,
    sentiment: number,
  ) {
    this.mentions += `${ws}\t${responseId}\t${brandId}\t${promptId}\t${provider}\t${model}\t${createdAt}\t${occurrences}\t${position}\t${sentiment}\n`
  }
  citation(ws: string, responseId: string, url: string, domain: string, title: string, promptId: string, provider: string, model: string, createdAt: string) {
    this.citations += `${ws}\t${responseId}\t${url}\t${domain}\t${title}\t${promptId}\t${provider}\t${model}\t${createdAt}\n`
  }
}

export interface ChunkJob {
  ws: Workspace
  seed: number
  days: number
  endDay: string
  /** Which chunk of the workspace's responses (0-based). */
  chunk: number
}

/** The responses of one chunk, with their mentions and citations, into `sink`; returns how many. */
export function generateChunk({ ws, seed, days, endDay, chunk }: ChunkJob, sink: FactSink): number {
  const startMs = Date.parse(`${addDays(endDay, -(days - 1))}T00:00:00Z`)
  const spanMs = days * 86_400_000
  const rng = Rng.for(seed, `facts-${ws.id}-${chunk}`)
  const idRng = Rng.for(seed, `ids-${ws.id}-${chunk}`)
  // Cumulative weights: a citation's source is a binary search, not a walk of 322 domains.
  const cumulative: number[] = []
  for (const d of ws.domains) cumulative.push((cumulative.at(-1) ?? 0) + d.weight)
  const totalWeight = cumulative.at(-1)!
  const pickDomain = () => {
    const r = rng.next() * totalWeight
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] > r) hi = mid
      else lo = mid + 1
    }
    return ws.domains[lo]
  }
  const offset = chunk * CHUNK_SIZE
  const last = Math.min(ws.responses, offset + CHUNK_SIZE)
  for (let i = offset; i < last; i++) {
    // Spread evenly over the period, in time order, with a little jitter.
    const createdMs = startMs + Math.floor(((i + rng.next()) / ws.responses) * spanMs)
    const createdAt = new Date(createdMs).toISOString()
    const prompt = rng.pick(ws.prompts)
    const [provider, model] = rng.pick(PROVIDER_MODELS)
    const responseId = timeOrderedId(createdMs, idRng)
    const mentionCount = Math.min(ws.brands.length, Math.max(0, Math.round(rng.float(0, 5))))
    const named = rng.weightedSample(ws.brands, mentionCount, (b) => b.weight)
    let sentences = ''
    for (let p = 0; p < named.length; p++) {
      const brand = named[p]
      const sentiment = round3(Math.max(-1, Math.min(1, brand.tone + rng.float(-0.4, 0.4))))
      sink.mention(ws.id, responseId, brand.id, prompt.id, provider, model, createdAt, rng.int(1, 3), p + 1, sentiment)
      sentences += `${p === 0 ? '' : '\n'}${p + 1}. ${brand.name} is ${sentiment >= 0 ? 'a solid choice with good integrations and a friendly interface' : 'often criticised for slow performance and confusing pricing'}.`
    }
    const citationCount = rng.int(2, 6)
    const seen: string[] = []
    for (let c = 0; c < citationCount; c++) {
      const source = pickDomain()
      const url = `${source.base}${rng.int(1, 40)}`.replace('https://www.', 'https://')
      if (seen.includes(url)) continue
      seen.push(url)
      sink.citation(ws.id, responseId, url, source.domain, `${source.domain} article ${url.length % 40}`, prompt.id, provider, model, createdAt)
    }
    const empty = rng.chance(0.02)
    const content = empty
      ? ''
      : `Here is an overview for "${prompt.text}".\n\n${sentences}\n\nIn summary, pick the tool that fits your team's size, budget and workflow; trial two or three before committing. Sources: ${seen.slice(0, 2).join(' ')}`
    sink.response(ws.id, responseId, prompt.id, provider, model, content, createdAt, `bench-${i}`, empty ? null : round3(rng.float(-0.5, 0.8)))
  }
  return last - offset
}

export const chunkCount = (ws: Workspace) => Math.ceil(ws.responses / CHUNK_SIZE)
