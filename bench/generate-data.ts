// Builds a large, realistic, deterministic dataset for the benchmarks:
//   npm run bench:data -- --responses 1000000 [--seed 7] [--days 365]
// Target: DATABASE_URL (postgres://…) or, unset, the embedded PGlite in BEACON_DATA_DIR
// (default ./bench-data). One large workspace (≈200 tagged prompts, 8 models across the
// four providers, 12 brands, ≈2.5 mentions and ≈4 citations per response, AIO
// observations) plus 9 smaller workspaces as noise. Facts are generated directly (not
// through text analysis). On a PostgreSQL server they are loaded with COPY into the fact
// tables with their indexes dropped and built again at the end, in one transaction
// (bench/copy-load.ts; 10M responses in well under 30 minutes); on PGlite, or with
// --inserts, with multi-row array inserts. Response ids are time-ordered (v7) like the
// ids ingestion gives them. Writes bench/.dataset.json (workspace id, a premium key) for
// `npm run bench`; --out names another file (several datasets side by side).
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import { v5 as uuidv5 } from 'uuid'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import type { Database } from '../src/db/schema.js'
import { createApiKey } from '../src/admin/api-key-store.js'
import { FAMILIES, rebuildRollups, tenantTables } from '../src/rollups/index.js'
import { SCOPES } from '../src/auth/scopes.js'
import { Rng } from '../src/demo/random.js'
import { copyEscape, copyRows, CopyStream, copyYardstick, parallelLoadWithoutIndexes, type Row } from './copy-load.js'
import { addDays, todayUtc } from '../src/core/date-range.js'

const { values } = parseArgs({
  options: {
    responses: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '7' },
    days: { type: 'string', default: '365' },
    quiet: { type: 'boolean', default: false },
    inserts: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.dataset.json' },
    // Responses of the main workspace copied again as the COPY yardstick (0: none).
    yardstick: { type: 'string', default: '100000' },
  },
})
const YARDSTICK = Number(values.yardstick)
const TOTAL = Number(values.responses)
const SEED = Number(values.seed)
const DAYS = Number(values.days)
if (!Number.isInteger(TOTAL) || TOTAL < 1) throw new Error('--responses must be a positive whole number')

const NS = '8d4f0a4e-3c55-4a1e-9d7e-6a0b2f1c9e11'
const id = (...parts: (string | number)[]) => uuidv5(parts.join(':'), NS)
const PROVIDER_MODELS: [string, string, string][] = [
  ['openai', 'gpt-4o', 'GPT-4o'],
  ['openai', 'gpt-4o-mini', 'GPT-4o mini'],
  ['anthropic', 'claude-sonnet-4', 'Claude Sonnet 4'],
  ['anthropic', 'claude-haiku-4', 'Claude Haiku 4'],
  ['google', 'gemini-2.5-pro', 'Gemini 2.5 Pro'],
  ['google', 'gemini-2.5-flash', 'Gemini 2.5 Flash'],
  ['perplexity', 'sonar', 'Sonar'],
  ['perplexity', 'sonar-pro', 'Sonar Pro'],
]
const TAGS = ['comparison', 'pricing', 'enterprise', 'smb', 'integrations', 'alternatives', 'reviews', 'how-to', 'security', 'mobile']
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

interface Workspace {
  id: string
  name: string
  responses: number
  prompts: { id: string; text: string; tags: string[] }[]
  brands: { id: string; name: string; domain: string; weight: number; tone: number }[]
  domains: { domain: string; base: string; weight: number }[]
}

