// Competitor discovery over a workspace's stored answers (docs/uncertainty-and-discovery.md): reads the answers in
// id order, a batch at a time (only id, time and text), tallies the names they put forward
// (rank-candidates.ts), then writes the suggestions in one short transaction:
//   - a name not yet known becomes a brand with discovery_status 'suggested', is_active false,
//     and its evidence in brand_discovery;
//   - a name already suggested (same folded name) gets its evidence replaced: a re-run
//     updates, never duplicates;
//   - configured and rejected names never come out of the ranking (see rank-candidates.ts).
// Suggested brands are inactive, so matching ignores them: no re-analysis is needed until one
// is confirmed (PATCH is_active: true, which queues it like any brand edit).
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import { inTransaction } from '../db/tenant-scope.js'
import { lockAnalysisInputs } from '../db/analysis-lock.js'
import { bumpDataVersion } from '../db/data-version.js'
import { MAX_BRANDS_PER_WORKSPACE } from '../core/limits.js'
import { foldName } from './name-key.js'
import { DISCOVERY_DEFAULTS, DiscoveryTally, type DiscoveryOptions, type Suggestion } from './rank-candidates.js'
import { KNOWN_SITES } from './stop-list.js'

export const DISCOVERY_BATCH = 2000
/** answers scanned between yields to the event loop (about 0.3 ms each) */
const YIELD_EVERY = 100

export interface DiscoveryResult {
  responses_scanned: number
  candidates: number
  suggested: number
  updated: number
  /** suggestions the brand limit left out */
  skipped: number
  suggestions: { brand_id: string; name: string; responses: number; score: number; new: boolean }[]
  seconds: number
}

export interface DiscoveryRunOptions {
  batchSize?: number
  options?: DiscoveryOptions
  jobId?: string
  /** after each batch; may throw to stop (a job shutting down) */
  afterBatch?: (done: number, total: number) => Promise<void>
}

/**
 * What discovery must never propose: every confirmed or rejected brand's name, aliases and domain, the
 * names earlier runs found for brands since confirmed or rejected (they may have been renamed),
 * and the workspace's models.
 */
export async function loadExclusions(db: DB, workspaceId: string): Promise<string[]> {
  const [brands, decided, models] = await Promise.all([
    // Suggestions still waiting for a decision are not excluded: a re-run refreshes their evidence.
    db.selectFrom('brand').select(['name', 'aliases', 'domain']).where('workspace_id', '=', workspaceId).where('discovery_status', '<>', 'suggested').execute(),
    db
      .selectFrom('brand_discovery as d')
      .innerJoin('brand as b', (join) => join.onRef('b.workspace_id', '=', 'd.workspace_id').onRef('b.id', '=', 'd.brand_id'))
      .select('d.name_key')
      .where('d.workspace_id', '=', workspaceId)
      .where('b.discovery_status', '<>', 'suggested')
      .execute(),
    db.selectFrom('model').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute(),
  ])
  return [
    ...brands.flatMap((b) => [b.name, ...b.aliases, ...(b.domain ? [b.domain, b.domain.split('.')[0]] : [])]),
    ...decided.map((r) => r.name_key),
    ...models.flatMap((m) => [m.id, m.name]),
  ].map(foldName)
}

export async function discoverBrands(db: DB, workspaceId: string, run: DiscoveryRunOptions = {}): Promise<DiscoveryResult> {
  const started = performance.now()
  const batchSize = run.batchSize ?? DISCOVERY_BATCH
  const tally = new DiscoveryTally(run.options ?? DISCOVERY_DEFAULTS)
  const { n } = await db
    .selectFrom('response')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  const total = Number(n)
  await run.afterBatch?.(0, total)
  let after: string | undefined
  for (;;) {
    const rows = await db
      .selectFrom('response')
      .select(['id', 'content', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
      .orderBy('id')
      .limit(batchSize)
      .execute()
    if (rows.length === 0) break
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]
      tally.add({ id: row.id, createdAt: new Date(row.created_at), content: row.content })
      // The scan runs on the thread that serves requests: let them in every few dozen milliseconds.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve))
    }
    after = rows[rows.length - 1].id
    // Answers ingested meanwhile can push the count past the first one.
    await run.afterBatch?.(tally.answers, Math.max(total, tally.answers))
    if (rows.length < batchSize) break
  }

  const written = await inTransaction(db, async (trx) => {
    // Serialised with brand writes, so a brand created meanwhile is seen and never duplicated.
    await lockAnalysisInputs(trx, workspaceId, 'write')
    const suggestions = tally.rank({ terms: await loadExclusions(trx, workspaceId), sites: KNOWN_SITES })
    return writeSuggestions(trx, workspaceId, suggestions, run.jobId)
  })
  return {
    responses_scanned: tally.answers,
    candidates: tally.candidates,
    ...written,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }
}

