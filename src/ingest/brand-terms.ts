import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { compileBrandMatcherAsync, matcherCache, type BrandMatcher, type BrandTerms } from '../analysis/index.js'

/** Brands read per query: a workspace at the limits has megabytes of aliases. */
const BRAND_PAGE = 50
const SEPARATOR = String.fromCharCode(30)

/**
 * The active brands of a workspace as analysis terms. Inactive brands are not matched:
 * changing is_active re-analyses, so history always reflects the current brand list.
 * Read in pages, aliases joined into one string: parsing 25,000 aliases as a PostgreSQL
 * array held the event loop for 0.6 s (PostgreSQL) to 3 s (PGlite) in one go (issue 33).
 * An alias holding the separator itself is read again exactly, as JSON.
 */
export async function loadBrandTerms(db: DB, workspaceId: string): Promise<BrandTerms[]> {
  const brands: BrandTerms[] = []
  for (let after: string | undefined; ;) {
    const rows = await db
      .selectFrom('brand')
      .select(['id', 'name', 'domain', sql<string>`array_to_string(aliases, chr(30))`.as('joined'), sql<number>`coalesce(cardinality(aliases), 0)`.as('count')])
      .where('workspace_id', '=', workspaceId)
      .where('is_active', '=', true)
      .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
      .orderBy('id')
      .limit(BRAND_PAGE)
      .execute()
    for (const row of rows) {
      let aliases = Number(row.count) === 0 ? [] : row.joined.split(SEPARATOR)
      if (aliases.length !== Number(row.count)) aliases = await exactAliases(db, workspaceId, row.id)
      brands.push({ id: row.id, name: row.name, aliases, domain: row.domain })
    }
    if (rows.length < BRAND_PAGE) return brands
    after = rows[rows.length - 1].id
    // PGlite answers on this thread without a turn of the event loop between queries: give one.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function exactAliases(db: DB, workspaceId: string, brandId: string): Promise<string[]> {
  const row = await db
    .selectFrom('brand')
    .select(sql<string>`to_json(aliases)::text`.as('aliases'))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', brandId)
    .executeTakeFirstOrThrow()
  return JSON.parse(row.aliases) as string[]
}

// Compiled matchers are cached by the fingerprint of the brand list they came from, in the
// process's matcher cache (bounded in bytes: MATCHER_CACHE_MB, src/analysis/matcher-cache.ts).
// At the brand limits a list is megabytes of aliases: reading and compiling it for every
// ingest call would cost more than the analysis. The fingerprint is computed in the
// database, so an unchanged list is never sent over the wire; a large list compiles in
// slices, so other requests are answered meanwhile.
const lastKey = new Map<string, string>()
const REMEMBERED_WORKSPACES = 1000

/**
 * The active brand list's version as one hash: changes whenever matching could. Made of
 * each active row's id and row version (xmin: the transaction that wrote it; ctid: where,
 * which differs between two writes of one transaction), not of its text: hashing the
 * megabytes of aliases of a workspace at the limits took 65–280 ms per ingest call, this
 * takes a few. Any write to a brand row changes it (some needlessly, e.g. is_primary: a
 * recompilation, never a stale matcher).
 */
export async function brandListFingerprint(db: DB, workspaceId: string): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`
    select md5(coalesce(string_agg(id::text || ':' || xmin::text || ':' || ctid::text, ',' order by id), '')) as fingerprint
    from brand where workspace_id = ${workspaceId} and is_active`.execute(db)
  return rows[0].fingerprint
}

export async function loadBrandMatcher(db: DB, workspaceId: string): Promise<BrandMatcher> {
  const key = `brands:${workspaceId}:${await brandListFingerprint(db, workspaceId)}`
  const previous = lastKey.get(workspaceId)
  lastKey.delete(workspaceId) // most recently used last
  if (lastKey.size >= REMEMBERED_WORKSPACES) lastKey.delete(lastKey.keys().next().value as string)
  lastKey.set(workspaceId, key)
  // The workspace's brand list changed: its previous matcher will not be asked for again.
  if (previous !== undefined && previous !== key) matcherCache.discard(previous)
  const known = matcherCache.get(key) ?? matcherCache.pending(key)
  if (known) return known
  return compileBrandMatcherAsync(key, await loadBrandTerms(db, workspaceId))
}

/**
 * The matcher last compiled for the workspace in this process, without asking the
 * database; it may be out of date, or gone from the cache. Only for work that is checked
 * later against loadBrandMatcher under the analysis-inputs lock (ingestion's early analysis).
 */
export function lastBrandMatcher(workspaceId: string): BrandMatcher | undefined {
  const key = lastKey.get(workspaceId)
  return key === undefined ? undefined : matcherCache.get(key)
}