function buildWorkspace(index: number, responses: number, promptCount: number): Workspace {
  const rng = Rng.for(SEED, `workspace-${index}`)
  const wsId = id('workspace', SEED, index)
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

/** One INSERT … SELECT FROM unnest(arrays) per chunk: few statements, few parameters. */
async function insertArrays(db: Kysely<Database>, table: string, columns: [string, string][], rows: Row[]) {
  if (rows.length === 0) return
  const arrays = columns.map(([name, type]) => sql`${rows.map((r) => r[name] ?? null)}::${sql.raw(type)}[]`)
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map(([name]) => sql.ref(name)))}) select * from unnest(${sql.join(arrays)})`.execute(db)
}

const RESPONSE_COLUMNS: [string, string][] = [
  ['workspace_id', 'uuid'],
  ['id', 'uuid'],
  ['prompt_id', 'uuid'],
  ['provider', 'text'],
  ['model', 'text'],
  ['content', 'text'],
  ['created_at', 'timestamptz'],
  ['external_id', 'text'],
  ['sentiment', 'float8'],
]
const MENTION_COLUMNS: [string, string][] = [
  ['workspace_id', 'uuid'],
  ['response_id', 'uuid'],
  ['brand_id', 'uuid'],
  ['prompt_id', 'uuid'],
  ['provider', 'text'],
  ['model', 'text'],
  ['created_at', 'timestamptz'],
  ['occurrences', 'int4'],
  ['position', 'int4'],
  ['sentiment', 'float8'],
]
const CITATION_COLUMNS: [string, string][] = [
  ['workspace_id', 'uuid'],
  ['response_id', 'uuid'],
  ['url', 'text'],
  ['domain', 'text'],
  ['title', 'text'],
  ['prompt_id', 'uuid'],
  ['provider', 'text'],
  ['model', 'text'],
  ['created_at', 'timestamptz'],
]
const AIO_COLUMNS: [string, string][] = [
  ['workspace_id', 'uuid'],
  ['id', 'uuid'],
  ['prompt_id', 'uuid'],
  ['observed_at', 'timestamptz'],
  ['has_aio', 'bool'],
  ['overview_text', 'text'],
  ['external_id', 'text'],
]
const APPEARANCE_COLUMNS: [string, string][] = [
  ['workspace_id', 'uuid'],
  ['observation_id', 'uuid'],
  ['brand_id', 'uuid'],
  ['prompt_id', 'uuid'],
  ['observed_at', 'timestamptz'],
  ['position', 'int4'],
]

const round3 = (x: number) => Math.round(x * 1000) / 1000

/**
 * Where generated facts go. The fact rows are handed over as positional values, not as
 * objects: the COPY sink appends them to one text buffer per table (no per-row objects,
 * the bulk of what the previous generator spent its time on), the insert sink builds the
 * rows its array inserts need. `flush` is called after every chunk of responses.
 */
interface FactSink {
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
  flush(): Promise<void>
  aio(observations: Row[], appearances: Row[]): Promise<void>
}

const columnNames = (columns: [string, string][]) => columns.map(([name]) => name)

function insertSink(db: Kysely<Database>): FactSink {
  let responses: Row[] = []
  let mentions: Row[] = []
  let citations: Row[] = []
  return {
    response: (workspace_id, id, prompt_id, provider, model, content, created_at, external_id, sentiment) =>
      void responses.push({ workspace_id, id, prompt_id, provider, model, content, created_at, external_id, sentiment }),
    mention: (workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position, sentiment) =>
      void mentions.push({ workspace_id, response_id, brand_id, prompt_id, provider, model, created_at, occurrences, position, sentiment }),
    citation: (workspace_id, response_id, url, domain, title, prompt_id, provider, model, created_at) =>
      void citations.push({ workspace_id, response_id, url, domain, title, prompt_id, provider, model, created_at }),
    async flush() {
      const batch = { responses, mentions, citations }
      responses = []
      mentions = []
      citations = []
      await db.transaction().execute(async (trx) => {
        await insertArrays(trx, 'response', RESPONSE_COLUMNS, batch.responses)
        await insertArrays(trx, 'mention', MENTION_COLUMNS, batch.mentions)
        await insertArrays(trx, 'citation', CITATION_COLUMNS, batch.citations)
      })
    },
    aio: (observations, appearances) =>
      db.transaction().execute(async (trx) => {
        await insertArrays(trx, 'aio_observation', AIO_COLUMNS, observations)
        await insertArrays(trx, 'aio_appearance', APPEARANCE_COLUMNS, appearances)
      }),
  }
}

/**
 * COPY text built straight from the values, one open COPY per table on its own connection
 * (bench/copy-load.ts). Only `content` is free text; every other value is an id, a number,
 * an ISO time or a URL the generator made, none with a tab, newline or backslash.
 */
function copySink(responseClient: pg.PoolClient, mentionClient: pg.PoolClient, citationClient: pg.PoolClient): FactSink & { end(): Promise<void> } {
  const streams = {
    response: new CopyStream(responseClient, 'response', columnNames(RESPONSE_COLUMNS)),
    mention: new CopyStream(mentionClient, 'mention', columnNames(MENTION_COLUMNS)),
    citation: new CopyStream(citationClient, 'citation', columnNames(CITATION_COLUMNS)),
  }
  let responses = ''
  let mentions = ''
  let citations = ''
  // The AIO rows (a few per prompt and day) wait for the fact COPYs to end: a connection
  // in COPY runs nothing else.
  const observations: Row[] = []
  const appearances: Row[] = []
  let inFlight: Promise<unknown> = Promise.resolve()
  return {
    response(ws, id, promptId, provider, model, content, createdAt, externalId, sentiment) {
      responses += `${ws}\t${id}\t${promptId}\t${provider}\t${model}\t${copyEscape(content)}\t${createdAt}\t${externalId}\t${sentiment === null ? '\\N' : sentiment}\n`
    },
    mention(ws, responseId, brandId, promptId, provider, model, createdAt, occurrences, position, sentiment) {
      mentions += `${ws}\t${responseId}\t${brandId}\t${promptId}\t${provider}\t${model}\t${createdAt}\t${occurrences}\t${position}\t${sentiment}\n`
    },
    citation(ws, responseId, url, domain, title, promptId, provider, model, createdAt) {
      citations += `${ws}\t${responseId}\t${url}\t${domain}\t${title}\t${promptId}\t${provider}\t${model}\t${createdAt}\n`
    },
    // Double-buffered: this chunk is handed to the sockets while the next one is built; only
    // the chunk before it must have gone out first.
    async flush() {
      await inFlight
      const text = { response: responses, mention: mentions, citation: citations }
      responses = mentions = citations = ''
      inFlight = Promise.all([streams.response.write(text.response), streams.mention.write(text.mention), streams.citation.write(text.citation)])
      inFlight.catch(() => {}) // awaited (and thrown) by the next flush or end
    },
    async end() {
      await inFlight
      await Promise.all([streams.response.end(), streams.mention.end(), streams.citation.end()])
      await copyRows(responseClient, 'aio_observation', columnNames(AIO_COLUMNS), observations)
      await copyRows(responseClient, 'aio_appearance', columnNames(APPEARANCE_COLUMNS), appearances)
    },
    async aio(moreObservations, moreAppearances) {
      observations.push(...moreObservations)
      appearances.push(...moreAppearances)
    },
  }
}

async function insertDimensions(db: Kysely<Database>, ws: Workspace) {
  await db.insertInto('workspace').values({ id: ws.id, name: ws.name, tier: 'premium' }).execute()
  await db
    .insertInto('model')
    .values(PROVIDER_MODELS.map(([provider, model, name]) => ({ workspace_id: ws.id, id: model, provider, name })))
    .execute()
  await db
    .insertInto('brand')
    .values(
      ws.brands.map((b, i) => ({ workspace_id: ws.id, id: b.id, name: b.name, domain: b.domain, aliases: [], icon_url: `https://${b.domain}/favicon.ico`, is_primary: i === 0 })),
    )
    .execute()
  for (let i = 0; i < ws.prompts.length; i += 500) {
    await db
      .insertInto('prompt')
      .values(ws.prompts.slice(i, i + 500).map((p) => ({ workspace_id: ws.id, id: p.id, text: p.text, tags: p.tags })))
      .execute()
  }
}

