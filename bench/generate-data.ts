// Builds a large, realistic, deterministic dataset for the benchmarks:
//   npm run bench:data -- --responses 1000000 [--seed 7] [--days 365] [--threads N] [--yardstick N]
//     [--noise N] [--twin N --twin-out FILE]
// Target: DATABASE_URL (postgres://…) or, unset, the embedded PGlite in BEACON_DATA_DIR
// (default ./bench-data). One large workspace (≈200 tagged prompts, 8 models across the
// four providers, 12 brands, ≈2.5 mentions and ≈4 citations per response, AIO
// observations) plus 9 smaller workspaces as noise. Facts are generated directly (not
// through text analysis, bench/fact-generator.ts). On a PostgreSQL server worker threads
// build the COPY text and it goes into one open COPY per fact table (three connections)
// with the tables' indexes and keys dropped, built again at the end (bench/copy-load.ts);
// the drop commits first, so a load killed outright leaves the indexes dropped (run it
// again on a new database). Beside it, the same rows copied again from text (--yardstick
// responses) give PostgreSQL's own COPY rate in the same run. On PGlite, or with
// --inserts, multi-row array inserts. Rollups are built by the product's rebuild; a
// DATABASE_URL with `?options=-c%20work_mem%3D512MB` gives its sorts more memory. Response
// ids are time-ordered (v7) like the ids ingestion gives them. Writes bench/.dataset.json
// (workspace id, a premium key) for `npm run bench`; --out names another file.
import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { parseArgs } from 'node:util'
import { sql, type Kysely } from 'kysely'
import type pg from 'pg'
import { openDatabase } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrate.js'
import type { Database } from '../src/db/schema.js'
import { createApiKey } from '../src/admin/api-key-store.js'
import { FAMILIES, rebuildRollups, tenantTables } from '../src/rollups/index.js'
import { SCOPES } from '../src/auth/scopes.js'
import { Rng } from '../src/demo/random.js'
import { copyRows, CopyStream, copyYardstick, parallelLoadWithoutIndexes, type Row } from './copy-load.js'
import { buildWorkspace, chunkCount, generateChunk, id, PROVIDER_MODELS, type FactSink, type Workspace } from './fact-generator.js'
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
    // Threads that generate the COPY text (default: one per core).
    threads: { type: 'string', default: String(availableParallelism()) },
    // Responses in each of the nine noise workspaces (default: a fiftieth of --responses).
    noise: { type: 'string' },
    // A second workspace shaped like the main one (200 prompts, 12 brands) with this many
    // responses, written to --twin-out: `npm run bench -- --dataset` on both compares a 1M
    // workspace with a 10M one in the same database and the same hour (0: none).
    twin: { type: 'string', default: '0' },
    'twin-out': { type: 'string' },
    // Facts only (timing the load): no rollups, no vacuum; the dataset is not for `npm run bench`.
    'skip-rollups': { type: 'boolean', default: false },
  },
})
const YARDSTICK = Number(values.yardstick)
const THREADS = Math.max(1, Number(values.threads))
const TOTAL = Number(values.responses)
const SEED = Number(values.seed)
const DAYS = Number(values.days)
if (!Number.isInteger(TOTAL) || TOTAL < 1) throw new Error('--responses must be a positive whole number')
const NOISE = values.noise === undefined ? Math.max(100, Math.round(TOTAL / 50)) : Number(values.noise)
if (!Number.isInteger(NOISE) || NOISE < 1) throw new Error('--noise must be a positive whole number (responses per noise workspace)')
const TWIN = Number(values.twin)
if (!Number.isInteger(TWIN) || TWIN < 0) throw new Error('--twin must be a whole number of responses (0 for no twin workspace)')
const TWIN_OUT = values['twin-out'] ?? values.out.replace(/(\.json)?$/, '-twin.json')

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

/**
 * Where generated facts go: the insert sink builds the rows its array inserts need from the
 * generator's values (bench/fact-generator.ts); the COPY path gets text from worker threads
 * instead (copyLoad below). `flush` is called after every chunk of responses.
 */
interface InsertSink extends FactSink {
  flush(): Promise<void>
  aio(observations: Row[], appearances: Row[]): Promise<void>
}

const columnNames = (columns: [string, string][]) => columns.map(([name]) => name)

