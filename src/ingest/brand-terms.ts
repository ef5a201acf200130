import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { compileBrandMatcher, type BrandMatcher, type BrandTerms } from '../analysis/index.js'

/**
 * The active brands of a workspace as analysis terms. Inactive brands are not matched:
 * changing is_active re-analyses, so history always reflects the current brand list.
 */
export async function loadBrandTerms(db: DB, workspaceId: string): Promise<BrandTerms[]> {
  const rows = await db
    .selectFrom('brand')
    .select(['id', 'name', 'aliases', 'domain'])
    .where('workspace_id', '=', workspaceId)
    .where('is_active', '=', true)
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ id: row.id, name: row.name, aliases: row.aliases, domain: row.domain }))
}

// Compiled matchers by workspace, with the fingerprint of the brand list they came from.
// At the brand limits a list is megabytes of aliases: reading and compiling it for every
// ingest call would cost more than the analysis. The fingerprint is computed in the
// database, so an unchanged list is never sent over the wire.
const compiled = new Map<string, { fingerprint: string; matcher: BrandMatcher }>()
const CACHED_WORKSPACES = 100

/** The active brands' terms as one hash: changes whenever matching would. */
async function brandListFingerprint(db: DB, workspaceId: string): Promise<string> {
  const { rows } = await sql<{ fingerprint: string }>`
    select md5(coalesce(string_agg(concat_ws(chr(31), id::text, name, coalesce(domain, ''), array_to_string(aliases, chr(30))), chr(29) order by id), '')) as fingerprint
    from brand where workspace_id = ${workspaceId} and is_active`.execute(db)
  return rows[0].fingerprint
}

export async function loadBrandMatcher(db: DB, workspaceId: string): Promise<BrandMatcher> {
  const fingerprint = await brandListFingerprint(db, workspaceId)
  const hit = compiled.get(workspaceId)
  if (hit && hit.fingerprint === fingerprint) {
    compiled.delete(workspaceId) // most recently used last
    compiled.set(workspaceId, hit)
    return hit.matcher
  }
  const matcher = compileBrandMatcher(await loadBrandTerms(db, workspaceId))
  compiled.delete(workspaceId)
  if (compiled.size >= CACHED_WORKSPACES) compiled.delete(compiled.keys().next().value as string)
  compiled.set(workspaceId, { fingerprint, matcher })
  return matcher
}

/**
 * The matcher last compiled for the workspace in this process, without asking the
 * database; it may be out of date. Only for work that is checked later against
 * loadBrandMatcher under the analysis-inputs lock (ingestion's early analysis).
 */
export function lastBrandMatcher(workspaceId: string): BrandMatcher | undefined {
  return compiled.get(workspaceId)?.matcher
}