/** Where the load's time went: building the rows in Node, or waiting for the COPYs. */
const timing = { generate: 0, flush: 0 }

async function loadFacts(ws: Workspace, endDay: string, sink: FactSink, progress: (n: number) => void) {
  const startDay = addDays(endDay, -(DAYS - 1))
  const startMs = Date.parse(`${startDay}T00:00:00Z`)
  const spanMs = DAYS * 86_400_000
  const rng = Rng.for(SEED, `facts-${ws.id}`)
  const idRng = Rng.for(SEED, `ids-${ws.id}`)
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
  const CHUNK = 2_000
  for (let offset = 0; offset < ws.responses; offset += CHUNK) {
    const last = Math.min(ws.responses, offset + CHUNK)
    const chunkStarted = performance.now()
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
    const flushStarted = performance.now()
    timing.generate += flushStarted - chunkStarted
    await sink.flush()
    timing.flush += performance.now() - flushStarted
    progress(last - offset)
  }
  // AIO: every prompt once a day, loaded a month at a time.
  for (let firstDay = 0; firstDay < DAYS; firstDay += 30) {
    const observations: Row[] = []
    const appearances: Row[] = []
    for (let day = firstDay; day < Math.min(DAYS, firstDay + 30); day++) {
      const dayMs = startMs + day * 86_400_000
      for (const [p, prompt] of ws.prompts.entries()) {
        const observationId = id(ws.id, 'aio', day, p)
        const observedAt = new Date(dayMs + rng.int(0, 86_399) * 1000)
        const hasAio = rng.chance(0.65)
        const named = hasAio ? rng.weightedSample(ws.brands, rng.int(0, 4), (b) => b.weight) : []
        observations.push({
          workspace_id: ws.id,
          id: observationId,
          prompt_id: prompt.id,
          observed_at: observedAt,
          has_aio: hasAio,
          overview_text: hasAio ? `Overview: ${named.map((b) => b.name).join(', ') || 'several tools'} are commonly recommended.` : null,
          external_id: `bench-aio-${day}-${p}`,
        })
        named.forEach((brand, position) =>
          appearances.push({ workspace_id: ws.id, observation_id: observationId, brand_id: brand.id, prompt_id: prompt.id, observed_at: observedAt, position: position + 1 }),
        )
      }
    }
    await sink.aio(observations, appearances)
  }
}

