/**
 * Deterministic demo dataset for Beacon (docs/data-in.md, `beacon serve --demo`).
 *
 * Pure: no database, no I/O, no clock, no Math.random. Everything derives from
 * `seed` and `today`, so the same options always give a deep-equal dataset.
 * The output is raw material (brands, prompts, provider answers, AIO
 * observations) meant to be fed through the real ingestion + analysis pipeline.
 *
 * Market: fictional project-management / team-collaboration software.
 */
import {
  BRAND_PROFILES,
  PROVIDERS,
  MODEL_DEFS,
  PROMPT_DEFS,
  SOURCE_DEFS,
  UNLISTED_BRANDS,
  type BrandProfile,
  type DemoProvider,
  type ModelDef,
  type PromptDef,
  type SourceDef,
} from './catalog.js'
import { composeAnswer, composeOverview, lerp, type Citation } from './compose.js'
import { Rng, hashString } from './random.js'
import { composeSearchQueries } from './search-queries.js'

export interface DemoBrand {
  key: string
  name: string
  domain: string
  aliases: string[]
  iconUrl: string
  isPrimary: boolean
}

export interface DemoPrompt {
  key: string
  text: string
  tags: string[]
}

export interface DemoResponse {
  externalId: string
  promptKey: string
  provider: 'openai' | 'anthropic' | 'google' | 'perplexity'
  model: string
  content: string
  /** ISO 8601 UTC. */
  createdAt: string
  citations: { url: string; title?: string }[]
  /** the web searches the engine ran for it (query fan-out); absent when it did not search */
  searchQueries?: string[]
}

export interface DemoAioObservation {
  externalId: string
  promptKey: string
  observedAt: string
  hasAio: boolean
  overviewText: string | null
}

export interface DemoDataset {
  workspaceName: string
  brands: DemoBrand[]
  prompts: DemoPrompt[]
  models: { id: string; provider: string; name: string }[]
  responses: DemoResponse[]
  aio: DemoAioObservation[]
}

export interface GenerateDemoOptions {
  /** Last day of the window (inclusive), YYYY-MM-DD, interpreted as UTC. */
  today: string
  /** Number of days in the window, ending at `today`. Default 90. */
  days?: number
  /** PRNG seed. Default DEFAULT_DEMO_SEED. */
  seed?: number
  /**
   * The present moment, when it falls inside `today`: that day's answers and observations
   * are spread over the hours already past instead of the whole day, so none is dated in
   * the future. Earlier days are unaffected. Default: the end of `today`.
   */
  now?: Date
}

export const DEFAULT_DEMO_SEED = 20240601
export const DEFAULT_DEMO_DAYS = 90
export const DEMO_WORKSPACE_NAME = 'Tasklane (demo)'

const DAY_MS = 86_400_000
/** Share of answers that come back empty (provider error). */
const EMPTY_RATE = 0.03
/** Share of answers that name no brand at all (how-to prompts: much higher). */
const NO_BRAND_RATE = 0.03
const NO_BRAND_RATE_HOWTO = 0.3
const MAX_BRANDS_PER_ANSWER = 6

function parseToday(today: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today)
  if (!m) throw new Error(`generateDemoDataset: today must be YYYY-MM-DD, got ${JSON.stringify(today)}`)
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const ms = Date.UTC(y, mo - 1, d)
  const check = new Date(ms)
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw new Error(`generateDemoDataset: invalid date ${today}`)
  }
  return ms
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x))
}

/** Small, seed-dependent but stable offset in [-amp, amp] for a label. */
function jitter(seed: number, label: string, amp: number): number {
  return ((hashString(`${seed}|${label}`) / 4294967295) * 2 - 1) * amp
}

const PROVIDER_INDEX: Record<DemoProvider, number> = { openai: 0, anthropic: 1, google: 2, perplexity: 3 }
const BRAND_COUNT = BRAND_PROFILES.length
const PROMPT_INDEX = new Map(PROMPT_DEFS.map((p, i) => [p.key, i]))

/**
 * Seed-dependent constants, computed once per generation so the hot loop only
 * does arithmetic: the time-independent part of every (prompt, brand, provider)
 * mention probability, and each brand's weekly-wobble phase.
 */
interface Tuning {
  offset: Float64Array
  named: Uint8Array
  phase: Float64Array
}