function insertSink(db: Kysely<Database>): InsertSink {
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
 * The COPY path: worker threads build each chunk's COPY text (bench/fact-generator-worker.ts)
 * and the chunks are written in order (the facts stay in time order on disk, as ingestion
 * leaves them) to one open COPY per fact table, each on its own connection. A few chunks
 * are in flight at once, so the threads never wait for the sockets nor the sockets for them.
 */
async function copyFacts(clients: pg.PoolClient[], workers: Worker[], onChunk: (ws: Workspace, n: number) => void) {
  const streams = [
    new CopyStream(clients[0], 'response', columnNames(RESPONSE_COLUMNS)),
    new CopyStream(clients[1], 'mention', columnNames(MENTION_COLUMNS)),
    new CopyStream(clients[2], 'citation', columnNames(CITATION_COLUMNS)),
  ]
  const jobs = workspaces.flatMap((ws) => Array.from({ length: chunkCount(ws) }, (_, chunk) => ({ ws, chunk })))
  const results = new Map<number, { responses: number; text: Uint8Array[] }>()
  const waiting = new Map<number, () => void>()
  const failures: Error[] = []
  for (const worker of workers) {
    worker.on('message', (message: { jobId: number; responses: number; text: Uint8Array[] }) => {
      results.set(message.jobId, message)
      waiting.get(message.jobId)?.()
    })
    worker.on('error', (error) => {
      failures.push(error)
      for (const resolve of waiting.values()) resolve()
    })
  }
  const IN_FLIGHT = workers.length * 3
  let sent = 0
  const send = () => {
    if (sent >= jobs.length) return
    const { ws, chunk } = jobs[sent]
    workers[sent % workers.length].postMessage({ jobId: sent, ws, seed: SEED, days: DAYS, endDay, chunk })
    sent++
  }
  while (sent < Math.min(IN_FLIGHT, jobs.length)) send()
  for (let next = 0; next < jobs.length; next++) {
    if (!results.has(next)) await new Promise<void>((resolve) => waiting.set(next, resolve))
    if (failures.length) throw failures[0]
    const result = results.get(next)!
    results.delete(next)
    waiting.delete(next)
    send()
    const flushStarted = performance.now()
    await Promise.all(streams.map((stream, t) => stream.write(result.text[t])))
    timing.flush += performance.now() - flushStarted
    onChunk(jobs[next].ws, result.responses)
  }
  await Promise.all(streams.map((stream) => stream.end()))
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
const timing = { flush: 0 }

/** The AIO observations of a workspace (a month at a time), into `sink`. */
async function loadAio(ws: Workspace, endDay: string, sink: Pick<InsertSink, 'aio'>) {
  const startMs = Date.parse(`${addDays(endDay, -(DAYS - 1))}T00:00:00Z`)
  const rng = Rng.for(SEED, `aio-${ws.id}`)
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
// The twin takes index 10, after the noise workspaces' 1–9, so their ids and data do not
// change when a twin is added; its facts load right after the main workspace's.
const twin = TWIN > 0 ? { ...buildWorkspace(SEED, 10, TWIN, 200), name: 'bench-twin' } : undefined
const workspaces = [buildWorkspace(SEED, 0, TOTAL, 200), ...(twin ? [twin] : []), ...Array.from({ length: 9 }, (_, i) => buildWorkspace(SEED, i + 1, NOISE, 20))]
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
const progress = (n: number) => {
  loaded += n
  if (!values.quiet && (performance.now() - lastPrint > 5000 || loaded === totalResponses)) {
    lastPrint = performance.now()
    const seconds = (performance.now() - factsStarted) / 1000
    process.stderr.write(`  ${loaded.toLocaleString('en')}/${totalResponses.toLocaleString('en')} responses, ${Math.round(loaded / seconds).toLocaleString('en')}/s\n`)
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
      const workers = Array.from({ length: THREADS }, () => new Worker(new URL('./fact-generator-worker.mjs', import.meta.url)))
      try {
        await copyFacts(clients, workers, (_, n) => progress(n))
      } finally {
        await Promise.all(workers.map((worker) => worker.terminate()))
      }
      // The AIO rows (a few per prompt and day) after the facts' COPYs have ended.
      const aioSink = {
        aio: async (observations: Row[], appearances: Row[]) => {
          await copyRows(clients[0], 'aio_observation', columnNames(AIO_COLUMNS), observations)
          await copyRows(clients[0], 'aio_appearance', columnNames(APPEARANCE_COLUMNS), appearances)
        },
      }
      for (const ws of workspaces) await loadAio(ws, endDay, aioSink)
      copySeconds = (performance.now() - factsStarted) / 1000
      if (!values.quiet)
        process.stderr.write(
          `facts copied in ${Math.round(copySeconds)} s by ${THREADS} generator threads (the COPY writes waited ${Math.round(timing.flush / 100) / 10} s for the sockets)\n`,
        )
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
  const sink = insertSink(db)
  for (const ws of workspaces) {
    for (let chunk = 0; chunk < chunkCount(ws); chunk++) {
      progress(generateChunk({ ws, seed: SEED, days: DAYS, endDay, chunk }, sink))
      await sink.flush()
    }
    await loadAio(ws, endDay, sink)
  }
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
//
// The rebuild's plans need the statistics of what was just loaded: without them (a new
// database's tables are estimated from their size alone) the URL families joined each of
// the workspace's URLs to its citations through citation_url_idx, a heap page read per
// citation, since the facts lie in time order: the 10M build's citation group ran for more
// than 40 minutes reading 400 GB through the page cache. ANALYZE samples; it takes seconds.
const rollupWorkspaces = values['skip-rollups'] ? [] : workspaces
if (rollupWorkspaces.length) await sql`analyze response, mention, citation, aio_observation, aio_appearance`.execute(db)
for (const ws of rollupWorkspaces) await rebuildRollups(db, ws.id, { families: numbering })
if (rollupWorkspaces.length) await sql`analyze workspace_url`.execute(db)
const numberingSeconds = (performance.now() - rollupStarted) / 1000
// Each group's own seconds (summed over the workspaces; the three run at once), to see which
// one the phase waits for.
const groupSeconds = [0, 0, 0]
for (const ws of rollupWorkspaces) {
  await Promise.all(
    groups.map(async (families, g) => {
      const groupStarted = performance.now()
      await rebuildRollups(db, ws.id, { families })
      groupSeconds[g] += (performance.now() - groupStarted) / 1000
    }),
  )
}
const rollupSeconds = (performance.now() - rollupStarted) / 1000
const round1 = (x: number) => Math.round(x * 10) / 10
const rollupPhases = {
  analyze_and_numbering: round1(numberingSeconds),
  mention_group: round1(groupSeconds[0]),
  citation_group: round1(groupSeconds[1]),
  response_group: round1(groupSeconds[2]),
}
if (!values.quiet) process.stderr.write(`rollups built in ${round1(rollupSeconds)} s (${JSON.stringify(rollupPhases)})\n`)
// Planner statistics and the visibility map (index-only scans): PostgreSQL would get them
// from autovacuum eventually, PGlite never does by itself.
const vacuumStarted = performance.now()
if (!values['skip-rollups']) await sql`vacuum analyze`.execute(db)
const vacuumSeconds = (performance.now() - vacuumStarted) / 1000
/** A key with every scope and the fact counts of one workspace, for its dataset file. */
async function describe(ws: Workspace) {
  const key = await createApiKey(db, { workspaceId: ws.id, scopes: [...SCOPES], name: 'bench' })
  const counts = await sql<{ responses: number; mentions: number; citations: number; observations: number }>`
    select (select count(*) from response where workspace_id = ${ws.id}) as responses,
           (select count(*) from mention where workspace_id = ${ws.id}) as mentions,
           (select count(*) from citation where workspace_id = ${ws.id}) as citations,
           (select count(*) from aio_observation where workspace_id = ${ws.id}) as observations`.execute(db)
  return { workspace_id: ws.id, key: key.key, main: counts.rows[0] }
}
const mainDataset = await describe(workspaces[0])
const twinDataset = twin ? await describe(twin) : undefined
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
  ...mainDataset,
  noise_workspaces: 9,
  noise_responses_each: NOISE,
  twin: twinDataset ? { workspace_id: twinDataset.workspace_id, responses: TWIN, out: TWIN_OUT } : null,
  total_responses: totalResponses,
  load_seconds: seconds,
  method: useCopy ? 'copy' : 'inserts',
  phases_seconds: {
    facts: Math.round(factSeconds),
    generate_and_copy: copySeconds === undefined ? null : Math.round(copySeconds),
    indexes: indexSeconds === undefined ? null : Math.round(indexSeconds),
    rollups: Math.round(rollupSeconds),
    rollup_parts: rollupPhases,
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
// The twin's file has the same shape, so `npm run bench -- --dataset` reads either.
if (twinDataset) writeFileSync(TWIN_OUT, `${JSON.stringify({ ...summary, ...twinDataset, twin_of: summary.workspace_id }, null, 2)}\n`)
const { key: _secret, ...shown } = summary
console.log(JSON.stringify(shown, null, 2))
console.log(`Loaded ${totalResponses.toLocaleString('en')} responses in ${seconds} s; key and ids in ${values.out}`)