const FACT_TABLES = ['response', 'mention', 'citation', 'aio_observation', 'aio_appearance']
const started = performance.now()
const databaseUrl = process.env.DATABASE_URL || undefined
const dataDir = process.env.BEACON_DATA_DIR || './bench-data'
const database = await openDatabase({ databaseUrl, dataDir, databasePoolSize: 4 })
await migrateToLatest(database.db)
const db = database.db
if (database.backend === 'postgres') await sql`set synchronous_commit = off`.execute(db)

// Start from a clean slate for these workspaces (re-runs replace the dataset).
const workspaces = [buildWorkspace(0, TOTAL, 200), ...Array.from({ length: 9 }, (_, i) => buildWorkspace(i + 1, Math.max(100, Math.round(TOTAL / 50)), 20))]
const ids = workspaces.map((w) => w.id)
// Every table with a workspace_id column (the catalog's list), children before parents.
for (const table of await tenantTables(db)) {
  await sql`delete from ${sql.table(table)} where workspace_id = any(${ids}::uuid[])`.execute(db)
}
await db.deleteFrom('workspace').where('id', 'in', ids).execute()

const endDay = todayUtc()
const totalResponses = workspaces.reduce((n, w) => n + w.responses, 0)
let loaded = 0
let lastPrint = 0
for (const ws of workspaces) await insertDimensions(db, ws)
const factsStarted = performance.now()
const loadAll = async (sink: FactSink) => {
  for (const ws of workspaces) {
    if (!values.quiet) process.stderr.write(`workspace ${ws.name}: ${ws.responses.toLocaleString('en')} responses\n`)
    await loadFacts(ws, endDay, sink, (n) => {
      loaded += n
      if (!values.quiet && (performance.now() - lastPrint > 5000 || loaded === totalResponses)) {
        lastPrint = performance.now()
        const seconds = (performance.now() - factsStarted) / 1000
        process.stderr.write(`  ${loaded.toLocaleString('en')}/${totalResponses.toLocaleString('en')} responses, ${Math.round(loaded / seconds).toLocaleString('en')}/s\n`)
      }
    })
  }
}
const useCopy = database.backend === 'postgres' && !values.inserts
let indexSeconds: number | undefined
let copySeconds: number | undefined
let yardstickWall = 0
let yardstick: { seconds: number; rows: Record<string, number>; megabytes: number; responses_per_second: number } | undefined
if (useCopy) {
  // Three connections: a COPY per fact table at once, then an index build per table at once.
  const clients = await Promise.all([0, 1, 2].map(() => database.connection.pool!.connect()))
  try {
    ;({ indexSeconds } = await parallelLoadWithoutIndexes(clients, FACT_TABLES, async () => {
      const sink = copySink(clients[0], clients[1], clients[2])
      await loadAll(sink)
      await sink.end()
      copySeconds = (performance.now() - factsStarted) / 1000
      if (!values.quiet) process.stderr.write(`generated in ${Math.round(timing.generate / 100) / 10} s, waited for COPY ${Math.round(timing.flush / 100) / 10} s\n`)
      if (YARDSTICK > 0) {
        // The main workspace's first YARDSTICK responses (by time) with their mentions and
        // citations, read back as COPY text and copied again: PostgreSQL's own COPY rate.
        const main = workspaces[0]
        const cutoff = new Date(Date.parse(`${addDays(endDay, -(DAYS - 1))}T00:00:00Z`) + (Math.min(YARDSTICK, main.responses) / main.responses) * DAYS * 86_400_000).toISOString()
        const where = `workspace_id = '${main.id}' and created_at < '${cutoff}'`
        const yardstickStarted = performance.now()
        const result = await copyYardstick(clients, [
          { table: 'response', select: `select * from response where ${where}` },
          { table: 'mention', select: `select * from mention where ${where}` },
          { table: 'citation', select: `select * from citation where ${where}` },
        ])
        yardstickWall = (performance.now() - yardstickStarted) / 1000
        yardstick = { ...result, seconds: Math.round(result.seconds * 10) / 10, responses_per_second: Math.round(result.rows.response / result.seconds) }
        if (!values.quiet)
          process.stderr.write(
            `yardstick: COPY of ${JSON.stringify(result.rows)} already as text (${result.megabytes} MB) took ${yardstick.seconds} s = ${yardstick.responses_per_second.toLocaleString('en')} responses/s\n`,
          )
      }
    }))
  } finally {
    for (const client of clients) client.release()
  }
} else {
  await loadAll(insertSink(db))
}
const factSeconds = (performance.now() - factsStarted) / 1000
if (!values.quiet)
  process.stderr.write(`facts loaded in ${Math.round(factSeconds)} s${indexSeconds === undefined ? '' : ` (indexes and keys built in ${Math.round(indexSeconds)} s)`}\n`)