function buildTuning(seed: number): Tuning {
  const offset = new Float64Array(PROMPT_DEFS.length * BRAND_COUNT * 4)
  const named = new Uint8Array(PROMPT_DEFS.length * BRAND_COUNT)
  const phase = new Float64Array(BRAND_COUNT)
  BRAND_PROFILES.forEach((b, bi) => {
    phase[bi] = (hashString(`${seed}|phase|${b.key}`) % 628) / 100
    PROMPT_DEFS.forEach((prompt, pi) => {
      named[pi * BRAND_COUNT + bi] = prompt.named?.includes(b.key) ? 1 : 0
      let tagSum = 0
      for (const tag of prompt.tags) tagSum += b.tagBoost[tag] ?? 0
      const base =
        (prompt.tags.length > 1 ? tagSum * 0.75 : tagSum) +
        (prompt.boost?.[b.key] ?? 0) +
        // Prompt-level affinity, so prompts differ from each other.
        jitter(seed, `affinity|${b.key}|${prompt.key}`, 0.06)
      for (const provider of PROVIDERS) {
        offset[(pi * BRAND_COUNT + bi) * 4 + PROVIDER_INDEX[provider]] = base + (b.providerBias[provider] ?? 0)
      }
    })
  })
  return { offset, named, phase }
}

/** Probability that brand `bi` is mentioned in a branded answer to prompt `pi`. */
function mentionProbability(tuning: Tuning, bi: number, pi: number, provider: DemoProvider, t: number, dayIndex: number): number {
  if (tuning.named[pi * BRAND_COUNT + bi] === 1) return 0.97
  const b = BRAND_PROFILES[bi]
  let p = lerp(b.mentionStart, b.mentionEnd, t)
  p += tuning.offset[(pi * BRAND_COUNT + bi) * 4 + PROVIDER_INDEX[provider]]
  // A gentle weekly wobble, so charts are not flat lines.
  p += 0.025 * Math.sin((dayIndex / 7) * 2 * Math.PI + tuning.phase[bi])
  return clamp(p, 0.02, 0.95)
}

function pickBrands(rng: Rng, tuning: Tuning, pi: number, provider: DemoProvider, t: number, dayIndex: number): BrandProfile[] {
  const scored: { bi: number; score: number }[] = []
  for (let bi = 0; bi < BRAND_COUNT; bi++) {
    const p = mentionProbability(tuning, bi, pi, provider, t, dayIndex)
    if (rng.chance(p)) scored.push({ bi, score: p + rng.next() * 0.7 })
  }
  scored.sort((x, y) => y.score - x.score)
  const out = scored.slice(0, MAX_BRANDS_PER_ANSWER).map((s) => BRAND_PROFILES[s.bi])
  // Brands named in the prompt are always kept, even when the list is capped.
  for (const s of scored.slice(MAX_BRANDS_PER_ANSWER)) {
    if (tuning.named[pi * BRAND_COUNT + s.bi] === 1) out.push(BRAND_PROFILES[s.bi])
  }
  return out
}

const UTM: Record<DemoProvider, string> = {
  openai: 'chatgpt',
  anthropic: 'claude',
  google: 'gemini',
  perplexity: 'perplexity',
}

