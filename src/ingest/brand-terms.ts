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

export async function loadBrandMatcher(db: DB, workspaceId: string): Promise<BrandMatcher> {
  return compileBrandMatcher(await loadBrandTerms(db, workspaceId))
}