const rollupStarted = performance.now()
// The facts were loaded directly, so every rollup is built from them here, by the product's
// own rebuild: the numbering tables first (the URL rollups read their numbers), then the
// other families in three groups by the facts they read, each group in its own
// transaction on its own connection, at once (a fold stays with its source, which reads
// the facts for both).
const numbering = FAMILIES.filter((f) => f.stableIds).map((f) => f.name)
const groups = (['mention', 'citation', 'response'] as const).map((facts) => FAMILIES.filter((f) => !f.stableIds && f.facts === facts).map((f) => f.name))
for (const ws of workspaces) {
  await rebuildRollups(db, ws.id, { families: numbering })
  await Promise.all(groups.map((families) => rebuildRollups(db, ws.id, { families })))
}
const rollupSeconds = (performance.now() - rollupStarted) / 1000
if (!values.quiet) process.stderr.write(`rollups built in ${Math.round(rollupSeconds * 10) / 10} s\n`)
// Planner statistics and the visibility map (index-only scans): PostgreSQL would get them
// from autovacuum eventually, PGlite never does by itself.
const vacuumStarted = performance.now()
await sql`vacuum analyze`.execute(db)
const vacuumSeconds = (performance.now() - vacuumStarted) / 1000
const key = await createApiKey(db, { workspaceId: workspaces[0].id, scopes: [...SCOPES], name: 'bench' })
const counts = await sql<{ responses: number; mentions: number; citations: number; observations: number }>`
  select (select count(*) from response where workspace_id = ${workspaces[0].id}) as responses,
         (select count(*) from mention where workspace_id = ${workspaces[0].id}) as mentions,
         (select count(*) from citation where workspace_id = ${workspaces[0].id}) as citations,
         (select count(*) from aio_observation where workspace_id = ${workspaces[0].id}) as observations`.execute(db)
const databaseMegabytes =
  database.backend === 'postgres' ? Math.round(Number((await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db)).rows[0].bytes) / 1e6) : null
await database.close()

const seconds = Math.round((performance.now() - started) / 100) / 10
const summary = {
  backend: database.backend,
  database: databaseUrl ? databaseUrl.replace(/\/\/[^@]*@/, '//') : `pglite:${dataDir}`,
  seed: SEED,
  days: DAYS,
  end_day: endDay,
  workspace_id: workspaces[0].id,
  key: key.key,
  main: counts.rows[0],
  noise_workspaces: 9,
  total_responses: totalResponses,
  load_seconds: seconds,
  method: useCopy ? 'copy' : 'inserts',
  phases_seconds: {
    facts: Math.round(factSeconds),
    generate_and_copy: copySeconds === undefined ? null : Math.round(copySeconds),
    indexes: indexSeconds === undefined ? null : Math.round(indexSeconds),
    rollups: Math.round(rollupSeconds),
    vacuum_analyze: Math.round(vacuumSeconds),
  },
  responses_per_second: Math.round(totalResponses / seconds),
  // Facts only (generation, COPY, index builds; not the yardstick's own minute).
  fact_responses_per_second: Math.round(totalResponses / (factSeconds - yardstickWall)),
  copy_responses_per_second: copySeconds === undefined ? null : Math.round(totalResponses / copySeconds),
  yardstick: yardstick ?? null,
  database_megabytes: databaseMegabytes,
}
writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
const { key: _secret, ...shown } = summary
console.log(JSON.stringify(shown, null, 2))
console.log(`Loaded ${totalResponses.toLocaleString('en')} responses in ${seconds} s; key and ids in ${values.out}`)