async function writeSuggestions(trx: DB, workspaceId: string, suggestions: Suggestion[], jobId: string | undefined) {
  const known = await trx
    .selectFrom('brand_discovery as d')
    .innerJoin('brand as b', (join) => join.onRef('b.workspace_id', '=', 'd.workspace_id').onRef('b.id', '=', 'd.brand_id'))
    .select(['d.name_key', 'd.brand_id', 'b.name'])
    .where('d.workspace_id', '=', workspaceId)
    .where('b.discovery_status', '=', 'suggested')
    .execute()
  const byKey = new Map(known.map((k) => [k.name_key, k]))
  const { count } = await trx
    .selectFrom('brand')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  let room = MAX_BRANDS_PER_WORKSPACE - Number(count)
  const out: DiscoveryResult['suggestions'] = []
  let skipped = 0
  const evidence = (s: Suggestion) => ({
    responses: s.responses,
    score: s.score,
    first_seen: s.first_seen,
    last_seen: s.last_seen,
    signals: JSON.stringify(s.signals),
    examples: JSON.stringify(s.examples),
    job_id: jobId ?? null,
    updated_at: new Date(),
  })
  for (const s of suggestions) {
    const existing = byKey.get(s.key)
    if (existing) {
      await trx.updateTable('brand_discovery').set(evidence(s)).where('workspace_id', '=', workspaceId).where('brand_id', '=', existing.brand_id).execute()
      out.push({ brand_id: existing.brand_id, name: existing.name, responses: s.responses, score: s.score, new: false })
      continue
    }
    if (room <= 0) {
      skipped++
      continue
    }
    // The name's key is free among brands (the ranking excluded every brand's name), but a
    // different spelling of a name could still collide with brand_name_idx (lower(name)).
    const clash = await trx
      .selectFrom('brand')
      .select(['id', 'name', 'discovery_status'])
      .where('workspace_id', '=', workspaceId)
      .where(sql<boolean>`lower(name) = ${s.name.toLowerCase()}`)
      .executeTakeFirst()
    if (clash) {
      // A brand someone added as "suggested" by hand: it gets the evidence.
      if (clash.discovery_status === 'suggested') {
        await trx
          .insertInto('brand_discovery')
          .values({ workspace_id: workspaceId, brand_id: clash.id, name_key: s.key, ...evidence(s) })
          .onConflict((oc) => oc.doNothing())
          .execute()
        out.push({ brand_id: clash.id, name: clash.name, responses: s.responses, score: s.score, new: false })
      }
      continue
    }
    const brandId = newId()
    await trx
      .insertInto('brand')
      .values({
        workspace_id: workspaceId,
        id: brandId,
        name: s.name,
        domain: null,
        aliases: [],
        icon_url: null,
        is_primary: false,
        is_active: false,
        discovery_status: 'suggested',
      })
      .execute()
    await trx
      .insertInto('brand_discovery')
      .values({ workspace_id: workspaceId, brand_id: brandId, name_key: s.key, ...evidence(s) })
      .onConflict((oc) => oc.columns(['workspace_id', 'name_key']).doNothing())
      .execute()
    room--
    out.push({ brand_id: brandId, name: s.name, responses: s.responses, score: s.score, new: true })
  }
  // Brand lists (inactive ones included) are cached by data version.
  if (out.length > 0) await bumpDataVersion(trx, workspaceId)
  return { suggested: out.filter((s) => s.new).length, updated: out.filter((s) => !s.new).length, skipped, suggestions: out }
}