function applyUrlVariants(rng: Rng, url: string, provider: DemoProvider): string {
  const u = /^(https?):\/\/([^/?#]+)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(url)
  if (!u) return url
  let host = u[2]
  let path = u[3]
  let query = u[4] ?? ''
  let fragment = u[5] ?? ''
  // Toggle `www.` on registrable hosts only (never produce www.en.wikipedia.org).
  if (rng.chance(0.2)) {
    if (host.startsWith('www.')) host = host.slice(4)
    else if (host.split('.').length === 2) host = `www.${host}`
  }
  if (rng.chance(0.03)) host = host.toUpperCase()
  if (path.length > 1 && query === '' && rng.chance(0.1)) path = path.endsWith('/') ? path.slice(0, -1) : `${path}/`
  if (rng.chance(0.2)) {
    const extra = rng.chance(0.3) ? `utm_source=${UTM[provider]}&utm_medium=referral` : `utm_source=${UTM[provider]}`
    query = query ? `${query}&${extra}` : `?${extra}`
  } else if (rng.chance(0.02)) {
    query = query ? `${query}&gclid=Cj0KCQiA${rng.int(100000, 999999)}` : `?gclid=Cj0KCQiA${rng.int(100000, 999999)}`
  }
  if (fragment === '' && rng.chance(0.05)) fragment = rng.pick(['#reviews', '#pricing', '#top'])
  return `${u[1]}://${host}${path}${query}${fragment}`
}

const SOURCES_BY_KIND = new Map<string, SourceDef[]>()
for (const src of SOURCE_DEFS) SOURCES_BY_KIND.set(src.kind, [...(SOURCES_BY_KIND.get(src.kind) ?? []), src])

function fillSource(template: string, b: BrandProfile): string {
  return template.replaceAll('{domain}', b.domain).replaceAll('{key}', b.key).replaceAll('{name}', b.name)
}

function pickCitations(rng: Rng, prompt: PromptDef, provider: DemoProvider, mentioned: readonly BrandProfile[]): Citation[] {
  let count: number
  if (provider === 'perplexity' || provider === 'google') count = rng.int(3, 6)
  else count = rng.chance(0.15) ? rng.int(1, 3) : 0
  if (count === 0) return []

  const enterprise = prompt.tags.includes('enterprise')
  const kinds: [string, number][] = [
    ['reference', 0.12],
    ['forum', 0.25],
    ['news', 0.12],
    ['review', 0.26],
    ['brand', mentioned.length > 0 ? 0.22 : 0],
    ['institutional', enterprise ? 0.14 : 0.04],
  ]
  const out: Citation[] = []
  const seen = new Set<string>()
  for (let attempt = 0; attempt < count * 5 && out.length < count; attempt++) {
    const kind = rng.weighted(kinds, ([, w]) => w)[0]
    let url: string
    let title: string
    if (kind === 'brand') {
      // Earlier-ranked brands are cited more often.
      const b = rng.weighted(mentioned, (x) => 1 / (1 + mentioned.indexOf(x)))
      const page = rng.pick(b.pages)
      url = `https://${b.domain}${page.path}`
      title = page.title.replaceAll('{name}', b.name)
    } else {
      const src = rng.pick(SOURCES_BY_KIND.get(kind) ?? [])
      const b = mentioned.length > 0 ? rng.pick(mentioned) : rng.pick(BRAND_PROFILES)
      url = fillSource(src.url, b)
      title = fillSource(src.title, b)
    }
    if (seen.has(url)) continue
    seen.add(url)
    const citation: Citation = { url: applyUrlVariants(rng, url, provider) }
    if (!rng.chance(0.08)) citation.title = title
    out.push(citation)
  }
  // Occasionally the provider lists the same page twice with a different URL shape.
  if (out.length > 0 && rng.chance(0.08)) {
    const dup = rng.pick(out)
    const base = dup.url.replace(/[?#].*$/, '')
    out.push({ url: `${base}?utm_source=${UTM[provider]}`, title: rng.chance(0.5) ? '' : dup.title })
  }
  return out
}

function toBrand(b: BrandProfile): DemoBrand {
  return {
    key: b.key,
    name: b.name,
    domain: b.domain,
    aliases: [...b.aliases],
    iconUrl: `https://${b.domain}/favicon.ico`,
    isPrimary: b.isPrimary,
  }
}

function aioProbability(seed: number, prompt: PromptDef, t: number): number {
  let p = 0.66 + 0.06 * (t - 0.5)
  if (prompt.tags.includes('how-to')) p += 0.12
  if (prompt.named && prompt.named.length > 0) p -= 0.08
  if (prompt.tags.includes('enterprise')) p -= 0.05
  p += jitter(seed, `aio|${prompt.key}`, 0.1)
  return clamp(p, 0.2, 0.95)
}

export function generateDemoDataset(options: GenerateDemoOptions): DemoDataset {
  const days = generateByDay(options)
  for (;;) {
    const step = days.next()
    if (step.done) return step.value
  }
}

/**
 * The same dataset, yielding to the event loop after each day: the whole 90 days take
 * 0.6–1.8 s of CPU on 2 cores, and `beacon serve --demo` generates them after listening,
 * where requests would wait for all of it (issue 32 item 5). A day is a few milliseconds.
 */
export async function generateDemoDatasetInSteps(options: GenerateDemoOptions, pause: () => Promise<void> = () => new Promise((done) => setImmediate(done))): Promise<DemoDataset> {
  const days = generateByDay(options)
  for (;;) {
    const step = days.next()
    if (step.done) return step.value
    await pause()
  }
}

/** Yields after each day it adds; returns the dataset. Every day draws from its own seeded streams, so pausing between days changes nothing. */
function* generateByDay(options: GenerateDemoOptions): Generator<void, DemoDataset> {
  const endMs = parseToday(options.today)
  const days = options.days ?? DEFAULT_DEMO_DAYS
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    throw new Error(`generateDemoDataset: days must be an integer in [1, 3660], got ${days}`)
  }
  const seed = (options.seed ?? DEFAULT_DEMO_SEED) >>> 0
  const startMs = endMs - (days - 1) * DAY_MS
  // How much of each day has passed: all of it, except on a `today` that is still going on.
  const nowMs = options.now?.getTime() ?? endMs + DAY_MS
  const elapsed = (dayMs: number) => Math.min(DAY_MS, Math.max(0, nowMs - dayMs))
  /** An instant `offsetMs` into a whole day, moved into the part of it that has passed (order kept). */
  const at = (dayMs: number, offsetMs: number) => new Date(dayMs + Math.floor((offsetMs * elapsed(dayMs)) / DAY_MS)).toISOString()
  const tuning = buildTuning(seed)

  const responses: DemoResponse[] = []
  const aio: DemoAioObservation[] = []

  for (let dayIndex = 0; dayIndex < days; dayIndex++) {
    const dayMs = startMs + dayIndex * DAY_MS
    const day = isoDay(dayMs)
    const t = days === 1 ? 1 : dayIndex / (days - 1)
    const weekday = new Date(dayMs).getUTCDay()
    const twoModelRate = weekday === 0 || weekday === 6 ? 0.36 : 0.55

    for (const prompt of PROMPT_DEFS) {
      const pi = PROMPT_INDEX.get(prompt.key) ?? 0
      const slot = Rng.for(seed, `slot|${day}|${prompt.key}`)
      const modelCount = slot.chance(twoModelRate) ? 2 : 1
      const models: ModelDef[] = slot.weightedSample(MODEL_DEFS, modelCount, (m) => m.weight)
      // Sorted timestamps for the models asked on this day.
      const seconds = models.map(() => slot.int(0, 86_399)).sort((a, b) => a - b)

      models.forEach((model, i) => {
        const rng = Rng.for(seed, `resp|${day}|${prompt.key}|${model.id}`)
        const createdAt = at(dayMs, seconds[i] * 1000 + rng.int(0, 999))
        const externalId = `demo-r-${day}-${prompt.key}-${model.id}`
        if (rng.chance(EMPTY_RATE)) {
          responses.push({ externalId, promptKey: prompt.key, provider: model.provider, model: model.id, content: '', createdAt, citations: [] })
          return
        }
        const noBrandRate = prompt.tags.includes('how-to') ? NO_BRAND_RATE_HOWTO : NO_BRAND_RATE
        const mentioned = rng.chance(noBrandRate) ? [] : pickBrands(rng, tuning, pi, model.provider, t, dayIndex)
        const citations = pickCitations(rng, prompt, model.provider, mentioned)
        // A stream of its own, so answers without an unlisted tool are exactly what they were.
        const extra = Rng.for(seed, `unlisted|${day}|${prompt.key}|${model.id}`)
        const tool = mentioned.length > 0 ? UNLISTED_BRANDS.find((u) => extra.chance(u.rate)) : undefined
        const unlisted = tool ? { name: tool.name, note: extra.pick(tool.notes) } : undefined
        const content = composeAnswer({ rng, prompt, provider: model.provider, t, mentioned, citations, unlisted })
        // Answers with citations searched the web; a stream of its own keeps the rest as it was.
        const searchRng = Rng.for(seed, `search|${day}|${prompt.key}|${model.id}`)
        const searchQueries =
          citations.length > 0 ? composeSearchQueries({ rng: searchRng, prompt, provider: model.provider, mentioned, year: new Date(dayMs).getUTCFullYear() }) : undefined
        responses.push({ externalId, promptKey: prompt.key, provider: model.provider, model: model.id, content, createdAt, citations, ...(searchQueries ? { searchQueries } : {}) })
      })

      const arng = Rng.for(seed, `aio|${day}|${prompt.key}`)
      if (arng.chance(0.04)) continue // not observed that day
      const observedAt = at(dayMs, arng.int(0, 86_399) * 1000)
      const hasAio = arng.chance(aioProbability(seed, prompt, t))
      let overviewText: string | null = null
      if (hasAio) {
        const n = arng.weighted([0, 1, 2, 3, 4], (k) => [0.14, 0.2, 0.3, 0.22, 0.14][k])
        const named: BrandProfile[] = []
        const others: { b: BrandProfile; w: number }[] = []
        BRAND_PROFILES.forEach((b, bi) => {
          if (tuning.named[pi * BRAND_COUNT + bi] === 1) named.push(b)
          else others.push({ b, w: mentionProbability(tuning, bi, pi, 'google', t, dayIndex) })
        })
        const chosen = [...named.slice(0, n), ...arng.weightedSample(others, Math.max(0, n - named.length), (o) => o.w).map((o) => o.b)]
        overviewText = composeOverview({ rng: arng, prompt, brands: arng.shuffle(chosen) })
      }
      aio.push({ externalId: `demo-aio-${day}-${prompt.key}`, promptKey: prompt.key, observedAt, hasAio, overviewText })
    }
    yield
  }

  return {
    workspaceName: DEMO_WORKSPACE_NAME,
    brands: BRAND_PROFILES.map(toBrand),
    prompts: PROMPT_DEFS.map((p) => ({ key: p.key, text: p.text, tags: [...p.tags] })),
    models: MODEL_DEFS.map((m) => ({ id: m.id, provider: m.provider, name: m.name })),
    responses,
    aio,
  }
}
